"""Parameterizations of 3D rotation: quaternions, Euler and roll-pitch-yaw angles, rotation vectors.

Every rotation matrix ``R`` in this module is *active*: it maps the coordinates of a vector in the
rotated (body) frame to the coordinates of the same vector in the base frame, ``v_base = R v_body``
(Sueda eq. 1.1).  It is the transpose of Featherstone's coordinate rotation ``E``
(:func:`spatial.rx` and friends; Featherstone eq. 4.12 gives ``E``, not ``R``).  Angular
velocities are in body coordinates (``Ṙ = R [ω]``, Sueda eq. 1.9) or in base coordinates
(``Ṙ = [ω] R``); functions that take one say which, usually through a ``frame`` argument.

Quaternions are arrays ``(..., 4)`` stored **scalar first**, ``q = (w, x, y, z)`` (Featherstone
eq. 4.10, ArtiSynth §0.2).  Note that :class:`scipy.spatial.transform.Rotation` is scalar last.

Sources: ArtiSynth notes §0.2 (quaternions), §0.4 (roll-pitch-yaw rates), §0.22.1 eq. 0.45
(rotation-vector rates); Featherstone §4.5 (eqs. 4.8–4.13); Sueda §2.4.5–2.4.6 (Euler angles,
eqs. 2.29–2.40) and §2.4.8 (exponential coordinates, eqs. 2.42–2.44).
"""

from __future__ import annotations

import numpy as np

from .._validate import as_array, require_rotation
from ..se3 import _sinc, _so3_left_jacobian, _so3_left_jacobian_inverse, exp_so3
from ..vectors import rx, ry, rz, skew

__all__ = [
    "quat_multiply",
    "quat_conjugate",
    "quat_normalize",
    "require_unit_quaternion",
    "quat_to_matrix",
    "quat_from_matrix",
    "quat_from_axis_angle",
    "quat_from_rotvec",
    "quat_to_rotvec",
    "quat_rotate",
    "quat_rate",
    "quat_rate_to_omega",
    "euler_to_matrix",
    "euler_S",
    "euler_S_dot",
    "rpy_to_matrix",
    "matrix_to_rpy",
    "rpy_rate_matrix",
    "rpy_rates_to_omega",
    "omega_to_rpy_rates_matrix",
    "omega_to_rpy_rates",
    "omega_to_rpy_rates_matrix_dot",
    "rotvec_rate_matrix",
    "rotvec_dR",
    "rotvec_reparameterize",
]


def _frame_arg(frame: str) -> str:
    if frame not in ("body", "base"):
        raise ValueError(f"frame must be 'body' or 'base', got {frame!r}")
    return frame


# ----------------------------------------------------------------------------- quaternions


def quat_multiply(p, q) -> np.ndarray:
    """Quaternion product ``p q`` (ArtiSynth §0.2); quaternions are scalar first ``(w, x, y, z)``.

    ``p q = (p_s q_s - p_v · q_v,  p_s q_v + q_s p_v + p_v × q_v)``.  For unit quaternions,
    ``quat_to_matrix(p q) == quat_to_matrix(p) @ quat_to_matrix(q)``: rotate by ``q`` first,
    then by ``p``.

    Parameters
    ----------
    p, q : array_like, shape (..., 4)
        Quaternions ``(w, x, y, z)``; batch dimensions broadcast.

    Returns
    -------
    ndarray, shape (..., 4)

    Raises
    ------
    ValueError
        If an input is not of shape (..., 4) or is not finite.
    """
    p = as_array(p, "p", (4,))
    q = as_array(q, "q", (4,))
    ps, pv = p[..., :1], p[..., 1:]
    qs, qv = q[..., :1], q[..., 1:]
    scalar = ps * qs - np.sum(pv * qv, axis=-1, keepdims=True)
    vector = ps * qv + qs * pv + np.cross(pv, qv)
    return np.concatenate([np.broadcast_to(scalar, vector.shape[:-1] + (1,)), vector], -1)


def quat_conjugate(q) -> np.ndarray:
    """Conjugate ``q* = (w, -x, -y, -z)`` of a scalar-first quaternion; the inverse of a unit one.

    Parameters
    ----------
    q : array_like, shape (..., 4)
        Quaternion ``(w, x, y, z)``.

    Returns
    -------
    ndarray, shape (..., 4)

    Raises
    ------
    ValueError
        If ``q`` is not of shape (..., 4) or is not finite.
    """
    q = as_array(q, "q", (4,))
    return q * np.array([1.0, -1.0, -1.0, -1.0])


