"""Spatial (rigid-body) inertia: construction, validation, inverse and factor, shapes, composites.

A rigid-body inertia about a frame's origin O, for a body of mass ``m`` whose centre of mass
is at ``c`` and whose rotational inertia about the centre of mass is ``I_c``, is

    I = [[I_c + m c× c×ᵀ, m c×], [m c×ᵀ, m 1]]          (Featherstone eq. 2.63)

in the package's angular-first layout.  The ArtiSynth notes (§0.1) write the same matrix
linear-first, ``[[m 1, -m c×], [m c×, I_c - m c× c×]]``; the functions that follow ArtiSynth's
derivations (:func:`inertia_inverse`, :func:`inertia_factor`) build the linear-first matrix and
convert it with :func:`spatial.swap_linear_angular`.

Every inertia is checked by one rule, :func:`validate_inertia`: the block structure of eq. 2.63,
a positive mass, and a rotational inertia ``I_c`` that is positive definite with principal
moments obeying the triangle inequality ``d₁ + d₂ ≥ d₃`` (no mass distribution breaks it);
``allow_massless=True`` admits the massless bodies and point masses a kinematic tree may contain.
:func:`mcI` applies the same test to the ``I_c`` it is given.

Shapes return their inertia about their own centre, axes along their symmetry axes, or, given a
frame ``E`` (the pose of the shape's centre frame in the body frame), the same inertia expressed
in the body frame.

Sources: Featherstone §2.13–2.15 (eqs. 2.62–2.67, 2.73–2.74), App. A (``mcI``); ArtiSynth
notes §0.1; Sueda §1.7 (eq. 1.24) and §1.7.1 (eqs. 1.25–1.26).
"""

from __future__ import annotations

import itertools

import numpy as np

from ._batched import skew_matrix, transform_inertia  # unvalidated kernels
from ._validate import as_array, positive_array
from .se3 import Ad, _as_frame
from .vectors import skew, swap_linear_angular

__all__ = [
    "mcI",
    "inertia_params",
    "validate_inertia",
    "inertia_inverse",
    "inertia_factor",
    "cuboid_inertia",
    "cylinder_inertia",
    "sphere_inertia",
    "ellipsoid_inertia",
    "point_mass_inertia",
    "composite_inertia",
    "principal_axes",
    "nearest_rotational_inertia",
]


#: Relative tolerance of the tests on the principal moments (semi-definiteness and the triangle
#: inequality): a needle or a flat plate lies exactly on a boundary, and round-off must not push
#: it over.
_TRIANGLE_RTOL = 1e-9


def _check_rotational_inertia(I_c: np.ndarray, what: str, *, definite: bool, noise=0.0) -> None:
    """The rule for a rotational inertia about the centre of mass (``I_c`` symmetric, (..., 3, 3)).

    Its principal moments ``d₁ ≤ d₂ ≤ d₃`` (eigenvalues) must be positive (``definite``) or
    non-negative, and obey the triangle inequality ``d₁ + d₂ ≥ d₃``: in principal axes
    ``d₁ + d₂ - d₃ = 2 ∫ z² dm ≥ 0`` for any mass distribution.  ``noise`` is the size of the
    round-off in ``I_c`` (when it was computed from a larger matrix), added to the tolerances.
    ``what`` names the matrix in the messages.
    """
    d = np.linalg.eigvalsh(0.5 * (I_c + np.swapaxes(I_c, -1, -2)))
    if d.size == 0:
        return
    d1, d2, d3 = d[..., 0], d[..., 1], d[..., 2]
    if definite and np.any(d1 <= 0.0):
        raise ValueError(f"{what} must be positive definite (smallest eigenvalue {d1.min():.3g})")
    if not definite and np.any(d1 < -(_TRIANGLE_RTOL * np.abs(d3) + noise)):
        raise ValueError(
            f"{what} must be positive semi-definite (smallest eigenvalue {d1.min():.3g})"
        )
    excess = d3 - d1 - d2
    violation = excess - (_TRIANGLE_RTOL * np.abs(d3) + noise)
    if np.any(violation > 0.0):
        k = np.unravel_index(np.argmax(violation), violation.shape)
        moments = ", ".join(f"{x:.6g}" for x in d[k])
        raise ValueError(
            f"{what} violates the triangle inequality d1 + d2 >= d3 of principal moments "
            f"({moments}): no mass distribution has this rotational inertia"
        )


