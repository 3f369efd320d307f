"""Planar vector algebra: the 3D special case of spatial vectors for motion in the x-y plane.

A planar rigid body has three degrees of freedom, so its motion and force vectors have three
coordinates (Featherstone §2.16):

* motion ``v = [ω, v_Ox, v_Oy]`` (angular velocity about z, then the velocity of the body point
  at the origin O), force ``f = [n_Oz, f_x, f_y]`` (moment about O, then the linear force);
* everything is the spatial algebra restricted to the coordinates ``(ω_z, v_x, v_y)``, i.e.
  indices ``2, 3, 4`` of a 6D vector in the package's angular-first layout.  :func:`embed_vector`,
  :func:`embed_transform`, :func:`embed_inertia` and :func:`restrict` convert between the two,
  and every planar operation commutes with the embedding.

``Xpln(theta, r)`` follows the convention of Featherstone Table A.1: the arguments give the
position ``r`` and orientation ``theta`` of frame B relative to frame A, and the result is the
motion transform ``X_BA`` from A to B coordinates.  Force transforms are ``X* = X⁻ᵀ``.  Every
function accepts leading batch dimensions.

Sources: Featherstone §2.16 (eqs. 2.75–2.78) and App. A §A.1 (Table A.1).
"""

from __future__ import annotations

import numpy as np

from ._validate import as_array, as_scalar_array, positive_array, real_array
from .inertia import mcI as _spatial_mcI
from .vectors import plux, rz

__all__ = [
    "PLANAR_INDICES",
    "Xpln",
    "xinv",
    "xstar",
    "crm",
    "crf",
    "mcI",
    "inertia_params",
    "XtoV",
    "embed_vector",
    "embed_transform",
    "embed_inertia",
    "restrict",
]

#: Positions of the planar coordinates ``(ω_z, v_x, v_y)`` inside a 6D spatial vector.
PLANAR_INDICES = (2, 3, 4)


# ------------------------------------------------------------------------------ transforms


def Xpln(theta, r) -> np.ndarray:
    """Planar Plücker transform ``X_BA`` (Featherstone Table A.1, eq. 2.77).

    Frame B has its origin at ``r`` (A coordinates) and is turned by ``theta`` relative to A.
    The transform is a shift of origin by ``r`` followed by a rotation by ``theta``:

        X_BA = [[1, 0, 0], [s x - c y, c, s], [c x + s y, -s, c]],  c = cos θ, s = sin θ.

    Parameters
    ----------
    theta : float or array_like, shape (...)
        Orientation of B relative to A (rad, counter-clockwise).
    r : array_like, shape (..., 2)
        Position ``(x, y)`` of B's origin in A coordinates.

    Returns
    -------
    ndarray, shape (..., 3, 3)
        Maps planar motion vectors from A to B coordinates.

    Raises
    ------
    ValueError
        If ``theta`` or ``r`` is not finite, or ``r`` is not of shape (..., 2).
    """
    theta = as_scalar_array(theta, "theta")
    r = as_array(r, "r", (2,))
    shape = np.broadcast_shapes(theta.shape, r.shape[:-1])
    c, s = np.cos(theta), np.sin(theta)
    x, y = r[..., 0], r[..., 1]
    X = np.zeros(shape + (3, 3))
    X[..., 0, 0] = 1.0
    X[..., 1, 0] = s * x - c * y
    X[..., 1, 1] = c
    X[..., 1, 2] = s
    X[..., 2, 0] = c * x + s * y
    X[..., 2, 1] = -s
    X[..., 2, 2] = c
    return X


def xinv(X) -> np.ndarray:
    """Inverse planar transform ``X⁻¹`` without inverting a matrix (Featherstone §2.16).

    For ``X = [[1, 0], [b, E]]`` (``E`` the 2x2 rotation block, ``b`` a 2-vector) the inverse
    is ``[[1, 0], [-Eᵀ b, Eᵀ]]``, the planar counterpart of eq. 2.26.

    Parameters
    ----------
    X : array_like, shape (..., 3, 3)
        A planar motion transform ``X_BA``.

    Returns
    -------
    ndarray, shape (..., 3, 3)
        ``X_AB``.

    Raises
    ------
    ValueError
        If ``X`` is not of shape (..., 3, 3) or not finite.
    """
    X = as_array(X, "X", (3, 3))
    Et = np.swapaxes(X[..., 1:, 1:], -1, -2)
    Y = np.zeros_like(X)
    Y[..., 0, 0] = 1.0
    Y[..., 1:, 1:] = Et
    Y[..., 1:, 0] = -(Et @ X[..., 1:, 0:1])[..., 0]
    return Y


