"""Spatial cross products ``v×`` and ``v×*`` (Featherstone §2.9, eqs. 2.29–2.34, Table 2.3).

A 3-D vector fixed in a body that turns with angular velocity ``ω`` changes at the rate
``ω × r``.  §2.9 extends the idea to spatial vectors: a motion vector ``m`` carried by a body
moving with spatial velocity ``v`` changes at the rate ``v × m`` (eq. 2.29), and a force vector
``f`` at the rate ``v ×* f`` (eq. 2.30).  Written as matrices in Plücker coordinates,

* ``v× = [[ω×, 0], [v_O×, ω×]]`` (eq. 2.31, :func:`crm`), and
* ``v×* = [[ω×, v_O×], [0, ω×]] = -(v×)ᵀ`` (eq. 2.32, :func:`crf`), the dual operator, related
  to ``v×`` as ``X*`` is to ``X``.

:func:`cross_motion` and :func:`cross_force` evaluate the products of eqs. 2.33–2.34 for
vectors directly.  Like ``a×``, ``v×`` is linear in ``v``, so it is assembled from a constant
basis with one matrix product for a whole batch.
"""

from __future__ import annotations

import numpy as np

from .._batched import crm_matrix as _crm  # v× without validation
from .._validate import as_array, broadcast_batch

__all__ = ["crm", "crf", "cross_motion", "cross_force"]


def crm(v) -> np.ndarray:
    """Spatial cross operator for motion vectors, ``v×`` (Featherstone eq. 2.31).

    Parameters
    ----------
    v : array_like, shape (..., 6)
        Spatial motion vector ``[ω; v_O]``.

    Returns
    -------
    ndarray, shape (..., 6, 6)
        ``[[ω×, 0], [v_O×, ω×]]``, so that ``crm(v) @ m`` is the derivative of a motion
        vector ``m`` moving with velocity ``v`` (eq. 2.29).

    Raises
    ------
    ValueError
        If an input does not have the documented trailing shape or is not finite.
    """
    v = as_array(v, "v", (6,))
    return _crm(v)


def crf(v) -> np.ndarray:
    """Spatial cross operator for force vectors, ``v×* = -(v×)ᵀ`` (Featherstone eq. 2.32).

    Parameters
    ----------
    v : array_like, shape (..., 6)
        Spatial motion vector ``[ω; v_O]``.

    Returns
    -------
    ndarray, shape (..., 6, 6)
        ``[[ω×, v_O×], [0, ω×]]``.

    Raises
    ------
    ValueError
        If an input does not have the documented trailing shape or is not finite.
    """
    return -np.swapaxes(crm(v), -1, -2)


def cross_motion(v, m) -> np.ndarray:
    """Spatial cross product of motion vectors, ``v × m`` without forming ``crm(v)`` (eq. 2.33).

    Parameters
    ----------
    v, m : array_like, shape (..., 6)

    Returns
    -------
    ndarray, shape (..., 6)
        ``[ω × m_ω; ω × m_O + v_O × m_ω]``.

    Raises
    ------
    ValueError
        If an input does not have the documented trailing shape or is not finite, or the batch
        shapes of the arguments do not broadcast (the message names each).
    """
    v = as_array(v, "v", (6,))
    m = as_array(m, "m", (6,))
    broadcast_batch(v=(v, 1), m=(m, 1))
    return (_crm(v) @ m[..., None])[..., 0]


def cross_force(v, f) -> np.ndarray:
    """Spatial cross product of a motion and a force vector, ``v ×* f`` (eq. 2.34).

    Parameters
    ----------
    v : array_like, shape (..., 6)
        Motion vector ``[ω; v_O]``.
    f : array_like, shape (..., 6)
        Force vector ``[n_O; f]``.

    Returns
    -------
    ndarray, shape (..., 6)
        ``[ω × n_O + v_O × f; ω × f]``.

    Raises
    ------
    ValueError
        If an input does not have the documented trailing shape or is not finite, or the batch
        shapes of the arguments do not broadcast (the message names each).
    """
    v = as_array(v, "v", (6,))
    f = as_array(f, "f", (6,))
    broadcast_batch(v=(v, 1), f=(f, 1))
    return _cross_force(v, f)


def _cross_force(v: np.ndarray, f: np.ndarray) -> np.ndarray:
    """:func:`cross_force` of float arrays already validated (internal callers)."""
    return -(f[..., None, :] @ _crm(v))[..., 0, :]  # v×* f = -(v×)ᵀ f