def mcI(m, c, I_c) -> np.ndarray:
    """Rigid-body spatial inertia from mass, centre of mass and rotational inertia (eq. 2.63).

    Same meaning and argument order as the book's ``mcI`` (Featherstone App. A, Table A.2).

    Parameters
    ----------
    m : float or array_like, shape (...)
        Mass, > 0.
    c : array_like, shape (..., 3)
        Centre of mass in the body frame.
    I_c : array_like, shape (..., 3, 3)
        Rotational inertia about the centre of mass, symmetric positive definite, with principal
        moments obeying the triangle inequality (see :func:`validate_inertia`).

    Returns
    -------
    ndarray, shape (..., 6, 6)

    Raises
    ------
    ValueError
        If ``m`` is not positive, ``I_c`` is not symmetric positive definite or violates the
        triangle inequality ``d1 + d2 >= d3`` of its principal moments, or shapes differ.
    """
    m = positive_array(m, "m (mass)")
    c = as_array(c, "c", (3,))
    I_c = as_array(I_c, "I_c", (3, 3))
    sym_err = np.abs(I_c - np.swapaxes(I_c, -1, -2)).max(initial=0.0)
    if sym_err > 1e-9 * (1.0 + np.abs(I_c).max(initial=0.0)):
        raise ValueError(f"I_c must be symmetric (max asymmetry {sym_err:.2e})")
    _check_rotational_inertia(I_c, "I_c", definite=True)
    C = skew(c)
    mm = m[..., None, None]
    shape = np.broadcast_shapes(mm.shape, C.shape, I_c.shape)
    out = np.zeros(shape[:-2] + (6, 6))
    out[..., :3, :3] = I_c + mm * C @ np.swapaxes(C, -1, -2)
    out[..., :3, 3:] = mm * C
    out[..., 3:, :3] = mm * np.swapaxes(C, -1, -2)
    out[..., 3:, 3:] = mm * np.eye(3)
    return out


def inertia_params(I) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Recover ``(m, c, I_c)`` from a rigid-body spatial inertia; the inverse of :func:`mcI`.

    Parameters
    ----------
    I : array_like, shape (..., 6, 6)

    Returns
    -------
    m : ndarray, shape (...)
    c : ndarray, shape (..., 3)
    I_c : ndarray, shape (..., 3, 3)

    Raises
    ------
    ValueError
        If ``I`` does not have the structure of a rigid-body inertia with positive mass.
    """
    I = as_array(I, "I", (6, 6))
    m = I[..., 3, 3]
    if np.any(m <= 0):
        raise ValueError("I has non-positive mass in its lower-right block")
    if np.abs(I[..., 3:, 3:] - m[..., None, None] * np.eye(3)).max(initial=0.0) > 1e-9 * (
        1 + np.abs(m).max()
    ):
        raise ValueError("I is not a rigid-body inertia: its lower-right block must be m·1")
    m, c, I_c = _params(I)
    return m.copy(), c, I_c


def _params(I: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(m, c, I_c)`` of rigid-body inertias without checks: eq. 2.63 read backwards.

    The upper-right block is ``m c×``, so ``c`` is read from it (``c = 0`` where ``m = 0``), and
    ``I_c = Ī_O - m c× c×ᵀ``.
    """
    m = I[..., 3, 3]
    h = I[..., :3, 3:]
    c = (
        np.stack([h[..., 2, 1], h[..., 0, 2], h[..., 1, 0]], -1)
        / np.where(m == 0.0, 1.0, m)[..., None]
    )
    C = skew_matrix(c)
    return m, c, I[..., :3, :3] - m[..., None, None] * C @ np.swapaxes(C, -1, -2)


# ------------------------------------------------------------------------------ validation