def xstar(X) -> np.ndarray:
    """Planar force transform ``X* = X⁻ᵀ`` of a motion transform, without inversion (§2.16).

    Parameters
    ----------
    X : array_like, shape (..., 3, 3)
        A planar motion transform ``X_BA``.

    Returns
    -------
    ndarray, shape (..., 3, 3)
        ``[[1, -bᵀE], [0, E]]``, mapping planar force vectors from A to B coordinates.

    Raises
    ------
    ValueError
        If ``X`` is not of shape (..., 3, 3) or not finite.
    """
    return np.swapaxes(xinv(X), -1, -2)


def _as_planar_plucker(X, tol: float = 1e-8) -> np.ndarray:
    """Validate that ``X`` has the structure ``[[1, 0, 0], [b, E]]`` with ``E = rz``-block."""
    X = as_array(X, "X", (3, 3))
    scale = 1.0 + np.abs(X).max(initial=0.0)
    c, s = X[..., 1, 1], X[..., 1, 2]
    if (
        np.abs(X[..., 0, :] - [1.0, 0.0, 0.0]).max(initial=0.0) > tol * scale
        or np.abs(X[..., 2, 2] - c).max(initial=0.0) > tol
        or np.abs(X[..., 2, 1] + s).max(initial=0.0) > tol
        or np.abs(c**2 + s**2 - 1.0).max(initial=0.0) > tol
    ):
        raise ValueError(
            "X is not a planar Plücker transform: expected [[1, 0, 0], [b, E]] with "
            "E = [[c, s], [-s, c]], c² + s² = 1"
        )
    return X


# ---------------------------------------------------------------------------- cross products


def crm(v) -> np.ndarray:
    """Planar cross operator for motion vectors, ``v×`` (Featherstone eq. 2.75, Table A.1).

    Parameters
    ----------
    v : array_like, shape (..., 3)
        Planar motion vector ``[ω, v_Ox, v_Oy]``.

    Returns
    -------
    ndarray, shape (..., 3, 3)
        ``[[0, 0, 0], [v_Oy, 0, -ω], [-v_Ox, ω, 0]]``.

    Raises
    ------
    ValueError
        If ``v`` is not of shape (..., 3) or not finite.
    """
    v = as_array(v, "v", (3,))
    w, vx, vy = v[..., 0], v[..., 1], v[..., 2]
    out = np.zeros(v.shape[:-1] + (3, 3))
    out[..., 1, 0] = vy
    out[..., 1, 2] = -w
    out[..., 2, 0] = -vx
    out[..., 2, 1] = w
    return out


def crf(v) -> np.ndarray:
    """Planar cross operator for force vectors, ``v×* = -(v×)ᵀ`` (Featherstone Table A.1).

    Parameters
    ----------
    v : array_like, shape (..., 3)
        Planar motion vector ``[ω, v_Ox, v_Oy]``.

    Returns
    -------
    ndarray, shape (..., 3, 3)
        ``[[0, -v_Oy, v_Ox], [0, 0, -ω], [0, ω, 0]]``.

    Raises
    ------
    ValueError
        If ``v`` is not of shape (..., 3) or not finite.
    """
    return -np.swapaxes(crm(v), -1, -2)


# ----------------------------------------------------------------------------------- inertia


