"""3D and spatial (6D) vector algebra in Plücker coordinates.

Conventions (see ``spatial.__doc__``): spatial vectors are arrays of shape ``(..., 6)`` with the
angular part first, motion ``v = [ω; v_O]``, force ``f = [n_O; f]``.  A Plücker transform
``X = X_BA`` ("B from A") maps motion-vector coordinates from frame A to frame B and is built as
``X_BA = rot(E) @ xlt(r)``, where ``E`` maps 3D coordinates from A to B and ``r`` is B's origin
expressed in A (Featherstone eq. 2.24, Table 2.2).  Every function accepts leading batch
dimensions and broadcasts over them.

Sources: Featherstone, *Rigid Body Dynamics Algorithms*, ch. 2 (eqs. 2.23–2.33, Tables 2.1–2.3)
and App. A (Tables A.2 and A.4).
"""

from __future__ import annotations

import numpy as np

from .._validate import as_array, as_scalar_array, require_rotation

__all__ = [
    "skew",
    "unskew",
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
    "inv_motion",
    "apply_force",
    "inv_force",
    "transform_inertia",
    "inv_transform_inertia",
    "crm",
    "crf",
    "cross_motion",
    "cross_force",
    "XtoV",
    "transform_point",
    "point_velocity",
    "point_acceleration",
    "point_force",
    "swap_linear_angular",
]


# ----------------------------------------------------------------------------- 3D vectors


def skew(v: np.ndarray) -> np.ndarray:
    """Return the 3x3 cross-product matrix ``v×`` of a 3D vector (Featherstone eq. 2.23).

    Parameters
    ----------
    v : array_like, shape (..., 3)

    Returns
    -------
    ndarray, shape (..., 3, 3)
        ``skew(v) @ u == np.cross(v, u)``.

    Raises
    ------
    ValueError
        If ``v`` is not of shape (..., 3) or is not finite.
    """
    v = as_array(v, "v", (3,))
    return (v @ _SKEW_BASIS).reshape(v.shape[:-1] + (3, 3))