def validate_inertia(I, name: str = "I", *, allow_massless: bool = False) -> np.ndarray:
    """Check that ``I`` is the spatial inertia of a rigid body and return it as an array.

    The one rule for every inertia in the package (Featherstone eq. 2.63):

    * shape ``(..., 6, 6)``, finite, symmetric;
    * lower-right block ``m·1`` with ``m > 0`` (``m ≥ 0`` with ``allow_massless``);
    * upper-right block skew-symmetric, ``m c×`` (zero when ``m = 0``);
    * rotational inertia about the centre of mass ``I_c`` positive definite (positive
      semi-definite with ``allow_massless``);
    * principal moments ``d₁ ≤ d₂ ≤ d₃`` of ``I_c`` obeying the triangle inequality
      ``d₁ + d₂ ≥ d₃`` (to a relative 1e-9, so that a thin rod or a flat plate, which lie on
      the boundary, pass).  Each moment integrates two of the three squared coordinates, so
      ``d₁ + d₂ - d₃ = 2 ∫ z² dm ≥ 0`` in principal axes: no body has an inertia that breaks it.

    ``allow_massless`` is for the bodies of a kinematic tree, which may be massless (``I = 0``,
    an intermediate body between two joints) or concentrated in points (a pendulum bob, whose
    ``I_c = 0``): the tree algorithms need only the composite and articulated inertias to be
    invertible.  Formulations that invert each body's inertia (maximal coordinates) use the
    default.

    Parameters
    ----------
    I : array_like, shape (..., 6, 6)
        Spatial inertia, angular-first (Featherstone eq. 2.63).
    name : str
        Name used in error messages.
    allow_massless : bool
        Accept ``m = 0`` and a singular ``I_c`` (see above).

    Returns
    -------
    ndarray, shape (..., 6, 6)

    Raises
    ------
    ValueError
        Naming ``name`` and the property, if any of the checks above fails.
    """
    I = as_array(I, name, (6, 6))
    scale = 1.0 + np.abs(I).max(initial=0.0)
    if np.abs(I - np.swapaxes(I, -1, -2)).max(initial=0.0) > 1e-9 * scale:
        raise ValueError(f"{name} must be symmetric")
    m = I[..., 3, 3]
    if allow_massless and np.any(m < 0):
        raise ValueError(f"{name} has negative mass m = I[..., 3, 3] = {m.min():.3g}; need m ≥ 0")
    if not allow_massless and np.any(m <= 0):
        raise ValueError(f"{name} has non-positive mass m = I[..., 3, 3]; mass must be > 0")
    if np.abs(I[..., 3:, 3:] - m[..., None, None] * np.eye(3)).max(initial=0.0) > 1e-9 * scale:
        raise ValueError(f"{name} is not a rigid-body inertia: its lower-right block must be m·1")
    h = I[..., :3, 3:]
    if np.abs(h + np.swapaxes(h, -1, -2)).max(initial=0.0) > 1e-9 * scale:
        raise ValueError(
            f"{name} is not a rigid-body inertia: its upper-right block must be skew (m c×)"
        )
    massless = m == 0.0
    if np.any(massless) and np.abs(h[massless]).max(initial=0.0) > 1e-9 * scale:
        raise ValueError(
            f"{name} has zero mass but a non-zero upper-right block m c×: a massless body has "
            "no first moment of mass"
        )
    _, _, I_c = _params(I)
    noise = 1e-12 * np.abs(I[..., :3, :3]).max(axis=(-2, -1))  # round-off in I_c = Ī_O - m c× c×ᵀ
    what = f"{name}: the rotational inertia about the centre of mass"
    _check_rotational_inertia(I_c, what, definite=not allow_massless, noise=noise)
    return I


# ------------------------------------------------------------------- inverse and factor


def inertia_inverse(I) -> np.ndarray:
    """Closed-form inverse of a rigid-body spatial inertia, without a 6x6 inversion.

    ArtiSynth §0.1 gives the inverse of the linear-first inertia
    ``M = [[m 1, -m c×], [m c×, J - m c× c×]]`` (``J = I_c``) as

        M⁻¹ = [[1/m 1 - c× J⁻¹ c×, c× J⁻¹], [-J⁻¹ c×, J⁻¹]],

    so only the 3x3 rotational inertia is inverted.  This function builds that matrix and
    permutes it to the angular-first layout, where it reads
    ``[[J⁻¹, J⁻¹ c×ᵀ], [c× J⁻¹, 1/m 1 + c× J⁻¹ c×ᵀ]]``, Featherstone's inverse inertia
    ``Φ_O`` (eq. 2.74).

    Parameters
    ----------
    I : array_like, shape (..., 6, 6)
        Rigid-body spatial inertia, angular-first.

    Returns
    -------
    ndarray, shape (..., 6, 6)
        ``I⁻¹`` (an inverse inertia, mapping forces to accelerations).

    Raises
    ------
    ValueError
        If ``I`` is not a rigid-body inertia (see :func:`validate_inertia`).
    """
    m, c, J = _params(validate_inertia(I))
    C = skew_matrix(c)
    J_inv = np.linalg.inv(J)
    M_inv = np.zeros(J.shape[:-2] + (6, 6))
    M_inv[..., :3, :3] = np.eye(3) / m[..., None, None] - C @ J_inv @ C
    M_inv[..., :3, 3:] = C @ J_inv
    M_inv[..., 3:, :3] = -J_inv @ C
    M_inv[..., 3:, 3:] = J_inv
    return swap_linear_angular(M_inv)