def mcI(m, c, I_c) -> np.ndarray:
    """Planar rigid-body inertia from mass, centre of mass and rotational inertia (eq. 2.78).

    Same meaning and argument order as the book's planar ``mcI`` (Featherstone Table A.1).

    Parameters
    ----------
    m : float or array_like, shape (...)
        Mass, > 0.
    c : array_like, shape (..., 2)
        Centre of mass ``(c_x, c_y)`` in the body frame.
    I_c : float or array_like, shape (...)
        Rotational inertia about the centre of mass (about the z axis), > 0.

    Returns
    -------
    ndarray, shape (..., 3, 3)
        ``[[I_c + m (c_x² + c_y²), -m c_y, m c_x], [-m c_y, m, 0], [m c_x, 0, m]]``.

    Raises
    ------
    ValueError
        If ``m`` or ``I_c`` is not positive, or ``c`` is not of shape (..., 2), or any input is
        not finite.
    """
    m = positive_array(m, "m (mass)")
    I_c = positive_array(I_c, "I_c (rotational inertia)")
    c = as_array(c, "c", (2,))
    cx, cy = c[..., 0], c[..., 1]
    shape = np.broadcast_shapes(m.shape, I_c.shape, c.shape[:-1])
    out = np.zeros(shape + (3, 3))
    out[..., 0, 0] = I_c + m * (cx**2 + cy**2)
    out[..., 0, 1] = out[..., 1, 0] = -m * cy
    out[..., 0, 2] = out[..., 2, 0] = m * cx
    out[..., 1, 1] = m
    out[..., 2, 2] = m
    return out


