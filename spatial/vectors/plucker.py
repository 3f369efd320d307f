"""Plücker transforms: building, splitting and inverting them (Featherstone §2.8, App. A.2).

A Plücker transform ``X_BA`` changes the coordinates of a motion vector from frame A to frame B.
§2.8 assembles it from two simple moves:

* **Rotation** (eq. 2.19).  If A and B share their origin and the 3x3 matrix ``E`` maps A
  coordinates of a 3-D vector to B coordinates, both 3-D halves of a spatial vector are rotated
  by the same ``E``: ``rot(E) = blkdiag(E, E)``.  :func:`rx`, :func:`ry`, :func:`rz` give ``E``
  for a frame B turned by ``θ`` about A's x, y or z axis (Table 2.2); they are *coordinate*
  rotations, the transposes of the active rotation matrices by the same angle.
  :func:`rotx`, :func:`roty`, :func:`rotz` lift them to 6-D.
* **Translation** (eq. 2.21).  Moving the reference point by ``r`` keeps the angular part of a
  motion vector and changes its linear part by ``-r × ω`` (eq. 2.1), so
  ``xlt(r) = [[1, 0], [-r×, 1]]``.
* **General transform** (eq. 2.24).  Translating first and rotating second,
  ``X_BA = rot(E) xlt(r) = [[E, 0], [-E r×, E]]`` (:func:`plux`; :func:`unplux` recovers
  ``E`` and ``r``).  Its inverse needs no matrix inversion: transposing each 3x3 block gives
  ``X_AB`` (eq. 2.26, :func:`xinv`), and the transform of force vectors is ``X* = X⁻ᵀ``
  (eq. 2.25, :func:`xstar`).  The 4x4 homogeneous transform carrying the same information is
  ``[[E, -E r], [0, 1]]`` (eq. 2.28, :func:`pluho` converts both ways).

Finally :func:`XtoV` (Table A.2) reads from ``X_BA`` the small motion that carries A onto B,
which the loop-closure algorithms use as a position error (§8.3).

Not every 6x6 matrix is a Plücker transform, and the shortcuts above (the inverse by transposed
blocks, above all) silently give wrong numbers for one that is not: ``xinv(2·1)`` would be
``2·1``.  So every public function that assumes a Plücker transform first checks its structure
(upper-right block zero, equal diagonal blocks, a rotation ``E``, a lower-left block ``-E r×``)
and names the property that fails.  The recursive algorithms build their transforms themselves
and call the unchecked kernels of :mod:`spatial._batched` instead.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _batched as _kernel
from .._validate import as_array, as_scalar_array, broadcast_batch, real_array, require_rotation
from .vec3 import skew, unskew

__all__ = [
    "rx",
    "ry",
    "rz",
    "rot",
    "xlt",
    "rotx",
    "roty",
    "rotz",
    "plux",
    "unplux",
    "pluho",
    "xinv",
    "xstar",
    "XtoV",
]


_object_cos = np.frompyfunc(lambda t: math.cos(t) if isinstance(t, int | float) else t.cos(), 1, 1)
_object_sin = np.frompyfunc(lambda t: math.sin(t) if isinstance(t, int | float) else t.sin(), 1, 1)


def _coordinate_rotation(theta, name: str, i: int, j: int) -> np.ndarray:
    """Coordinate rotation by ``theta`` about the axis that is neither ``i`` nor ``j``."""
    return _rotation_about(as_scalar_array(theta, name), i, j)


def _rotation_about(theta: np.ndarray, i: int, j: int) -> np.ndarray:
    """Unvalidated kernel of :func:`_coordinate_rotation` (also on symbols, object arrays)."""
    theta = np.asarray(theta)
    if theta.dtype == object:  # symbols, possibly mixed with numbers (a fixed angle)
        c, s = np.asarray(_object_cos(theta)), np.asarray(_object_sin(theta))
    else:
        c, s = np.cos(theta), np.sin(theta)
    E = np.zeros(theta.shape + (3, 3), np.result_type(theta, np.float64))
    k = 3 - i - j
    E[..., k, k] = 1.0
    E[..., i, i] = c
    E[..., j, j] = c
    E[..., i, j] = s
    E[..., j, i] = -s
    return E


#: Unvalidated kernels of :func:`rx`, :func:`ry`, :func:`rz` for the joint models.
_COORDINATE_ROTATIONS = {
    "X": lambda theta: _rotation_about(theta, 1, 2),
    "Y": lambda theta: _rotation_about(theta, 2, 0),
    "Z": lambda theta: _rotation_about(theta, 0, 1),
}


def rx(theta) -> np.ndarray:
    """3x3 coordinate rotation about x by ``theta`` (Featherstone Table 2.2).

    This is the transpose of the usual active rotation matrix: it maps A coordinates to the
    coordinates of a frame B that is rotated by ``theta`` about A's x axis.

    Parameters
    ----------
    theta : float or array_like, shape (...)

    Returns
    -------
    ndarray, shape (..., 3, 3)

    Raises
    ------
    ValueError
        If ``theta`` is not finite.
    """
    return _coordinate_rotation(theta, "theta", 1, 2)


def ry(theta) -> np.ndarray:
    """3x3 coordinate rotation about y by ``theta`` (Featherstone Table 2.2). See :func:`rx`."""
    return _coordinate_rotation(theta, "theta", 2, 0)


def rz(theta) -> np.ndarray:
    """3x3 coordinate rotation about z by ``theta`` (Featherstone Table 2.2). See :func:`rx`."""
    return _coordinate_rotation(theta, "theta", 0, 1)


def rot(E) -> np.ndarray:
    """Plücker transform of a pure rotation, ``blkdiag(E, E)`` (Featherstone Table 2.2).

    Parameters
    ----------
    E : array_like, shape (..., 3, 3)
        Rotation matrix mapping A coordinates to B coordinates.

    Returns
    -------
    ndarray, shape (..., 6, 6)

    Raises
    ------
    ValueError
        If ``E`` is not a proper rotation matrix.
    """
    E = as_array(E, "E", (3, 3))
    require_rotation(E)
    return _kernel.rot(E)


def xlt(r) -> np.ndarray:
    """Plücker transform of a pure translation by ``r`` (Featherstone Table 2.2).

    Parameters
    ----------
    r : array_like, shape (..., 3)
        Position of the new frame's origin in the old frame's coordinates.

    Returns
    -------
    ndarray, shape (..., 6, 6)
        ``[[1, 0], [-r×, 1]]``.

    Raises
    ------
    ValueError
        If an input does not have the documented trailing shape or is not finite.
    """
    rx_ = skew(r)
    X = np.zeros(rx_.shape[:-2] + (6, 6))
    X[..., :3, :3] = np.eye(3)
    X[..., 3:, 3:] = np.eye(3)
    X[..., 3:, :3] = -rx_
    return X


def rotx(theta) -> np.ndarray:
    """Plücker rotation about x, ``rot(rx(theta))`` (Featherstone Table 2.2)."""
    return rot(rx(theta))


def roty(theta) -> np.ndarray:
    """Plücker rotation about y, ``rot(ry(theta))`` (Featherstone Table 2.2)."""
    return rot(ry(theta))


def rotz(theta) -> np.ndarray:
    """Plücker rotation about z, ``rot(rz(theta))`` (Featherstone Table 2.2)."""
    return rot(rz(theta))


def plux(E, r) -> np.ndarray:
    """Plücker transform ``X_BA = rot(E) @ xlt(r)`` from a rotation and a translation (eq. 2.24).

    Parameters
    ----------
    E : array_like, shape (..., 3, 3)
        Rotation mapping A coordinates to B coordinates.
    r : array_like, shape (..., 3)
        Position of B's origin expressed in A coordinates.

    Returns
    -------
    ndarray, shape (..., 6, 6)
        ``[[E, 0], [-E r×, E]]``.

    Raises
    ------
    ValueError
        If ``E`` is not a rotation matrix or ``r`` is not a finite 3-vector, or the batch shapes of
        the arguments do not broadcast (the message names each).
    """
    E = as_array(E, "E", (3, 3))
    require_rotation(E)
    r = as_array(r, "r", (3,))
    broadcast_batch(E=(E, 2), r=(r, 1))
    return _kernel.plux(E, r)


def unplux(X) -> tuple[np.ndarray, np.ndarray]:
    """Split a Plücker transform into ``(E, r)`` with ``X == plux(E, r)``; inverse of :func:`plux`.

    Parameters
    ----------
    X : array_like, shape (..., 6, 6)

    Returns
    -------
    E : ndarray, shape (..., 3, 3)
    r : ndarray, shape (..., 3)

    Raises
    ------
    ValueError
        If ``X`` is not a Plücker transform, naming the property that fails: the upper-right
        3x3 block is not zero, the diagonal blocks differ, the diagonal block is not a rotation,
        or the lower-left block is not ``-E r×`` (each to 1e-8 relative to ``max |X|``).
    """
    X = _as_plucker(X)
    E = X[..., :3, :3]
    return E.copy(), unskew(-np.swapaxes(E, -1, -2) @ X[..., 3:, :3])


def _as_plucker(X, name: str = "X", tol: float = 1e-8) -> np.ndarray:
    """``X`` as an array after checking that it is a Plücker transform ``[[E, 0], [B, E]]``.

    The properties, in the order they are reported: the upper-right 3x3 block is zero; the two
    diagonal 3x3 blocks are equal; that block ``E`` is a rotation (``EᵀE = 1``,
    ``det E = +1``); the lower-left block ``B`` is ``-E r×`` for some ``r``, i.e. ``Eᵀ B`` is
    skew-symmetric.  Tolerances are ``tol`` for ``EᵀE = 1`` and ``tol`` relative to the
    largest entry of ``X`` (at least 1) for the rest.  The test costs a few small products; the
    message is worked out only when it fails.

    Raises
    ------
    ValueError
        Naming ``name`` and the first property that fails.
    """
    X = as_array(X, name, (6, 6))
    tol_X = tol * max(1.0, abs(X).max(initial=0.0))
    E = X[..., :3, :3]
    # Eᵀ E and Eᵀ B in one product: X[..., :, :3] stacks E over B
    G = np.swapaxes(E, -1, -2)[..., None, :, :] @ X[..., :, :3].reshape(X.shape[:-2] + (2, 3, 3))
    S = G[..., 1, :, :]
    det = np.linalg.det(E) if X.ndim == 2 else _det3(E)  # the formula is faster for batches
    if (
        abs(X[..., :3, 3:]).max(initial=0.0) > tol_X
        or abs(X[..., 3:, 3:] - E).max(initial=0.0) > tol_X
        or abs(G[..., 0, :, :] - np.eye(3)).max(initial=0.0) > tol
        or abs(S + np.swapaxes(S, -1, -2)).max(initial=0.0) > tol_X
        or np.min(det, initial=1.0) < 0.0
    ):
        _explain_not_plucker(X, name, tol, tol_X)
    return X


def _det3(E: np.ndarray) -> np.ndarray:
    """``det E`` of 3x3 matrices (..., 3, 3) as the triple product of the rows."""
    a, b, c = E[..., 0, :], E[..., 1, :], E[..., 2, :]
    return (
        a[..., 0] * (b[..., 1] * c[..., 2] - b[..., 2] * c[..., 1])
        + a[..., 1] * (b[..., 2] * c[..., 0] - b[..., 0] * c[..., 2])
        + a[..., 2] * (b[..., 0] * c[..., 1] - b[..., 1] * c[..., 0])
    )


def _explain_not_plucker(X: np.ndarray, name: str, tol: float, tol_X: float) -> None:
    """Raise the ``ValueError`` that names the first property of :func:`_as_plucker` that fails."""
    E, B = X[..., :3, :3], X[..., 3:, :3]
    prefix = f"{name} is not a Plücker transform"
    error = np.abs(X[..., :3, 3:]).max(initial=0.0)
    if error > tol_X:
        raise ValueError(
            f"{prefix}: its upper-right 3x3 block must be zero (max |entry| {error:.3g})"
        )
    error = np.abs(X[..., 3:, 3:] - E).max(initial=0.0)
    if error > tol_X:
        raise ValueError(
            f"{prefix}: its two diagonal 3x3 blocks must be equal (max difference {error:.3g})"
        )
    try:
        require_rotation(E, f"the rotation block of {name}", tol)
    except ValueError as bad_rotation:
        raise ValueError(f"{prefix}: {bad_rotation}") from None
    S = np.swapaxes(E, -1, -2) @ B
    error = np.abs(S + np.swapaxes(S, -1, -2)).max(initial=0.0)
    raise ValueError(
        f"{prefix}: its lower-left block must be -E r× for some r (Eᵀ times it is not "
        f"skew-symmetric: max |EᵀB + BᵀE| {error:.3g})"
    )


def pluho(X) -> np.ndarray:
    """Convert between a Plücker transform and a 4x4 homogeneous transform (eq. 2.28).

    ``X_BA = plux(E, r)`` (6x6, motion vectors A → B) corresponds to the homogeneous
    transform ``T_BA = [[E, -E r], [0, 1]]`` (4x4, point coordinates A → B).  The direction
    of the conversion is chosen from the input's shape.  In Sueda's notation the 4x4 result is
    the frame ``E_BA``, so ``Ad(pluho(X)) == X``.

    Parameters
    ----------
    X : array_like, shape (..., 6, 6) or (..., 4, 4)

    Returns
    -------
    ndarray, shape (..., 4, 4) or (..., 6, 6)

    Raises
    ------
    ValueError
        If the input is neither a Plücker transform nor a rigid homogeneous transform.
    """
    A = real_array(X, "X")
    if A.shape[-2:] == (6, 6):
        E, r = unplux(A)
        T = np.zeros(A.shape[:-2] + (4, 4))
        T[..., :3, :3] = E
        T[..., :3, 3] = -(E @ r[..., None])[..., 0]
        T[..., 3, 3] = 1.0
        return T
    if A.shape[-2:] == (4, 4):
        A = as_array(A, "T", (4, 4))
        if np.abs(A[..., 3, :] - [0.0, 0.0, 0.0, 1.0]).max(initial=0.0) > 1e-12:
            raise ValueError("T is not a homogeneous transform: its last row must be [0, 0, 0, 1]")
        E = A[..., :3, :3]
        require_rotation(E, "the rotation block of T")
        r = -(np.swapaxes(E, -1, -2) @ A[..., :3, 3:4])[..., 0]
        return plux(E, r)
    raise ValueError(f"pluho expects shape (..., 6, 6) or (..., 4, 4), got {A.shape}")


# ------------------------------------------- inverse and dual transforms, without inversion


def xinv(X) -> np.ndarray:
    """Inverse Plücker transform ``X⁻¹`` by transposing the 3x3 blocks (eq. 2.26).

    For ``X = [[E, 0], [B, E]]`` the inverse is ``[[Eᵀ, 0], [Bᵀ, Eᵀ]]``: no matrix is inverted.

    Parameters
    ----------
    X : array_like, shape (..., 6, 6)
        A Plücker motion transform ``X_BA``.

    Returns
    -------
    ndarray, shape (..., 6, 6)
        ``X_AB``.

    Raises
    ------
    ValueError
        If ``X`` is not a Plücker transform (see :func:`unplux`).
    """
    return _kernel.xinv(_as_plucker(X))


def xstar(X) -> np.ndarray:
    """Force transform ``X* = X⁻ᵀ`` of a Plücker motion transform (eq. 2.25).

    Computed as ``[[E, B'], [0, E]]`` from ``X = [[E, 0], [B', E]]``, without inversion.

    Parameters
    ----------
    X : array_like, shape (..., 6, 6)

    Returns
    -------
    ndarray, shape (..., 6, 6)

    Raises
    ------
    ValueError
        If ``X`` is not a Plücker transform (see :func:`unplux`).
    """
    return np.swapaxes(xinv(X), -1, -2)


def XtoV(X) -> np.ndarray:
    """Small-motion vector that carries frame A to frame B, from ``X_BA`` (Table A.2).

    Returns the more accurate of the book's two variants: the result ``v`` is invariant
    under the transform (``X v == v``), is exact for pure translations, and approximates the
    velocity ``u`` that moves A onto B in unit time, converging as the rotation angle goes to
    zero.  It is used for loop-closure position errors (Featherstone §8.3).

    Parameters
    ----------
    X : array_like, shape (..., 6, 6)

    Returns
    -------
    ndarray, shape (..., 6)

    Raises
    ------
    ValueError
        If ``X`` is not a Plücker transform (see :func:`unplux`).
    """
    X = _as_plucker(X)
    return 0.5 * np.stack(
        [
            X[..., 1, 2] - X[..., 2, 1],
            X[..., 2, 0] - X[..., 0, 2],
            X[..., 0, 1] - X[..., 1, 0],
            X[..., 4, 2] - X[..., 5, 1],
            X[..., 5, 0] - X[..., 3, 2],
            X[..., 3, 1] - X[..., 4, 0],
        ],
        -1,
    )