def inertia_factor(I) -> np.ndarray:
    """Structured factor ``G`` with ``I = G Gᵀ`` of a rigid-body spatial inertia (ArtiSynth §0.1).

    With ``J = I_c = L Lᵀ`` (Cholesky, ``L`` lower triangular), ArtiSynth factors the
    linear-first inertia with ``G = [[√m 1, 0], [√m c×, L]]``, which is lower triangular.
    Permuted to the angular-first layout of the package it becomes

        G = [[L, √m c×], [0, √m 1]],

    block *upper* triangular: its diagonal blocks are the lower-triangular ``L`` and ``√m 1``,
    and only ``L`` needs a (3x3) factorization.  Hence ``I⁻¹ = G⁻ᵀ G⁻¹`` and
    ``vᵀ I v = |Gᵀ v|²``.

    Parameters
    ----------
    I : array_like, shape (..., 6, 6)
        Rigid-body spatial inertia, angular-first.

    Returns
    -------
    ndarray, shape (..., 6, 6)

    Raises
    ------
    ValueError
        If ``I`` is not a rigid-body inertia (see :func:`validate_inertia`).
    """
    m, c, J = _params(validate_inertia(I))
    sqrt_m = np.sqrt(m)[..., None, None]
    G = np.zeros(J.shape[:-2] + (6, 6))
    G[..., :3, :3] = sqrt_m * np.eye(3)
    G[..., 3:, :3] = sqrt_m * skew_matrix(c)
    G[..., 3:, 3:] = np.linalg.cholesky(J)
    return swap_linear_angular(G)


# ------------------------------------------------------------------------- primitive shapes


def _centred_inertia(m: np.ndarray, moments: np.ndarray, T) -> np.ndarray:
    """``blkdiag(diag(moments), m 1)`` (eq. 2.62), re-expressed in the body frame if ``T``."""
    batch = np.broadcast_shapes(m.shape, moments.shape[:-1])
    I = np.zeros(batch + (6, 6))
    I[..., :3, :3] = moments[..., :, None] * np.eye(3)
    I[..., 3:, 3:] = m[..., None, None] * np.eye(3)
    if T is None:
        return I
    return transform_inertia(Ad(T), I)


def cuboid_inertia(m, lx, ly, lz, T=None) -> np.ndarray:
    """Spatial inertia of a solid box with side lengths ``lx, ly, lz`` (Sueda eq. 1.24).

    About its centre: ``diag(m/12 (ly² + lz²), m/12 (lz² + lx²), m/12 (lx² + ly²), m, m, m)``.

    Parameters
    ----------
    m : float or array_like, shape (...)
        Mass, > 0.
    lx, ly, lz : float or array_like, shape (...)
        Side lengths along the box's x, y, z axes, > 0.
    T : array_like, shape (..., 4, 4), optional
        Pose of the shape's centre frame in the body frame (``T_body,shape``, Sueda eq. 1.1).
        Without it the inertia is about the centre, axes along the shape's symmetry axes.

    Returns
    -------
    ndarray, shape (..., 6, 6)

    Raises
    ------
    ValueError
        If the mass or a length is not positive, or ``T`` is not a rigid frame.
    """
    m = positive_array(m, "m")
    lx, ly, lz = positive_array(lx, "lx"), positive_array(ly, "ly"), positive_array(lz, "lz")
    x2, y2, z2 = np.broadcast_arrays(lx**2, ly**2, lz**2)
    moments = (m / 12.0)[..., None] * np.stack([y2 + z2, z2 + x2, x2 + y2], -1)
    return _centred_inertia(m, moments, T)