def quat_normalize(q) -> np.ndarray:
    """Scale a scalar-first quaternion ``(w, x, y, z)`` to unit length (Featherstone eq. 4.11).

    Integrating ``q̇`` lets the norm drift; Featherstone §4.5 recommends renormalizing after
    every step.

    Parameters
    ----------
    q : array_like, shape (..., 4)

    Returns
    -------
    ndarray, shape (..., 4)

    Raises
    ------
    ValueError
        If ``q`` is not a finite (..., 4) array or some quaternion is zero (norm below 1e-12).
    """
    q = as_array(q, "q", (4,))
    n = np.linalg.norm(q, axis=-1, keepdims=True)
    if np.any(n < 1e-12):
        raise ValueError("q contains a zero quaternion, which cannot be normalized")
    return q / n


def require_unit_quaternion(q, name: str = "q", tol: float = 1e-6) -> np.ndarray:
    """Return ``q`` as an array after checking that it is a unit scalar-first quaternion.

    Parameters
    ----------
    q : array_like, shape (..., 4)
        Quaternion ``(w, x, y, z)``.
    name : str
        Name used in the error message.
    tol : float
        Allowed deviation ``| |q| - 1 |``.

    Returns
    -------
    ndarray, shape (..., 4)

    Raises
    ------
    ValueError
        If ``q`` has the wrong shape, is not finite, or its norm differs from 1 by more than
        ``tol`` (the message gives the worst norm).
    """
    q = as_array(q, name, (4,))
    n = np.linalg.norm(q, axis=-1)
    err = np.abs(n - 1.0)
    if np.any(err > tol):
        worst = n.flat[np.argmax(err)]
        raise ValueError(
            f"{name} is not a unit quaternion: norm {worst:.6g} (tolerance {tol:g}); "
            "use quat_normalize"
        )
    return q


def quat_to_matrix(q) -> np.ndarray:
    """Active rotation matrix ``R`` of a unit quaternion, ``R v = q (0, v) q*`` (ArtiSynth §0.2).

    Quaternions are scalar first ``(w, x, y, z)``.  ``R`` maps rotated (body) coordinates to
    base coordinates; Featherstone's eq. 4.12 is its transpose ``E = Rᵀ``.

    Parameters
    ----------
    q : array_like, shape (..., 4)
        Unit quaternion.

    Returns
    -------
    ndarray, shape (..., 3, 3)

    Raises
    ------
    ValueError
        If ``q`` is not a unit quaternion (tolerance 1e-6).
    """
    q = require_unit_quaternion(q)
    w, x, y, z = (q[..., i] for i in range(4))
    return np.stack(
        [
            np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
            np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
            np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1),
        ],
        -2,
    )


def quat_from_matrix(R) -> np.ndarray:
    """Unit quaternion ``(w, x, y, z)``, scalar first with ``w ≥ 0``, of an active rotation matrix.

    Shepperd's method: the symmetric matrix ``K = 4 q qᵀ`` is built from sums and differences
    of entries of ``R``; the column of ``K`` with the largest diagonal entry is divided by
    ``2 sqrt(K_kk)``, so no division by a small number ever happens.  The sign is then chosen
    to make ``w ≥ 0`` (``q`` and ``-q`` are the same rotation).

    Parameters
    ----------
    R : array_like, shape (..., 3, 3)
        Rotation matrix (body → base).

    Returns
    -------
    ndarray, shape (..., 4)

    Raises
    ------
    ValueError
        If ``R`` is not a rotation matrix.
    """
    R = as_array(R, "R", (3, 3))
    require_rotation(R, "R")
    r = lambda i, j: R[..., i, j]
    tr = r(0, 0) + r(1, 1) + r(2, 2)
    a, b, c = r(2, 1) - r(1, 2), r(0, 2) - r(2, 0), r(1, 0) - r(0, 1)
    d, e, f = r(0, 1) + r(1, 0), r(0, 2) + r(2, 0), r(1, 2) + r(2, 1)
    K = np.stack(
        [
            np.stack([1 + tr, a, b, c], -1),
            np.stack([a, 1 + 2 * r(0, 0) - tr, d, e], -1),
            np.stack([b, d, 1 + 2 * r(1, 1) - tr, f], -1),
            np.stack([c, e, f, 1 + 2 * r(2, 2) - tr], -1),
        ],
        -2,
    )
    k = np.argmax(np.diagonal(K, axis1=-2, axis2=-1), axis=-1)[..., None, None]
    col = np.take_along_axis(K, k, axis=-1)[..., 0]
    Kkk = np.take_along_axis(col, k[..., 0], axis=-1)
    q = col / (2.0 * np.sqrt(Kkk))
    return np.where(q[..., :1] < 0.0, -q, q)