def inertia_params(I) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Recover ``(m, c, I_c)`` from a planar rigid-body inertia; the inverse of :func:`mcI`.

    Parameters
    ----------
    I : array_like, shape (..., 3, 3)

    Returns
    -------
    m : ndarray, shape (...)
    c : ndarray, shape (..., 2)
    I_c : ndarray, shape (...)

    Raises
    ------
    ValueError
        If ``I`` does not have the structure of eq. 2.78 with positive ``m`` and ``I_c``.
    """
    I = as_array(I, "I", (3, 3))
    m = I[..., 1, 1]
    scale = 1.0 + np.abs(I).max(initial=0.0)
    if np.any(m <= 0):
        raise ValueError("I has non-positive mass in its lower-right block")
    if (
        np.abs(I - np.swapaxes(I, -1, -2)).max(initial=0.0) > 1e-9 * scale
        or np.abs(I[..., 2, 2] - m).max(initial=0.0) > 1e-9 * scale
        or np.abs(I[..., 1, 2]).max(initial=0.0) > 1e-9 * scale
    ):
        raise ValueError("I is not a planar rigid-body inertia: expected the form of eq. 2.78")
    c = np.stack([I[..., 0, 2], -I[..., 0, 1]], -1) / m[..., None]
    I_c = I[..., 0, 0] - m * (c**2).sum(-1)
    if np.any(I_c <= 0):
        raise ValueError("I has a non-positive rotational inertia about its centre of mass")
    return m.copy(), c, I_c


# ------------------------------------------------------------------------- small displacement


def XtoV(X) -> np.ndarray:
    """Planar motion vector that carries frame A to frame B, from ``X_BA`` (Table A.1).

    The more accurate of the book's two variants.  For a displacement that turns A by ``θ``
    about a point ``p`` (A coordinates), the exact velocity that moves A onto B in unit time is
    ``u = θ [1, p_y, -p_x]``; this function returns ``v = u sin θ / θ``, computed from the
    entries of ``X`` alone.  So ``v`` is invariant under the transform (``X v == v``), is exact
    for pure translations, and ``u = v asin(X₂₃) / X₂₃`` for ``|θ| < π/2``.  Embedded in 6D it
    equals :func:`spatial.XtoV` of the embedded transform.

    Parameters
    ----------
    X : array_like, shape (..., 3, 3)
        A planar motion transform ``X_BA``.

    Returns
    -------
    ndarray, shape (..., 3)

    Raises
    ------
    ValueError
        If ``X`` is not of shape (..., 3, 3) or not finite.
    """
    X = as_array(X, "X", (3, 3))
    return np.stack(
        [
            X[..., 1, 2],
            0.5 * (X[..., 2, 0] + X[..., 1, 1] * X[..., 2, 0] + X[..., 1, 2] * X[..., 1, 0]),
            0.5 * (-X[..., 1, 0] - X[..., 1, 1] * X[..., 1, 0] + X[..., 1, 2] * X[..., 2, 0]),
        ],
        -1,
    )


# ------------------------------------------------------------------------ relation to 6D


def embed_vector(x) -> np.ndarray:
    """Embed planar motion or force vectors in 6D spatial vectors (Featherstone §2.16).

    ``[ω, v_x, v_y]`` becomes ``[0, 0, ω, v_x, v_y, 0]`` (and likewise ``[n_z, f_x, f_y]``),
    the motion/force in the x-y plane expressed in angular-first Plücker coordinates.

    Parameters
    ----------
    x : array_like, shape (..., 3)

    Returns
    -------
    ndarray, shape (..., 6)

    Raises
    ------
    ValueError
        If ``x`` is not of shape (..., 3) or not finite.
    """
    x = as_array(x, "x", (3,))
    out = np.zeros(x.shape[:-1] + (6,))
    out[..., PLANAR_INDICES] = x
    return out


def embed_transform(X) -> np.ndarray:
    """Embed a planar Plücker transform in 6D: ``Xpln(θ, (x, y))`` ↦ ``plux(rz(θ), (x, y, 0))``.

    Parameters
    ----------
    X : array_like, shape (..., 3, 3)
        Planar motion transform ``X_BA`` (e.g. from :func:`Xpln`).

    Returns
    -------
    ndarray, shape (..., 6, 6)
        The spatial transform for the same frames, with B turned about A's z axis.

    Raises
    ------
    ValueError
        If ``X`` does not have the structure of a planar Plücker transform.
    """
    X = _as_planar_plucker(X)
    theta = np.arctan2(X[..., 1, 2], X[..., 1, 1])
    # X = [[1, 0], [b, E]] with -Eᵀ b = (y, -x), the translation part of the inverse (eq. 2.26)
    w = (np.swapaxes(X[..., 1:, 1:], -1, -2) @ X[..., 1:, 0:1])[..., 0]
    r = np.stack([w[..., 1], -w[..., 0], np.zeros_like(theta)], -1)
    return plux(rz(theta), r)


def embed_inertia(I) -> np.ndarray:
    """Embed a planar rigid-body inertia in a 6D spatial inertia (Featherstone eqs. 2.63, 2.78).

    The body gets its centre of mass at ``(c_x, c_y, 0)`` and the rotational inertia
    ``diag(I_c/2, I_c/2, I_c)`` of a thin symmetric lamina in the x-y plane.  The out-of-plane
    moments are a choice: motion in the plane never excites them, and :func:`restrict` returns
    the planar inertia for any choice.

    Parameters
    ----------
    I : array_like, shape (..., 3, 3)
        Planar rigid-body inertia (e.g. from :func:`mcI`).

    Returns
    -------
    ndarray, shape (..., 6, 6)

    Raises
    ------
    ValueError
        If ``I`` is not a planar rigid-body inertia (see :func:`inertia_params`).
    """
    m, c, I_c = inertia_params(I)
    c3 = np.concatenate([c, np.zeros(c.shape[:-1] + (1,))], -1)
    J = I_c[..., None, None] * np.diag([0.5, 0.5, 1.0])
    return _spatial_mcI(m, c3, J)


def restrict(x) -> np.ndarray:
    """Planar part of a spatial vector or matrix: the coordinates ``(ω_z, v_x, v_y)``.

    The inverse of the ``embed_*`` functions.  For a vector it keeps entries ``2, 3, 4``; for a
    6x6 matrix (transform, cross operator or inertia) the corresponding 3x3 submatrix, as in
    Featherstone §2.16.

    Parameters
    ----------
    x : array_like, shape (..., 6) or (..., 6, 6)
        A ``(6, 6)`` input is always treated as a matrix.

    Returns
    -------
    ndarray, shape (..., 3) or (..., 3, 3)

    Raises
    ------
    ValueError
        If the shape is neither (..., 6) nor (..., 6, 6), or the input is not finite.
    """
    a = real_array(x, "x")
    idx = list(PLANAR_INDICES)
    if a.ndim >= 2 and a.shape[-2:] == (6, 6):
        return as_array(a, "x", (6, 6))[..., idx, :][..., :, idx]
    if a.ndim >= 1 and a.shape[-1] == 6:
        return as_array(a, "x", (6,))[..., idx]
    raise ValueError(f"x must have shape (..., 6) or (..., 6, 6), got {a.shape}")