def cylinder_inertia(m, r, l, T=None) -> np.ndarray:
    """Spatial inertia of a solid circular cylinder of radius ``r`` and length ``l`` along z.

    About its centre: ``I_xx = I_yy = m (3 r² + l²) / 12`` and ``I_zz = m r² / 2`` (the standard
    table of moments of inertia that Sueda §1.7 refers to).

    Parameters
    ----------
    m : float or array_like, shape (...)
        Mass, > 0.
    r, l : float or array_like, shape (...)
        Radius and length (along the cylinder's z axis), > 0.
    T : array_like, shape (..., 4, 4), optional
        Pose of the shape's centre frame in the body frame (``T_body,shape``, Sueda eq. 1.1).
        Without it the inertia is about the centre, axes along the shape's symmetry axes.

    Returns
    -------
    ndarray, shape (..., 6, 6)

    Raises
    ------
    ValueError
        If the mass, radius or length is not positive, or ``T`` is not a rigid frame.
    """
    m = positive_array(m, "m")
    r, l = positive_array(r, "r"), positive_array(l, "l")
    side = m * (3.0 * r**2 + l**2) / 12.0
    moments = np.stack(np.broadcast_arrays(side, side, 0.5 * m * r**2), -1)
    return _centred_inertia(m, moments, T)


def sphere_inertia(m, r, T=None) -> np.ndarray:
    """Spatial inertia of a solid sphere of radius ``r``: ``I_c = 2/5 m r² 1`` (Sueda §1.7).

    Parameters
    ----------
    m : float or array_like, shape (...)
        Mass, > 0.
    r : float or array_like, shape (...)
        Radius, > 0.
    T : array_like, shape (..., 4, 4), optional
        Pose of the shape's centre frame in the body frame (``T_body,shape``, Sueda eq. 1.1).
        Without it the inertia is about the centre, axes along the shape's symmetry axes.

    Returns
    -------
    ndarray, shape (..., 6, 6)

    Raises
    ------
    ValueError
        If the mass or radius is not positive, or ``T`` is not a rigid frame.
    """
    m = positive_array(m, "m")
    r = positive_array(r, "r")
    moment = 0.4 * m * r**2
    return _centred_inertia(m, np.stack([moment] * 3, -1), T)


def ellipsoid_inertia(m, a, b, c, T=None) -> np.ndarray:
    """Spatial inertia of a solid ellipsoid with semi-axes ``a, b, c`` along x, y, z.

    About its centre: ``diag(m/5 (b² + c²), m/5 (c² + a²), m/5 (a² + b²))`` (Sueda §1.7).

    Parameters
    ----------
    m : float or array_like, shape (...)
        Mass, > 0.
    a, b, c : float or array_like, shape (...)
        Semi-axes along the ellipsoid's x, y, z axes, > 0.
    T : array_like, shape (..., 4, 4), optional
        Pose of the shape's centre frame in the body frame (``T_body,shape``, Sueda eq. 1.1).
        Without it the inertia is about the centre, axes along the shape's symmetry axes.

    Returns
    -------
    ndarray, shape (..., 6, 6)

    Raises
    ------
    ValueError
        If the mass or a semi-axis is not positive, or ``T`` is not a rigid frame.
    """
    m = positive_array(m, "m")
    a2, b2, c2 = np.broadcast_arrays(
        positive_array(a, "a") ** 2, positive_array(b, "b") ** 2, positive_array(c, "c") ** 2
    )
    moments = (m / 5.0)[..., None] * np.stack([b2 + c2, c2 + a2, a2 + b2], -1)
    return _centred_inertia(m, moments, T)


def point_mass_inertia(m, p) -> np.ndarray:
    """Spatial inertia of a point mass ``m`` at ``p``: eq. 2.63 with ``I_c = 0``.

    ``[[m p× p×ᵀ, m p×], [m p×ᵀ, m 1]]`` has rank 3 (a point has no rotational inertia about
    itself), so it is not a rigid-body inertia on its own; it is a building block for
    :func:`composite_inertia`.

    Parameters
    ----------
    m : float or array_like, shape (...)
        Mass, > 0.
    p : array_like, shape (..., 3)
        Position of the point in the body frame.

    Returns
    -------
    ndarray, shape (..., 6, 6)

    Raises
    ------
    ValueError
        If the mass is not positive or ``p`` is not a finite 3-vector.
    """
    m = positive_array(m, "m")[..., None, None]
    P = skew(as_array(p, "p", (3,)))
    Pt = np.swapaxes(P, -1, -2)
    batch = np.broadcast_shapes(m.shape[:-2], P.shape[:-2])
    out = np.zeros(batch + (6, 6))
    out[..., :3, :3] = m * P @ Pt
    out[..., :3, 3:] = m * P
    out[..., 3:, :3] = m * Pt
    out[..., 3:, 3:] = m * np.eye(3)
    return out