def quat_from_axis_angle(axis, angle) -> np.ndarray:
    """Unit quaternion ``(cos(θ/2), sin(θ/2) u)``, scalar first (Featherstone eq. 4.10).

    Parameters
    ----------
    axis : array_like, shape (..., 3)
        Rotation axis; normalized here.
    angle : float or array_like, shape (...)
        Rotation angle ``θ`` in radians (right-hand rule about ``axis``).

    Returns
    -------
    ndarray, shape (..., 4)

    Raises
    ------
    ValueError
        If ``axis`` is zero or not a finite 3-vector, or ``angle`` is not finite.
    """
    axis = as_array(axis, "axis", (3,))
    angle = as_array(angle, "angle", ())
    n = np.linalg.norm(axis, axis=-1, keepdims=True)
    if np.any(n < 1e-12):
        raise ValueError("axis must be nonzero")
    half = 0.5 * angle[..., None]
    vector = np.sin(half) * axis / n
    return np.concatenate([np.broadcast_to(np.cos(half), vector.shape[:-1] + (1,)), vector], -1)


def quat_from_rotvec(r) -> np.ndarray:
    """Unit quaternion ``(cos(θ/2), sin(θ/2) r/θ)`` of a rotation vector ``r``, ``θ = |r|``.

    Quaternions are scalar first ``(w, x, y, z)``.  ``sin(θ/2)/θ`` is evaluated by its Taylor
    series for small ``θ``, so ``r = 0`` is fine.

    Parameters
    ----------
    r : array_like, shape (..., 3)
        Rotation vector (axis times angle); ``quat_to_matrix(quat_from_rotvec(r)) == exp_so3(r)``.

    Returns
    -------
    ndarray, shape (..., 4)

    Raises
    ------
    ValueError
        If ``r`` is not a finite (..., 3) array.
    """
    r = as_array(r, "r", (3,))
    half = 0.5 * np.linalg.norm(r, axis=-1, keepdims=True)
    return np.concatenate([np.cos(half), 0.5 * _sinc(half) * r], -1)


def quat_to_rotvec(q) -> np.ndarray:
    """Rotation vector ``r`` with ``|r| ≤ π`` of a unit quaternion (scalar first ``(w, x, y, z)``).

    ``q`` is first replaced by ``-q`` if ``w < 0`` (same rotation); then
    ``r = 2 atan2(|v|, w) v / |v|``, with the factor ``2 atan2(|v|, w)/|v|`` replaced by its
    series ``(2/w)(1 - |v|²/(3w²))`` when ``|v| < 1e-8``.

    Parameters
    ----------
    q : array_like, shape (..., 4)
        Unit quaternion.

    Returns
    -------
    ndarray, shape (..., 3)

    Raises
    ------
    ValueError
        If ``q`` is not a unit quaternion (tolerance 1e-6).
    """
    q = require_unit_quaternion(q)
    q = np.where(q[..., :1] < 0.0, -q, q)
    w, v = q[..., 0], q[..., 1:]
    s = np.linalg.norm(v, axis=-1)
    small = s < 1e-8
    s_safe = np.where(small, 1.0, s)
    w_safe = np.where(small, w, 1.0)
    factor = np.where(
        small, (2.0 / w_safe) * (1.0 - (s / w_safe) ** 2 / 3.0), 2.0 * np.arctan2(s, w) / s_safe
    )
    return factor[..., None] * v


def quat_rotate(q, v) -> np.ndarray:
    """Rotate vectors by a unit quaternion, ``q (0, v) q* = R v`` (ArtiSynth §0.2).

    Quaternions are scalar first ``(w, x, y, z)``.  Maps rotated (body) coordinates to base
    coordinates.  Computed as ``v + w t + u × t`` with ``t = 2 u × v`` (``u`` the vector part).

    Parameters
    ----------
    q : array_like, shape (..., 4)
        Unit quaternion.
    v : array_like, shape (..., 3)
        Vectors in rotated coordinates.

    Returns
    -------
    ndarray, shape (..., 3)

    Raises
    ------
    ValueError
        If ``q`` is not a unit quaternion or ``v`` is not a finite (..., 3) array.
    """
    q = require_unit_quaternion(q)
    v = as_array(v, "v", (3,))
    w, u = q[..., :1], q[..., 1:]
    t = 2.0 * np.cross(u, v)
    return v + w * t + np.cross(u, t)