# v× is linear in v: v× = Σ_k v_k (e_k×), one small product with this (3, 9) basis
_SKEW_BASIS = np.array(
    [
        [[0.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]],
        [[0.0, 0.0, 1.0], [0.0, 0.0, 0.0], [-1.0, 0.0, 0.0]],
        [[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
    ]
).reshape(3, 9)


def unskew(S: np.ndarray) -> np.ndarray:
    """Return the 3D vector of a cross-product matrix; the inverse of :func:`skew`.

    Only the skew-symmetric part of ``S`` is used, ``(S - Sᵀ)/2``, so a slightly
    non-skew input (round-off) gives the nearest vector.

    Parameters
    ----------
    S : array_like, shape (..., 3, 3)

    Returns
    -------
    ndarray, shape (..., 3)

    Raises
    ------
    ValueError
        If an input does not have the documented trailing shape or is not finite.
    """
    S = as_array(S, "S", (3, 3))
    return 0.5 * np.stack(
        [S[..., 2, 1] - S[..., 1, 2], S[..., 0, 2] - S[..., 2, 0], S[..., 1, 0] - S[..., 0, 1]],
        -1,
    )


# ----------------------------------------------------------------- rotations and transforms


def _coordinate_rotation(theta, name: str, i: int, j: int) -> np.ndarray:
    """Coordinate rotation by ``theta`` about the axis that is neither ``i`` nor ``j``."""
    theta = as_scalar_array(theta, name)
    c, s = np.cos(theta), np.sin(theta)
    E = np.zeros(theta.shape + (3, 3))
    k = 3 - i - j
    E[..., k, k] = 1.0
    E[..., i, i] = c
    E[..., j, j] = c
    E[..., i, j] = s
    E[..., j, i] = -s
    return E


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
    X = np.zeros(E.shape[:-2] + (6, 6))
    X[..., :3, :3] = E
    X[..., 3:, 3:] = E
    return X


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
        If ``E`` is not a rotation matrix or ``r`` is not a finite 3-vector.
    """
    E = as_array(E, "E", (3, 3))
    require_rotation(E)
    rx_ = skew(r)
    E, rx_ = np.broadcast_arrays(E, rx_)
    X = np.zeros(E.shape[:-2] + (6, 6))
    X[..., :3, :3] = E
    X[..., 3:, 3:] = E
    X[..., 3:, :3] = -E @ rx_
    return X


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
        If ``X`` does not have the block structure ``[[E, 0], [-E r×, E]]`` of a Plücker transform.
    """
    X = _as_plucker(X)
    E = X[..., :3, :3]
    return E.copy(), unskew(-np.swapaxes(E, -1, -2) @ X[..., 3:, :3])


def _as_plucker(X, name: str = "X", tol: float = 1e-8) -> np.ndarray:
    """Validate that ``X`` has the structure of a Plücker motion transform."""
    X = as_array(X, name, (6, 6))
    E = X[..., :3, :3]
    scale = 1.0 + np.abs(X).max(initial=0.0)
    if np.abs(X[..., :3, 3:]).max(initial=0.0) > tol * scale or (
        np.abs(X[..., 3:, 3:] - E).max(initial=0.0) > tol * scale
    ):
        raise ValueError(f"{name} is not a Plücker transform: expected blocks [[E, 0], [-E r×, E]]")
    require_rotation(E, f"the rotation block of {name}")
    # the bottom-left block must be -E r× for some r, i.e. Eᵀ·(bottom-left) must be skew
    S = np.swapaxes(E, -1, -2) @ X[..., 3:, :3]
    if np.abs(S + np.swapaxes(S, -1, -2)).max(initial=0.0) > tol * scale:
        raise ValueError(
            f"{name} is not a Plücker transform: its bottom-left block is not of the form -E r×"
        )
    return X


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
    A = np.asarray(X, dtype=float)
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
        If an input does not have the documented trailing shape or is not finite.
    """
    X = as_array(X, "X", (6, 6))
    Y = np.empty_like(X)
    for i in (0, 3):
        for j in (0, 3):
            Y[..., i : i + 3, j : j + 3] = np.swapaxes(X[..., i : i + 3, j : j + 3], -1, -2)
    return Y


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
        If an input does not have the documented trailing shape or is not finite.
    """
    return np.swapaxes(xinv(X), -1, -2)


def inv_motion(X, v) -> np.ndarray:
    """Apply ``X⁻¹`` to motion vectors, ``X⁻¹ v`` (Featherstone Table A.4, X.invApply).

    Parameters
    ----------
    X : array_like, shape (..., 6, 6)
    v : array_like, shape (..., 6)

    Returns
    -------
    ndarray, shape (..., 6)

    Raises
    ------
    ValueError
        If an input does not have the documented trailing shape or is not finite.
    """
    X = as_array(X, "X", (6, 6))
    v = as_array(v, "v", (6,))
    E, B = X[..., :3, :3], X[..., 3:, :3]
    w, u = v[..., None, :3], v[..., None, 3:]
    return np.concatenate([(w @ E)[..., 0, :], (w @ B + u @ E)[..., 0, :]], -1)


def apply_force(X, f) -> np.ndarray:
    """Apply the force transform ``X* f`` without forming ``X*`` (Featherstone Table A.4).

    Parameters
    ----------
    X : array_like, shape (..., 6, 6)
        Motion transform ``X_BA``.
    f : array_like, shape (..., 6)
        Force vectors in A coordinates.

    Returns
    -------
    ndarray, shape (..., 6)
        Force vectors in B coordinates.

    Raises
    ------
    ValueError
        If an input does not have the documented trailing shape or is not finite.
    """
    X = as_array(X, "X", (6, 6))
    f = as_array(f, "f", (6,))
    E, B = X[..., :3, :3], X[..., 3:, :3]
    n, g = f[..., :3, None], f[..., 3:, None]
    # X* = [[E, -E r×], [0, E]]: its top-right block is the bottom-left block B of X (eq. 2.25)
    top = E @ n + B @ g
    return np.concatenate([top[..., 0], (E @ g)[..., 0]], -1)


def inv_force(X, f) -> np.ndarray:
    """Apply ``X⁻* = Xᵀ`` to force vectors, ``Xᵀ f`` (Featherstone Table A.4, X.invApply).

    Parameters
    ----------
    X : array_like, shape (..., 6, 6)
        Motion transform ``X_BA``.
    f : array_like, shape (..., 6)
        Force vectors in B coordinates.

    Returns
    -------
    ndarray, shape (..., 6)
        Force vectors in A coordinates.

    Raises
    ------
    ValueError
        If an input does not have the documented trailing shape or is not finite.
    """
    X = as_array(X, "X", (6, 6))
    f = as_array(f, "f", (6,))
    return (np.swapaxes(X, -1, -2) @ f[..., None])[..., 0]


def transform_inertia(X, I) -> np.ndarray:
    """Transform a spatial inertia from A to B coordinates, ``X* I X⁻¹`` (Table A.4).

    Parameters
    ----------
    X : array_like, shape (..., 6, 6)
        Motion transform ``X_BA``.
    I : array_like, shape (..., 6, 6)
        Spatial (rigid-body or articulated-body) inertia in A coordinates.

    Returns
    -------
    ndarray, shape (..., 6, 6)
        The same inertia in B coordinates.

    Raises
    ------
    ValueError
        If an input does not have the documented trailing shape or is not finite.
    """
    X = as_array(X, "X", (6, 6))
    I = as_array(I, "I", (6, 6))
    Xi = xinv(X)
    return np.swapaxes(Xi, -1, -2) @ I @ Xi


def inv_transform_inertia(X, I) -> np.ndarray:
    """Transform a spatial inertia from B back to A coordinates, ``Xᵀ I X`` (Table A.4).

    Parameters
    ----------
    X : array_like, shape (..., 6, 6)
        Motion transform ``X_BA``.
    I : array_like, shape (..., 6, 6)
        Spatial inertia in B coordinates.

    Returns
    -------
    ndarray, shape (..., 6, 6)
        The same inertia in A coordinates.

    Raises
    ------
    ValueError
        If an input does not have the documented trailing shape or is not finite.
    """
    X = as_array(X, "X", (6, 6))
    I = as_array(I, "I", (6, 6))
    return np.swapaxes(X, -1, -2) @ I @ X


# --------------------------------------------------------------------- spatial cross products


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


def _crm(v: np.ndarray) -> np.ndarray:
    """``crm`` without validation: ``v×`` (..., 6, 6) for motion vectors ``v`` (..., 6)."""
    return (v @ _CRM_BASIS).reshape(v.shape[:-1] + (6, 6))


def _crm_basis() -> np.ndarray:
    """The (6, 36) matrix whose row k is ``e_k×`` (eq. 2.31 is linear in ``v``)."""
    basis = np.zeros((6, 6, 6))
    for k in range(3):
        basis[k, :3, :3] = basis[k, 3:, 3:] = _SKEW_BASIS[k].reshape(3, 3)  # ω×
        basis[k + 3, 3:, :3] = _SKEW_BASIS[k].reshape(3, 3)  # v_O×
    return basis.reshape(6, 36)


_CRM_BASIS = _crm_basis()


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
        If an input does not have the documented trailing shape or is not finite.
    """
    v = as_array(v, "v", (6,))
    m = as_array(m, "m", (6,))
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
        If an input does not have the documented trailing shape or is not finite.
    """
    v = as_array(v, "v", (6,))
    f = as_array(f, "f", (6,))
    return -(f[..., None, :] @ _crm(v))[..., 0, :]  # v×* f = -(v×)ᵀ f


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
        If an input does not have the documented trailing shape or is not finite.
    """
    X = as_array(X, "X", (6, 6))
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


# ----------------------------------------------------------------------------- points


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
        If ``X`` is not a Plücker transform (see :func:`unplux`) or ``p`` is not a
        finite 3-vector.
    """
    E, r = unplux(X)
    p = as_array(p, "p", (3,))
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
        If an input does not have the documented trailing shape or is not finite.
    """
    v = as_array(v, "v", (6,))
    p = as_array(p, "p", (3,))
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
        If an input does not have the documented trailing shape or is not finite.
    """
    a = as_array(a, "a", (6,))
    p = as_array(p, "p", (3,))
    v = as_array(v, "v", (6,))
    return a[..., 3:] + np.cross(a[..., :3], p) + np.cross(v[..., :3], point_velocity(v, p))


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
        If an input does not have the documented trailing shape or is not finite.
    """
    f = as_array(f, "f", (3,))
    p = as_array(p, "p", (3,))
    f, p = np.broadcast_arrays(f, p)
    return np.concatenate([np.cross(p, f), f], -1)


# ------------------------------------------------------------- layout conversion (ArtiSynth)


def swap_linear_angular(x) -> np.ndarray:
    """Convert between angular-first and linear-first layouts of spatial quantities.

    The package stores spatial vectors as ``[ω; v]`` (Featherstone, Sueda); the ArtiSynth notes
    write ``[v; ω]`` and put ``m·1`` in the top-left block of the spatial inertia (ArtiSynth
    §0.1, §0.19).  Code implementing ArtiSynth formulas calls this at its boundary.  The
    permutation swaps the two 3-blocks, so it is its own inverse.

    Parameters
    ----------
    x : array_like, shape (..., 6) or (..., 6, 6)
        A spatial vector (permuted as ``P x``) or a 6x6 matrix (permuted as ``P x Pᵀ``).
        A ``(6, 6)`` input is always treated as a matrix.

    Returns
    -------
    ndarray, same shape as ``x``

    Raises
    ------
    ValueError
        If ``x`` has neither shape (..., 6) nor (..., 6, 6), or is not finite.
    """
    a = np.asarray(x, dtype=float)
    perm = [3, 4, 5, 0, 1, 2]
    if a.ndim >= 2 and a.shape[-2:] == (6, 6):
        a = as_array(a, "x", (6, 6))
        return a[..., perm, :][..., :, perm]
    if a.ndim >= 1 and a.shape[-1] == 6:
        return as_array(a, "x", (6,))[..., perm]
    raise ValueError(f"x must have shape (..., 6) or (..., 6, 6), got {a.shape}")