# ------------------------------------------------------------ composite bodies, principal axes


def composite_inertia(inertias, frames=None) -> np.ndarray:
    """Spatial inertia of a rigid body made of parts: the sum of the parts' inertias in one frame.

    Part ``k`` has inertia ``I_k`` in its own frame, whose pose in the composite frame c is
    ``E_ck``.  Re-expressed in c it is ``Ad(E_kc)ᵀ I_k Ad(E_kc)`` with ``E_kc = E_ck⁻¹``
    (Sueda eq. 1.26; Featherstone eq. 2.66 with ``X_kc = Ad(E_kc)``), which is computed as
    ``transform_inertia(Ad(E_ck), I_k)`` without inverting anything.  Inertias add
    (Featherstone §2.13).  The mass, centre of mass (Sueda eq. 1.25) and principal axes of the
    result follow from :func:`principal_axes`.

    Parameters
    ----------
    inertias : array_like, shape (n, ..., 6, 6)
        The parts' spatial inertias, each in its own frame; parts may be singular
        (:func:`point_mass_inertia`).
    frames : array_like, shape (n, ..., 4, 4), optional
        ``E_ck``, the pose of each part's frame in the composite frame.  Omit it when the
        inertias are already expressed in the composite frame.

    Returns
    -------
    ndarray, shape (..., 6, 6)

    Raises
    ------
    ValueError
        If ``inertias`` has no parts axis, a part is not a symmetric positive semi-definite
        rigid-body inertia (eq. 2.63 structure), or ``frames`` does not match.
    """
    I = as_array(inertias, "inertias", (6, 6))
    if I.ndim < 3 or I.shape[0] == 0:
        raise ValueError(f"inertias must have shape (n, ..., 6, 6) with n >= 1, got {I.shape}")
    validate_inertia(I, "inertias", allow_massless=True)
    if frames is not None:
        frames = _as_frame(frames, "frames")
        if frames.ndim < 3 or frames.shape[0] != I.shape[0]:
            raise ValueError(
                f"frames must have shape (n, ..., 4, 4) with n = {I.shape[0]} parts, "
                f"got {frames.shape}"
            )
        I = transform_inertia(Ad(frames), I)
    return I.sum(axis=0)