def quat_rate(q, omega, frame: str = "body") -> np.ndarray:
    """Time derivative ``q̇`` of a quaternion (scalar first ``(w, x, y, z)``) rotating at ``ω``.

    * ``frame="body"``: ``ω`` in rotated (body) coordinates, ``q̇ = ½ q (0, ω)``
      (ArtiSynth §0.2; Featherstone eq. 4.13, the velocity variables of a spherical joint).
    * ``frame="base"``: ``ω`` in base coordinates, ``q̇ = ½ (0, ω) q`` (ArtiSynth eq. 0.1).

    The map is linear in ``q``; ``q`` is not required to be exactly unit here, so this can be
    used inside an integrator before renormalization.

    Parameters
    ----------
    q : array_like, shape (..., 4)
    omega : array_like, shape (..., 3)
        Angular velocity in the coordinates named by ``frame``.
    frame : {"body", "base"}

    Returns
    -------
    ndarray, shape (..., 4)

    Raises
    ------
    ValueError
        If ``frame`` is not ``"body"`` or ``"base"``, or an input has the wrong shape or is not
        finite.
    """
    frame = _frame_arg(frame)
    q = as_array(q, "q", (4,))
    omega = as_array(omega, "omega", (3,))
    w = np.concatenate([np.zeros(omega.shape[:-1] + (1,)), omega], -1)
    return 0.5 * (quat_multiply(q, w) if frame == "body" else quat_multiply(w, q))


def quat_rate_to_omega(q, qdot, frame: str = "body") -> np.ndarray:
    """Angular velocity from a unit quaternion (scalar first ``(w, x, y, z)``) and its rate.

    The inverse of :func:`quat_rate`: ``ω = 2 vec(q* q̇)`` (body) or ``ω = 2 vec(q̇ q*)``
    (base).  The scalar part of ``2 q* q̇``, ``2 q·q̇``, vanishes for a rate that keeps ``|q|``
    constant and is discarded, so a ``q̇`` with a component along ``q`` is projected.

    Parameters
    ----------
    q : array_like, shape (..., 4)
        Unit quaternion.
    qdot : array_like, shape (..., 4)
        Its time derivative.
    frame : {"body", "base"}
        Coordinates of the returned ``ω``.

    Returns
    -------
    ndarray, shape (..., 3)

    Raises
    ------
    ValueError
        If ``frame`` is invalid, ``q`` is not a unit quaternion, or ``qdot`` is not a finite
        (..., 4) array.
    """
    frame = _frame_arg(frame)
    q = require_unit_quaternion(q)
    qdot = as_array(qdot, "qdot", (4,))
    qc = quat_conjugate(q)
    prod = quat_multiply(qc, qdot) if frame == "body" else quat_multiply(qdot, qc)
    return 2.0 * prod[..., 1:]


# ----------------------------------------------------------------------------- Euler angles

_AXIS_INDEX = {"X": 0, "Y": 1, "Z": 2}
_COORDINATE_ROTATION = {"X": rx, "Y": ry, "Z": rz}


def _euler_seq(seq: str) -> str:
    if (
        not isinstance(seq, str)
        or len(seq) != 3
        or any(c not in _AXIS_INDEX for c in seq)
        or seq[0] == seq[1]
        or seq[1] == seq[2]
    ):
        raise ValueError(
            f"seq must be three axis letters from 'XYZ' with no two consecutive equal "
            f"(e.g. 'XZX', 'XYZ', 'ZYX'), got {seq!r}"
        )
    return seq


def euler_to_matrix(angles, seq: str) -> np.ndarray:
    """Active rotation ``R = R_a(q₁) R_b(q₂) R_c(q₃)`` of intrinsic Euler angles (Sueda §2.4.5).

    The body is turned by ``q₁`` about axis ``a``, then by ``q₂`` about the *new* axis ``b``, then
    by ``q₃`` about the newest axis ``c``, where ``seq = "abc"``; e.g. ``"XZX"`` gives Sueda
    eq. 2.31, ``"XYZ"`` eq. 2.36, and ``"ZYX"`` the roll-pitch-yaw matrix of ArtiSynth §0.4.
    Each factor is the transpose of the coordinate rotation of :func:`spatial.rx` etc.

    Parameters
    ----------
    angles : array_like, shape (..., 3)
        ``(q₁, q₂, q₃)`` in radians.
    seq : str
        Three axis letters from ``"XYZ"``, no two consecutive equal.

    Returns
    -------
    ndarray, shape (..., 3, 3)
        Body → base rotation.

    Raises
    ------
    ValueError
        If ``seq`` is invalid or ``angles`` is not a finite (..., 3) array.
    """
    seq = _euler_seq(seq)
    q = as_array(angles, "angles", (3,))
    # (E₃ E₂ E₁)ᵀ = R₁ R₂ R₃ with Eᵢ the coordinate rotations
    E = [_COORDINATE_ROTATION[c](q[..., i]) for i, c in enumerate(seq)]
    return np.swapaxes(E[2] @ E[1] @ E[0], -1, -2)


