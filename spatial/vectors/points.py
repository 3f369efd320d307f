"""Body-fixed points: coordinates, velocities, accelerations, forces (Featherstone §2.5, §2.11).

A spatial velocity ``v = [ω; v_O]`` describes the whole body's motion at once; the velocity of a
particular body-fixed point ``p`` follows by moving the reference point from the origin to ``p``
(eq. 2.1): ``ṗ = v_O + ω × p`` (:func:`point_velocity`).  Differentiating again needs care
(§2.11): the spatial acceleration is *not* the classical acceleration of the point at the origin,
and the point's classical acceleration picks up the term ``ω × ṗ``
(:func:`point_acceleration`).  A linear force ``f`` acting along a line through ``p`` is the
spatial force ``[p × f; f]`` about the origin (§2.3, :func:`point_force`), and
:func:`transform_point` maps point coordinates with the rotation and translation of a Plücker
transform.
"""

from __future__ import annotations

import numpy as np

from .._validate import as_array, broadcast_batch
from .plucker import unplux

__all__ = ["transform_point", "point_velocity", "point_acceleration", "point_force"]


def transform_point(X, p) -> np.ndarray:
    """Coordinates in B of a point given in A coordinates, ``E (p - r)`` for ``X_BA = plux(E, r)``.

    Parameters
    ----------
    X : array_like, shape (..., 6, 6)
    p : array_like, shape (..., 3)

    Returns
    -------
    ndarray, shape (..., 3)

    Raises
    ------
    ValueError
        If ``X`` is not a Plücker transform (see :func:`unplux`) or ``p`` is not a finite 3-vector,
        or the batch shapes of the arguments do not broadcast (the message names each).
    """
    E, r = unplux(X)
    p = as_array(p, "p", (3,))
    broadcast_batch(X=(E, 2), p=(p, 1))
    return (E @ (p - r)[..., None])[..., 0]


def point_velocity(v, p) -> np.ndarray:
    """Linear velocity of the body-fixed point ``p`` of a body with spatial velocity ``v``.

    ``ṗ = v_O + ω × p`` (Featherstone §2.5), with ``v`` and ``p`` in the same coordinates.

    Parameters
    ----------
    v : array_like, shape (..., 6)
    p : array_like, shape (..., 3)

    Returns
    -------
    ndarray, shape (..., 3)

    Raises
    ------
    ValueError
        If an input does not have the documented trailing shape or is not finite, or the batch
        shapes of the arguments do not broadcast (the message names each).
    """
    v = as_array(v, "v", (6,))
    p = as_array(p, "p", (3,))
    broadcast_batch(v=(v, 1), p=(p, 1))
    return _point_velocity(v, p)


def _point_velocity(v: np.ndarray, p: np.ndarray) -> np.ndarray:
    """``v_O + ω × p`` without validation."""
    return v[..., 3:] + np.cross(v[..., :3], p)


def point_acceleration(v, a, p) -> np.ndarray:
    """Classical (Newtonian) acceleration of the body-fixed point ``p`` (Featherstone §2.11).

    The spatial acceleration ``a`` is not the classical one: the point's acceleration is
    ``a_O + α × p + ω × (v_O + ω × p)``, all in the same coordinates.

    Parameters
    ----------
    v : array_like, shape (..., 6)
        Spatial velocity.
    a : array_like, shape (..., 6)
        Spatial acceleration.
    p : array_like, shape (..., 3)

    Returns
    -------
    ndarray, shape (..., 3)

    Raises
    ------
    ValueError
        If an input does not have the documented trailing shape or is not finite, or the batch
        shapes of the arguments do not broadcast (the message names each).
    """
    a = as_array(a, "a", (6,))
    p = as_array(p, "p", (3,))
    v = as_array(v, "v", (6,))
    broadcast_batch(v=(v, 1), a=(a, 1), p=(p, 1))
    return a[..., 3:] + np.cross(a[..., :3], p) + np.cross(v[..., :3], _point_velocity(v, p))


def point_force(f, p) -> np.ndarray:
    """Spatial force ``[p × f; f]`` of a linear force ``f`` acting on a line through ``p``.

    Parameters
    ----------
    f : array_like, shape (..., 3)
    p : array_like, shape (..., 3)

    Returns
    -------
    ndarray, shape (..., 6)

    Raises
    ------
    ValueError
        If an input does not have the documented trailing shape or is not finite, or the batch
        shapes of the arguments do not broadcast (the message names each).
    """
    f = as_array(f, "f", (3,))
    p = as_array(p, "p", (3,))
    broadcast_batch(f=(f, 1), p=(p, 1))
    f, p = np.broadcast_arrays(f, p)
    return np.concatenate([np.cross(p, f), f], -1)