def principal_axes(I) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Mass, centre of mass, principal axes and principal moments of a rigid-body inertia.

    The rotational inertia about the centre of mass is diagonalized, ``I_c = R diag(d) Rᵀ``,
    with ``d`` ascending and ``R`` a proper rotation (Sueda §1.7.1: an eigenvector matrix may
    come out left-handed; flipping its columns fixes ``det R = +1``).  The principal frame
    ``frame(R, c)`` has the centre of mass as origin and the principal axes as axes; in it the
    inertia is ``diag(d₁, d₂, d₃, m, m, m)`` (eq. 2.62), and ``mcI(m, c, R diag(d) Rᵀ)``
    gives ``I`` back.

    Parameters
    ----------
    I : array_like, shape (..., 6, 6)
        Rigid-body spatial inertia, angular-first.

    Returns
    -------
    m : ndarray, shape (...)
        Mass.
    c : ndarray, shape (..., 3)
        Centre of mass, in the frame of ``I``.
    R : ndarray, shape (..., 3, 3)
        Rotation whose columns are the principal axes in the frame of ``I``.
    d : ndarray, shape (..., 3)
        Principal moments of inertia about the centre of mass, ascending.

    Raises
    ------
    ValueError
        If ``I`` is not a rigid-body inertia (see :func:`validate_inertia`).
    """
    m, c, I_c = _params(validate_inertia(I))
    d, R = np.linalg.eigh(I_c)
    R = R * np.sign(np.linalg.det(R))[..., None, None]
    return m, c, R, d


# ------------------------------------------------------------- the nearest physical inertia

#: ``d = A s``: principal moments from the principal second moments ``s_k = ∫ x_k² dm``
_MOMENTS_OF_SECOND_MOMENTS = np.ones((3, 3)) - np.eye(3)
#: for every set of second moments allowed to be non-zero, the least-squares map ``d -> s``
_SUPPORT_SOLVES = [
    (support, np.linalg.pinv(_MOMENTS_OF_SECOND_MOMENTS[:, list(support)]))
    for support in (
        tuple(k for k in range(3) if keep[k]) for keep in itertools.product((0, 1), repeat=3)
    )
]


def nearest_rotational_inertia(I_c) -> np.ndarray:
    """The physically realizable rotational inertia nearest to ``I_c`` in the Frobenius norm.

    A rotational inertia about the centre of mass is realizable exactly when its principal
    moments ``d`` obey the triangle inequalities ``d_i + d_j ≥ d_k`` (which imply ``d ≥ 0``): in
    principal axes ``d = A s`` with ``A = 11ᵀ - 1`` and ``s_k = ∫ x_k² dm ≥ 0`` the principal
    second moments of the mass, i.e. ``I_c = tr(Σ) 1 - Σ`` with ``Σ = ∫ r rᵀ dm`` positive
    semi-definite.  These moments form a convex cone ``K = {A s : s ≥ 0}`` that does not care
    about their order.

    *Nearest* means the smallest ``‖I_c' - I_c‖_F`` over realizable ``I_c'``.  By the
    Hoffman–Wielandt inequality ``‖X - Y‖_F ≥ ‖λ(X) - λ(Y)‖₂`` (eigenvalues sorted alike), with
    equality when ``X`` and ``Y`` share eigenvectors, the nearest ``I_c'`` keeps the principal
    axes of ``I_c`` and moves its principal moments to the nearest point of ``K``: a
    non-negative least-squares problem ``min ‖A s - d‖₂, s ≥ 0`` in three unknowns, solved
    exactly here by trying each set of zero ``s_k`` (the optimum is the unconstrained
    least-squares solution on its support).  In the usual case, the sorted moments with
    ``d₁ ≥ 0`` and only ``d₁ + d₂ < d₃``, the answer is ``d + (e/3)(1, 1, -1)`` with the excess
    ``e = d₃ - d₁ - d₂``: the change is ``e/√3``.  A realizable ``I_c`` comes back unchanged
    (up to round-off in its eigen-decomposition).

    Parameters
    ----------
    I_c : array_like, shape (..., 3, 3)
        Symmetric rotational inertia (any axes).

    Returns
    -------
    ndarray, shape (..., 3, 3)
        The nearest realizable rotational inertia, in the same axes.

    Raises
    ------
    ValueError
        If ``I_c`` is not a real, finite, symmetric 3x3 matrix (or batch of them).

    Examples
    --------
    A tensor with every entry 1e-6 (principal moments 0, 0, 3e-6) becomes
    ``1e-6 (1 + 11ᵀ/3)``, principal moments 1e-6, 1e-6, 2e-6:

    >>> import numpy as np
    >>> J = nearest_rotational_inertia(np.full((3, 3), 1e-6))
    >>> np.allclose(J, 1e-6 * (np.eye(3) + np.ones((3, 3)) / 3), rtol=0, atol=1e-18)
    True
    """
    I_c = as_array(I_c, "I_c", (3, 3))
    scale = 1.0 + np.abs(I_c).max(initial=0.0)
    if np.abs(I_c - np.swapaxes(I_c, -1, -2)).max(initial=0.0) > 1e-9 * scale:
        raise ValueError("I_c must be symmetric")
    d, Q = np.linalg.eigh(0.5 * (I_c + np.swapaxes(I_c, -1, -2)))
    best = np.zeros_like(d)  # s = 0 (no mass at all) is always in the cone
    best_residual = np.linalg.norm(d, axis=-1)
    for support, solve in _SUPPORT_SOLVES[1:]:
        s = d @ solve.T  # least squares over the s_k of the support
        feasible = np.all(s >= 0.0, axis=-1)
        moments = s @ _MOMENTS_OF_SECOND_MOMENTS[:, list(support)].T
        residual = np.linalg.norm(moments - d, axis=-1)
        better = feasible & (residual < best_residual)
        best = np.where(better[..., None], moments, best)
        best_residual = np.where(better, residual, best_residual)
    return (Q * best[..., None, :]) @ np.swapaxes(Q, -1, -2)