def euler_S(angles, seq: str) -> np.ndarray:
    """Map ``q̇ ↦ ω`` from Euler-angle rates to body angular velocity (Sueda eqs. 2.30, 2.34).

    Column ``i`` is ``unskew(Rᵀ ∂R/∂qᵢ)``: the i-th rotation axis expressed in body coordinates,
    ``S = [R₃ᵀR₂ᵀ a,  R₃ᵀ b,  c]`` for ``seq = "abc"``.  This is the angular block of the 6x3
    motion subspace of a spherical joint (the linear block is zero); ``"ZYX"`` gives
    Featherstone eq. 4.8.  Singular where the first and third axes align.

    Parameters
    ----------
    angles : array_like, shape (..., 3)
    seq : str
        Three axis letters from ``"XYZ"``, no two consecutive equal.

    Returns
    -------
    ndarray, shape (..., 3, 3)

    Raises
    ------
    ValueError
        If ``seq`` is invalid or ``angles`` is not a finite (..., 3) array.
    """
    seq = _euler_seq(seq)
    q = as_array(angles, "angles", (3,))
    axes = np.eye(3)[[_AXIS_INDEX[c] for c in seq]]
    E2 = _COORDINATE_ROTATION[seq[1]](q[..., 1])
    E3 = _COORDINATE_ROTATION[seq[2]](q[..., 2])
    S3 = np.broadcast_to(axes[2], q.shape)
    S2 = E3 @ axes[1]
    S1 = (E3 @ E2) @ axes[0]
    return np.stack([S1, S2, S3], -1)


def euler_S_dot(angles, rates, seq: str) -> np.ndarray:
    """Time derivative ``Ṡ`` of :func:`euler_S` (Sueda eq. 2.35, Featherstone eq. 4.9).

    Differentiating the columns gives ``Ṡ₁ = S₁ × (q̇₂ S₂ + q̇₃ S₃)``, ``Ṡ₂ = S₂ × (q̇₃ S₃)``,
    ``Ṡ₃ = 0``; the velocity-product term of the joint is ``Ṡ q̇``.

    Parameters
    ----------
    angles : array_like, shape (..., 3)
    rates : array_like, shape (..., 3)
        ``q̇``.
    seq : str

    Returns
    -------
    ndarray, shape (..., 3, 3)

    Raises
    ------
    ValueError
        If ``seq`` is invalid or an input is not a finite (..., 3) array.
    """
    S = euler_S(angles, seq)
    qd = as_array(rates, "rates", (3,))
    S1, S2, S3 = S[..., 0], S[..., 1], S[..., 2]
    dS1 = np.cross(S1, qd[..., 1:2] * S2 + qd[..., 2:3] * S3)
    dS2 = np.cross(S2, qd[..., 2:3] * S3)
    return np.stack(np.broadcast_arrays(dS1, dS2, np.zeros_like(dS2)), -1)


# ----------------------------------------------------------------------------- roll-pitch-yaw


def rpy_to_matrix(rpy) -> np.ndarray:
    """Active rotation of ArtiSynth roll-pitch-yaw angles ``(θ, φ, ψ)`` (ArtiSynth §0.4).

    ArtiSynth's convention: turn by ``θ`` about z, then by ``φ`` about the new y′ axis, then by
    ``ψ`` about the newest x″ axis, ``R = R_z(θ) R_y(φ) R_x(ψ) = euler_to_matrix(rpy, "ZYX")``.
    (ArtiSynth names the triple roll, pitch, yaw; Featherstone §4.5 calls the same sequence
    yaw, pitch, roll.  The angles are stored in rotation order: z angle first.)

    Parameters
    ----------
    rpy : array_like, shape (..., 3)
        ``(θ, φ, ψ)`` in radians.

    Returns
    -------
    ndarray, shape (..., 3, 3)

    Raises
    ------
    ValueError
        If ``rpy`` is not a finite (..., 3) array.
    """
    return euler_to_matrix(rpy, "ZYX")


def matrix_to_rpy(R) -> np.ndarray:
    """Roll-pitch-yaw angles ``(θ, φ, ψ)`` (ArtiSynth §0.4, z-y′-x″) of a rotation matrix.

    ``φ ∈ [-π/2, π/2]``, ``θ, ψ ∈ (-π, π]``.  ``θ = atan2(R₁₀, R₀₀)``; then ``M = R_z(θ)ᵀ R``
    equals ``R_y(φ) R_x(ψ)``, from which ``φ = atan2(-M₂₀, M₀₀)`` and ``ψ = atan2(-M₁₂, M₁₁)``.
    Reading ``ψ`` relative to the computed ``θ`` keeps ``rpy_to_matrix(matrix_to_rpy(R)) == R``
    accurate even at gimbal lock (``cos φ = 0``), where only ``θ ∓ ψ`` is determined and
    ``θ`` is whatever round-off in ``R₀₀, R₁₀`` makes it (0 when both are exactly zero).

    Parameters
    ----------
    R : array_like, shape (..., 3, 3)
        Rotation matrix (body → base).

    Returns
    -------
    ndarray, shape (..., 3)

    Raises
    ------
    ValueError
        If ``R`` is not a rotation matrix.
    """
    R = as_array(R, "R", (3, 3))
    require_rotation(R, "R")
    theta = np.arctan2(R[..., 1, 0], R[..., 0, 0])
    c, s = np.cos(theta), np.sin(theta)
    M00 = c * R[..., 0, 0] + s * R[..., 1, 0]
    M11 = -s * R[..., 0, 1] + c * R[..., 1, 1]
    M12 = -s * R[..., 0, 2] + c * R[..., 1, 2]
    phi = np.arctan2(-R[..., 2, 0], M00)
    psi = np.arctan2(-M12, M11)
    return np.stack([theta, phi, psi], -1)


def rpy_rate_matrix(rpy) -> np.ndarray:
    """Matrix ``W`` with ``ω = W (θ̇, φ̇, ψ̇)``, ``ω`` in base coordinates (ArtiSynth §0.4).

    Its columns are the three rotation axes in base coordinates: z, the new y′ and the newest
    x″, ``W = [[0, -s_θ, c_θ c_φ], [0, c_θ, s_θ c_φ], [1, 0, -s_φ]]``.  (In body coordinates
    the same map is ``Rᵀ W = euler_S(rpy, "ZYX")``.)

    Parameters
    ----------
    rpy : array_like, shape (..., 3)
        ``(θ, φ, ψ)``.

    Returns
    -------
    ndarray, shape (..., 3, 3)

    Raises
    ------
    ValueError
        If ``rpy`` is not a finite (..., 3) array.
    """
    rpy = as_array(rpy, "rpy", (3,))
    ct, st = np.cos(rpy[..., 0]), np.sin(rpy[..., 0])
    cp, sp = np.cos(rpy[..., 1]), np.sin(rpy[..., 1])
    o, one = np.zeros_like(ct), np.ones_like(ct)
    return np.stack(
        [
            np.stack([o, -st, ct * cp], -1),
            np.stack([o, ct, st * cp], -1),
            np.stack([one, o, -sp], -1),
        ],
        -2,
    )


def rpy_rates_to_omega(rpy, rpy_dot) -> np.ndarray:
    """Base-frame angular velocity from roll-pitch-yaw rates, ``ω = W rpy_dot`` (ArtiSynth §0.4).

    Parameters
    ----------
    rpy : array_like, shape (..., 3)
        ``(θ, φ, ψ)`` (z, y′, x″).
    rpy_dot : array_like, shape (..., 3)
        ``(θ̇, φ̇, ψ̇)``.

    Returns
    -------
    ndarray, shape (..., 3)
        ``ω`` in base coordinates.

    Raises
    ------
    ValueError
        If an input is not a finite (..., 3) array.
    """
    rpy_dot = as_array(rpy_dot, "rpy_dot", (3,))
    return (rpy_rate_matrix(rpy) @ rpy_dot[..., None])[..., 0]


def _cos_pitch(rpy: np.ndarray, tol: float) -> np.ndarray:
    """``cos φ``, after checking that the angles are away from the gimbal-lock singularity."""
    cp = np.cos(rpy[..., 1])
    if np.any(np.abs(cp) < tol):
        worst = float(np.min(np.abs(cp)))
        raise ValueError(
            f"rpy is at the roll-pitch-yaw singularity (gimbal lock): |cos(pitch)| = {worst:.3g} "
            f"< {tol:g}, where the z and x'' axes align and the angle rates are undefined"
        )
    return cp


def omega_to_rpy_rates_matrix(rpy, tol: float = 1e-9) -> np.ndarray:
    """Inverse ``W⁻¹`` of :func:`rpy_rate_matrix`, mapping base ``ω`` to rates (ArtiSynth eq. 0.2).

    ``W⁻¹ = [[s_φ c_θ / c_φ, s_φ s_θ / c_φ, 1], [-s_θ, c_θ, 0], [c_θ / c_φ, s_θ / c_φ, 0]]``.
    Its rows are the constraint wrenches of joint limits on ``θ, φ, ψ`` (ArtiSynth §0.4).

    Parameters
    ----------
    rpy : array_like, shape (..., 3)
        ``(θ, φ, ψ)``.
    tol : float
        Smallest ``|cos φ|`` accepted.

    Returns
    -------
    ndarray, shape (..., 3, 3)

    Raises
    ------
    ValueError
        If ``rpy`` is not a finite (..., 3) array or ``|cos φ| < tol`` (gimbal lock).
    """
    rpy = as_array(rpy, "rpy", (3,))
    cp = _cos_pitch(rpy, tol)
    ct, st = np.cos(rpy[..., 0]), np.sin(rpy[..., 0])
    tp = np.sin(rpy[..., 1]) / cp
    o, one = np.zeros_like(ct), np.ones_like(ct)
    return np.stack(
        [
            np.stack([tp * ct, tp * st, one], -1),
            np.stack([-st, ct, o], -1),
            np.stack([ct / cp, st / cp, o], -1),
        ],
        -2,
    )


def omega_to_rpy_rates(rpy, omega, tol: float = 1e-9) -> np.ndarray:
    """Roll-pitch-yaw rates from a base-frame angular velocity (ArtiSynth eq. 0.2).

    Parameters
    ----------
    rpy : array_like, shape (..., 3)
        ``(θ, φ, ψ)``.
    omega : array_like, shape (..., 3)
        Angular velocity in base coordinates.
    tol : float
        Smallest ``|cos φ|`` accepted.

    Returns
    -------
    ndarray, shape (..., 3)
        ``(θ̇, φ̇, ψ̇)``.

    Raises
    ------
    ValueError
        If an input is not a finite (..., 3) array or ``|cos φ| < tol`` (gimbal lock).
    """
    omega = as_array(omega, "omega", (3,))
    return (omega_to_rpy_rates_matrix(rpy, tol) @ omega[..., None])[..., 0]


def omega_to_rpy_rates_matrix_dot(rpy, rpy_dot, tol: float = 1e-9) -> np.ndarray:
    """Time derivative of :func:`omega_to_rpy_rates_matrix` (the row derivatives of ArtiSynth §0.4).

    With ``t_φ = tan φ``, the rows are
    ``[-s_θ t_φ θ̇ + (1 + t_φ²) c_θ φ̇,  c_θ t_φ θ̇ + (1 + t_φ²) s_θ φ̇,  0]``,
    ``[-c_θ θ̇,  -s_θ θ̇,  0]`` and
    ``[(-s_θ θ̇ + c_θ t_φ φ̇)/c_φ,  (c_θ θ̇ + s_θ t_φ φ̇)/c_φ,  0]``.

    Parameters
    ----------
    rpy : array_like, shape (..., 3)
        ``(θ, φ, ψ)``.
    rpy_dot : array_like, shape (..., 3)
        ``(θ̇, φ̇, ψ̇)``.
    tol : float
        Smallest ``|cos φ|`` accepted.

    Returns
    -------
    ndarray, shape (..., 3, 3)

    Raises
    ------
    ValueError
        If an input is not a finite (..., 3) array or ``|cos φ| < tol`` (gimbal lock).
    """
    rpy = as_array(rpy, "rpy", (3,))
    rpy_dot = as_array(rpy_dot, "rpy_dot", (3,))
    cp = _cos_pitch(rpy, tol)
    ct, st = np.cos(rpy[..., 0]), np.sin(rpy[..., 0])
    tp = np.sin(rpy[..., 1]) / cp
    td, pd = rpy_dot[..., 0], rpy_dot[..., 1]
    ct, st, cp, tp, td, pd = np.broadcast_arrays(ct, st, cp, tp, td, pd)
    o = np.zeros_like(ct)
    sec2 = 1.0 + tp * tp
    return np.stack(
        [
            np.stack([-st * tp * td + sec2 * ct * pd, ct * tp * td + sec2 * st * pd, o], -1),
            np.stack([-ct * td, -st * td, o], -1),
            np.stack([(-st * td + ct * tp * pd) / cp, (ct * td + st * tp * pd) / cp, o], -1),
        ],
        -2,
    )


# ------------------------------------------------------------- rotation vector (exponential map)


def _rotvec_away_from_2pi(r: np.ndarray, tol: float = 1e-8) -> np.ndarray:
    """Check that no ``|r|`` lies on a singular sphere ``|r| = 2π n``, ``n ≥ 1``."""
    theta = np.linalg.norm(r, axis=-1)
    n = np.round(theta / (2 * np.pi))
    if np.any((n >= 1) & (np.abs(theta - 2 * np.pi * n) < tol)):
        raise ValueError(
            "r lies on a singular sphere |r| = 2πn of the exponential map; "
            "reparameterize it with rotvec_reparameterize"
        )
    return theta


def rotvec_rate_matrix(r, frame: str = "base") -> np.ndarray:
    """Matrix ``U`` with ``ṙ = U ω`` for the rotation vector ``r`` of ``R = exp([r])``.

    ArtiSynth eq. 0.45 (Grassia 1998):
    ``U = ½ (φ cot(φ/2) 1 + (2 - φ cot(φ/2)) u uᵀ - φ [u])`` with ``r = φ u``, for ``ω`` in
    base coordinates (``Ṙ = [ω] R``).  It equals ``1 - ½[r] + ((1 - (φ/2)cot(φ/2))/φ²)[r]²``,
    which is how it is evaluated (Taylor series for small ``φ``; ``U = 1`` at ``r = 0``).
    For ``ω`` in body coordinates (``Ṙ = R [ω]``) the matrix is ``Uᵀ``.  ``U`` is singular on
    the spheres ``|r| = 2π n``; see :func:`rotvec_reparameterize`.

    Parameters
    ----------
    r : array_like, shape (..., 3)
        Rotation vector.
    frame : {"base", "body"}
        Coordinates of ``ω``.

    Returns
    -------
    ndarray, shape (..., 3, 3)

    Raises
    ------
    ValueError
        If ``frame`` is invalid, ``r`` is not a finite (..., 3) array, or ``|r|`` is within
        1e-8 of ``2π n`` (``n ≥ 1``).
    """
    frame = _frame_arg(frame)
    r = as_array(r, "r", (3,))
    _rotvec_away_from_2pi(r)
    U = _so3_left_jacobian_inverse(r)
    return U if frame == "base" else np.swapaxes(U, -1, -2)


def rotvec_dR(r) -> np.ndarray:
    """Derivatives ``∂R/∂rᵢ`` of ``R = exp([r])`` (Gallego and Yezzi; Sueda eq. 2.43).

    Sueda eq. 2.43 writes ``∂R/∂rᵢ = [(rᵢ r + [r](1 - R) eᵢ) / rᵀr] R``.  Expanding ``R`` by
    Rodrigues' formula shows that the vector in the bracket is column ``i`` of
    ``V = 1 + ((1 - cos φ)/φ²)[r] + ((φ - sin φ)/φ³)[r]²`` (``φ = |r|``), so this function
    evaluates ``∂R/∂rᵢ = [V eᵢ] R``: the same value, without dividing by ``rᵀr``, and with the
    limit ``[eᵢ]`` at ``r = 0`` built in.  It stays accurate near ``|r| = 2π`` (where ``R`` is
    the identity and the columns of ``V`` lose rank, so the joint's ``S`` is singular there;
    Sueda §2.4.8 then reparameterizes, :func:`rotvec_reparameterize`).  The body-frame joint
    columns are ``Sᵢ = unskew(Rᵀ ∂R/∂rᵢ)`` (Sueda eq. 2.44), i.e. ``S = Vᵀ``.

    Parameters
    ----------
    r : array_like, shape (..., 3)
        Rotation vector (exponential coordinates).

    Returns
    -------
    ndarray, shape (..., 3, 3, 3)
        ``out[..., i, :, :] = ∂R/∂rᵢ``.

    Raises
    ------
    ValueError
        If ``r`` is not a finite (..., 3) array.
    """
    r = as_array(r, "r", (3,))
    V = _so3_left_jacobian(r)
    return skew(np.swapaxes(V, -1, -2)) @ exp_so3(r)[..., None, :, :]


def rotvec_reparameterize(r, r_dot=None):
    """Equivalent rotation vector with ``|r| ≤ π`` (Sueda §2.4.8, after Grassia 1998).

    The exponential map is singular on the spheres ``|r| = 2π n``.  Sueda §2.4.8 replaces ``r``
    by ``(1 - 2π/|r|) r`` when ``|r|`` nears ``2π``: the same rotation, about the reversed
    axis, by ``2π - |r|``.  This function applies that shift by the nearest multiple of ``2π``,
    so the result always has ``|r| ≤ π`` (vectors with ``|r| ≤ π`` are returned unchanged).
    Given the rate ``ṙ``, it also returns the rate of the new vector for the same angular
    velocity, ``ṙ' = U_body(r') S(r) ṙ`` with ``S(r) = V(r)ᵀ`` (Sueda's
    ``q̇ = S⁻¹ S_prev q̇_prev``).

    Parameters
    ----------
    r : array_like, shape (..., 3)
        Rotation vector.
    r_dot : array_like, shape (..., 3), optional
        Its time derivative.

    Returns
    -------
    ndarray, shape (..., 3)
        The reparameterized vector, or the tuple ``(r', ṙ')`` when ``r_dot`` is given.

    Raises
    ------
    ValueError
        If an input is not a finite (..., 3) array.
    """
    r = as_array(r, "r", (3,))
    theta = np.linalg.norm(r, axis=-1, keepdims=True)
    shift = 2 * np.pi * np.round(theta / (2 * np.pi))
    scale = np.where(theta > np.pi, 1.0 - shift / np.where(theta > np.pi, theta, 1.0), 1.0)
    r_new = scale * r
    if r_dot is None:
        return r_new
    r_dot = as_array(r_dot, "r_dot", (3,))
    omega_body = (np.swapaxes(_so3_left_jacobian(r), -1, -2) @ r_dot[..., None])[..., 0]
    return r_new, (rotvec_rate_matrix(r_new, "body") @ omega_body[..., None])[..., 0]
