"""Rigid frames on SE(3): 4x4 frames, twists, exponential and logarithm maps, adjoints.

Conventions (Sueda §1.1–1.5, see ``spatial.__doc__``): a frame ``T_AB = [[R, p], [0, 1]]``
maps the coordinates of a point from B to A, ``x_A = R x_B + p``; ``R`` rotates B coordinates
into A coordinates and ``p`` is B's origin expressed in A.  Sueda writes ``E`` for this frame;
the package keeps ``E`` for Featherstone's 3x3 coordinate rotation (``rot(E)``) and calls 4x4
frames ``T``.  A twist is the 6-vector ``φ = [ω; v]`` (angular part first), a body twist
unless a name says otherwise, with ``Ṫ = T [φ]`` (Sueda eq. 1.8).  The adjoint ``Ad(T_AB)`` maps
twists from B to A coordinates, so it equals the Plücker transform ``X_AB`` (the inverse of
Featherstone's ``X_BA``).  Every function accepts leading batch dimensions.

Sources: Sueda, *Rigid Body Dynamics Notes*, §1.1–1.5 (eqs. 1.1–1.20).
"""

from __future__ import annotations

import numpy as np

from ._batched import skew_matrix
from ._validate import as_array, require_rotation
from .vectors import _unskew, crm, skew, unskew

__all__ = [
    "frame",
    "frame_inverse",
    "bracket",
    "unbracket",
    "exp_so3",
    "log_so3",
    "exp_se3",
    "log_se3",
    "Ad",
    "ad",
    "Ad_dot",
    "material_jacobian",
]

# Below this angle the coefficient functions of the exponential map are evaluated by their
# Taylor series (truncated after the θ⁸ term, so the remainder is below 1e-17 relative).
_SMALL_ANGLE = 0.1

# the 3x3 identity, built once (read-only: every use adds it into a new array)
_EYE3 = np.eye(3)
_EYE3.flags.writeable = False
_LAST_ROW = np.array([0.0, 0.0, 0.0, 1.0])
_LAST_ROW.flags.writeable = False


def _as_frame(T, name: str = "T", tol: float = 1e-8) -> np.ndarray:
    """Validate that ``T`` is a rigid 4x4 frame ``[[R, p], [0, 1]]`` with ``R`` a rotation."""
    T = as_array(T, name, (4, 4))
    err = np.abs(T[..., 3, :] - _LAST_ROW).max(initial=0.0)
    if err > tol:
        raise ValueError(f"{name} is not a rigid frame: its last row must be [0, 0, 0, 1]")
    require_rotation(T[..., :3, :3], f"the rotation block of {name}", tol)
    return T


def frame(R, p) -> np.ndarray:
    """Assemble the 4x4 frame ``T = [[R, p], [0, 1]]`` (Sueda eq. 1.1).

    ``T_AB`` maps point coordinates from B to A: ``x_A = R x_B + p``.  Its blocks are read
    back by plain indexing, ``R = T[..., :3, :3]`` and ``p = T[..., :3, 3]``.

    Parameters
    ----------
    R : array_like, shape (..., 3, 3)
        Rotation whose columns are B's axes in A coordinates.
    p : array_like, shape (..., 3)
        B's origin in A coordinates.

    Returns
    -------
    ndarray, shape (..., 4, 4)

    Raises
    ------
    ValueError
        If ``R`` is not a rotation matrix or ``p`` is not a finite 3-vector.
    """
    R = as_array(R, "R", (3, 3))
    require_rotation(R, "R")
    p = as_array(p, "p", (3,))
    batch = np.broadcast_shapes(R.shape[:-2], p.shape[:-1])
    T = np.zeros(batch + (4, 4))
    T[..., :3, :3] = R
    T[..., :3, 3] = p
    T[..., 3, 3] = 1.0
    return T


def frame_inverse(T) -> np.ndarray:
    """Inverse of a rigid frame, ``[[Rᵀ, -Rᵀ p], [0, 1]]``, without a general inversion.

    ``frame_inverse(T_AB) == T_BA`` (Sueda eq. 1.4).

    Parameters
    ----------
    T : array_like, shape (..., 4, 4)

    Returns
    -------
    ndarray, shape (..., 4, 4)

    Raises
    ------
    ValueError
        If ``T`` is not a rigid frame.
    """
    return _frame_inverse(_as_frame(T))


def _frame_inverse(T: np.ndarray) -> np.ndarray:
    """:func:`frame_inverse` of a frame already validated (internal callers)."""
    Rt = np.swapaxes(T[..., :3, :3], -1, -2)
    out = np.zeros_like(T)
    out[..., :3, :3] = Rt
    out[..., :3, 3] = -(Rt @ T[..., :3, 3:4])[..., 0]
    out[..., 3, 3] = 1.0
    return out


def bracket(phi) -> np.ndarray:
    """4x4 matrix ``[φ] = [[ω×, v], [0, 0]]`` of a twist ``φ = [ω; v]`` (Sueda eq. 1.6).

    Parameters
    ----------
    phi : array_like, shape (..., 6)
        Twist, angular part first.

    Returns
    -------
    ndarray, shape (..., 4, 4)
        An element of se(3); ``T @ bracket(phi)`` is ``Ṫ`` for the body twist ``phi``
        (Sueda eq. 1.8).

    Raises
    ------
    ValueError
        If ``phi`` is not of shape (..., 6) or is not finite.
    """
    phi = as_array(phi, "phi", (6,))
    M = np.zeros(phi.shape[:-1] + (4, 4))
    M[..., :3, :3] = skew(phi[..., :3])
    M[..., :3, 3] = phi[..., 3:]
    return M


def unbracket(M) -> np.ndarray:
    """Twist ``[ω; v]`` of a 4x4 se(3) matrix; the inverse of :func:`bracket`.

    Only the skew-symmetric part of the top-left block is used, so round-off in ``M`` gives the
    nearest twist.

    Parameters
    ----------
    M : array_like, shape (..., 4, 4)

    Returns
    -------
    ndarray, shape (..., 6)

    Raises
    ------
    ValueError
        If ``M`` is not of shape (..., 4, 4) or is not finite.
    """
    M = as_array(M, "M", (4, 4))
    return np.concatenate([unskew(M[..., :3, :3]), M[..., :3, 3]], -1)


def _taylor_or(theta: np.ndarray, series: tuple[float, ...], closed) -> np.ndarray:
    """Evaluate ``closed(θ)`` or, for θ below ``_SMALL_ANGLE``, the series ``Σ cₖ θ^(2k)``."""
    if theta.size == 1 and theta.dtype == np.float64:
        # one angle (one body, one joint: most calls inside a simulation's steps): the same
        # IEEE operations on a Python float, without the array calls' overhead
        t = float(theta.reshape(()))
        if t >= _SMALL_ANGLE:
            return np.asarray(closed(theta))
        t2, taylor = t * t, 0.0
        for c in reversed(series):
            taylor = taylor * t2 + c
        return np.float64(taylor) if theta.ndim == 0 else np.full(theta.shape, taylor)
    small = theta < _SMALL_ANGLE
    if not small.any():  # only the closed form is needed (the same values as the np.where below)
        return np.asarray(closed(theta))
    t2 = theta * theta
    taylor = np.zeros_like(theta)
    for c in reversed(series):
        taylor = taylor * t2 + c
    if small.all():
        return taylor
    safe = np.where(small, 1.0, theta)
    return np.where(small, taylor, closed(safe))


def _sinc(theta):
    """``sin θ / θ``."""
    return _taylor_or(theta, (1.0, -1 / 6, 1 / 120, -1 / 5040, 1 / 362880), lambda t: np.sin(t) / t)


def _one_minus_cos_over_t2(theta):
    """``(1 - cos θ) / θ²``, written as ``2 sin²(θ/2) / θ²`` to avoid cancellation."""
    return _taylor_or(
        theta,
        (0.5, -1 / 24, 1 / 720, -1 / 40320, 1 / 3628800),
        lambda t: 2.0 * (np.sin(0.5 * t) / t) ** 2,
    )


def _t_minus_sin_over_t3(theta):
    """``(θ - sin θ) / θ³``."""
    return _taylor_or(
        theta,
        (1 / 6, -1 / 120, 1 / 5040, -1 / 362880, 1 / 39916800),
        lambda t: (t - np.sin(t)) / t**3,
    )


def exp_so3(w) -> np.ndarray:
    """Rotation matrix ``exp([w])`` of a rotation vector, by Rodrigues' formula (Sueda eq. 1.10).

    ``R = 1 + (sin θ / θ) [w] + ((1 - cos θ) / θ²) [w]²`` with ``θ = |w|``; the coefficients
    switch to their Taylor series for small ``θ``, so the result is accurate down to ``w = 0``.

    Parameters
    ----------
    w : array_like, shape (..., 3)
        Rotation vector (axis times angle); for a body turning at angular velocity ``ω`` for
        one unit of time, ``w = ω``.

    Returns
    -------
    ndarray, shape (..., 3, 3)

    Raises
    ------
    ValueError
        If ``w`` is not of shape (..., 3) or is not finite.
    """
    return _exp_so3(as_array(w, "w", (3,)))


def _so3_powers(w: np.ndarray) -> tuple:
    """``θ = |w|``, ``[w]``, ``[w]²`` and ``(1 - cos θ)/θ²``: what exp and ``V`` share."""
    theta = np.linalg.norm(w, axis=-1)
    W = skew_matrix(w)
    return theta, W, W @ W, _one_minus_cos_over_t2(theta)[..., None, None]


def _rodrigues(theta, W, W2, B) -> np.ndarray:
    """``1 + (sin θ / θ) [w] + B [w]²`` from :func:`_so3_powers` (Sueda eq. 1.10)."""
    return _EYE3 + _sinc(theta)[..., None, None] * W + B * W2


def _exp_so3(w: np.ndarray) -> np.ndarray:
    """:func:`exp_so3` of a rotation vector already validated (internal callers)."""
    return _rodrigues(*_so3_powers(w))


def log_so3(R) -> np.ndarray:
    """Rotation vector ``w`` with ``exp_so3(w) == R`` and ``|w| ≤ π`` (Sueda eq. 1.10).

    The angle is ``θ = atan2(|s|, c)`` with ``c = (tr R - 1)/2 = cos θ`` and
    ``s = unskew(R - Rᵀ)/2 = sin θ · n``, accurate over the whole range.  For ``θ ≤ π/2`` the
    result is ``(θ / sin θ) s``.  Near ``π`` the skew part vanishes, so the axis is taken from
    the symmetric part instead, ``(R + Rᵀ)/2 - c·1 = (1 - c) n nᵀ`` (its largest column), and
    the sign of ``n`` from ``s``.  At exactly ``θ = π`` both ``±π n`` are valid logarithms and
    one of them is returned.

    Parameters
    ----------
    R : array_like, shape (..., 3, 3)
        Rotation matrix.

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
    return _log_so3(R)


def _log_so3(R: np.ndarray) -> np.ndarray:
    """:func:`log_so3` of a rotation already validated (internal callers)."""
    s = _unskew(R)
    c = 0.5 * (np.trace(R, axis1=-2, axis2=-1) - 1.0)
    sin_t = np.linalg.norm(s, axis=-1)
    theta = np.arctan2(sin_t, c)
    # small and moderate angles: w = θ / sin θ · s
    w_skew = s / _sinc(theta)[..., None]
    if (c >= 0.0).all():  # no angle beyond π/2: the np.where below would pick w_skew throughout
        return w_skew
    # angles beyond π/2: axis from the symmetric part, n nᵀ = ((R + Rᵀ)/2 - c) / (1 - c)
    nnT = (0.5 * (R + np.swapaxes(R, -1, -2)) - c[..., None, None] * _EYE3) / np.maximum(
        1.0 - c, 1.0
    )[..., None, None]
    k = np.argmax(np.diagonal(nnT, axis1=-2, axis2=-1), axis=-1)
    col = np.take_along_axis(nnT, k[..., None, None], axis=-1)[..., 0]
    n = col / np.maximum(np.linalg.norm(col, axis=-1, keepdims=True), 1e-300)
    n = np.where(np.sum(n * s, axis=-1, keepdims=True) < 0.0, -n, n)
    w_sym = theta[..., None] * n
    return np.where((c >= 0.0)[..., None], w_skew, w_sym)


def _so3_left_jacobian(w: np.ndarray) -> np.ndarray:
    """``V = 1 + ((1 - cos θ)/θ²) [w] + ((θ - sin θ)/θ³) [w]²``, the translation part of exp."""
    return _left_jacobian(*_so3_powers(w))


def _left_jacobian(theta, W, W2, B) -> np.ndarray:
    """``V = 1 + B [w] + ((θ - sin θ)/θ³) [w]²`` from :func:`_so3_powers`."""
    return _EYE3 + B * W + _t_minus_sin_over_t3(theta)[..., None, None] * W2


def _so3_left_jacobian_inverse(w: np.ndarray) -> np.ndarray:
    """``V⁻¹ = 1 - ½[w] + ((1 - (θ/2) cot(θ/2)) / θ²) [w]²``; singular on ``θ = 2π, 4π, ...``."""
    theta = np.linalg.norm(w, axis=-1)
    W = skew_matrix(w)
    D = _taylor_or(
        theta,
        (1 / 12, 1 / 720, 1 / 30240, 1 / 1209600, 1 / 47900160),
        lambda t: (1.0 - 0.5 * t / np.tan(0.5 * t)) / t**2,
    )[..., None, None]
    return _EYE3 - 0.5 * W + D * (W @ W)


def exp_se3(phi) -> np.ndarray:
    """Frame ``exp([φ])`` reached by moving with the constant twist ``φ`` for unit time.

    ``exp([φ]) = [[exp_so3(ω), V v], [0, 1]]`` with
    ``V = 1 + ((1 - cos θ)/θ²) [ω] + ((θ - sin θ)/θ³) [ω]²`` and ``θ = |ω|`` (Sueda eq. 1.10;
    the closed form is Murray et al., Example A.12).  Small angles use Taylor series.

    Parameters
    ----------
    phi : array_like, shape (..., 6)
        Twist ``[ω; v]``.

    Returns
    -------
    ndarray, shape (..., 4, 4)

    Raises
    ------
    ValueError
        If ``phi`` is not of shape (..., 6) or is not finite.
    """
    return _exp_se3(as_array(phi, "phi", (6,)))


def _exp_se3(phi: np.ndarray) -> np.ndarray:
    """:func:`exp_se3` of a twist already validated (internal callers)."""
    w, v = phi[..., :3], phi[..., 3:]
    T = np.zeros(phi.shape[:-1] + (4, 4))
    powers = _so3_powers(w)  # computed once for the rotation and V
    T[..., :3, :3] = _rodrigues(*powers)
    T[..., :3, 3] = (_left_jacobian(*powers) @ v[..., None])[..., 0]
    T[..., 3, 3] = 1.0
    return T


def log_se3(T) -> np.ndarray:
    """Twist ``φ = [ω; v]`` with ``exp_se3(φ) == T`` and ``|ω| ≤ π`` (Sueda eq. 1.10).

    ``ω = log_so3(R)`` and ``v = V⁻¹ p`` with the closed-form inverse
    ``V⁻¹ = 1 - ½[ω] + (1 - (θ/2) cot(θ/2))/θ² [ω]²`` (finite for ``θ ≤ π``; Taylor series
    for small ``θ``).

    Parameters
    ----------
    T : array_like, shape (..., 4, 4)
        Rigid frame.

    Returns
    -------
    ndarray, shape (..., 6)

    Raises
    ------
    ValueError
        If ``T`` is not a rigid frame.
    """
    return _log_se3(_as_frame(T))


def _log_se3(T: np.ndarray) -> np.ndarray:
    """:func:`log_se3` of a frame already validated (internal callers)."""
    w = _log_so3(T[..., :3, :3])
    Vinv = _so3_left_jacobian_inverse(w)
    return np.concatenate([w, (Vinv @ T[..., :3, 3:4])[..., 0]], -1)


def Ad(T) -> np.ndarray:
    """Adjoint ``Ad(T) = [[R, 0], [p× R, R]]`` of a frame (Sueda eq. 1.14).

    ``Ad(T_AB)`` maps twists from B coordinates to A coordinates (Sueda eq. 1.15), so it is
    the Plücker motion transform ``X_AB`` of Featherstone's notation.  With
    :func:`spatial.pluho`, which turns ``X_BA`` into the 4x4 transform of point coordinates
    A → B (that is, the frame ``T_BA``), the identity reads ``Ad(pluho(X)) == X``, and
    ``Ad(T) == xinv(pluho(frame_inverse(T)))``.  It is a group homomorphism:
    ``Ad(T1 @ T2) == Ad(T1) @ Ad(T2)`` and ``Ad(frame_inverse(T)) == inv(Ad(T))``.

    Parameters
    ----------
    T : array_like, shape (..., 4, 4)
        Rigid frame ``T_AB``.

    Returns
    -------
    ndarray, shape (..., 6, 6)

    Raises
    ------
    ValueError
        If ``T`` is not a rigid frame.
    """
    return _Ad(_as_frame(T))


def _Ad(T: np.ndarray) -> np.ndarray:
    """:func:`Ad` of a frame already validated (internal callers)."""
    R = T[..., :3, :3]
    out = np.zeros(T.shape[:-2] + (6, 6))
    out[..., :3, :3] = R
    out[..., 3:, 3:] = R
    out[..., 3:, :3] = skew_matrix(T[..., :3, 3]) @ R
    return out


def ad(phi) -> np.ndarray:
    """Adjoint of a twist, ``ad(φ) = [[ω×, 0], [v×, ω×]]`` (Sueda eq. 1.19).

    This is the spatial cross-product matrix for motion vectors, identical to
    :func:`spatial.crm` (Featherstone eq. 2.31); ``ad(φ) @ ψ`` is the Lie bracket of twists.

    Parameters
    ----------
    phi : array_like, shape (..., 6)
        Twist ``[ω; v]``.

    Returns
    -------
    ndarray, shape (..., 6, 6)

    Raises
    ------
    ValueError
        If ``phi`` is not of shape (..., 6) or is not finite.
    """
    return crm(as_array(phi, "phi", (6,)))


def Ad_dot(T, phi) -> np.ndarray:
    """Time derivative of ``Ad(T)`` for a frame moving with body twist ``φ`` (Sueda eq. 1.18).

    ``d/dt Ad(T) = Ad(T) ad(φ)`` (Sueda eq. 1.19), which follows from ``Ṫ = T [φ]``.

    Parameters
    ----------
    T : array_like, shape (..., 4, 4)
        Rigid frame.
    phi : array_like, shape (..., 6)
        Body twist of the frame, ``[ω; v]`` in the frame's own coordinates.

    Returns
    -------
    ndarray, shape (..., 6, 6)

    Raises
    ------
    ValueError
        If ``T`` is not a rigid frame or ``phi`` is not a finite 6-vector.
    """
    return Ad(T) @ ad(phi)


def material_jacobian(x) -> np.ndarray:
    """Material Jacobian ``Γ(x) = [[x]ᵀ, 1]`` of a body-fixed point (Sueda eq. 1.12).

    For a body with frame ``T = [[R, p], [0, 1]]`` and body twist ``φ``, the body-fixed point
    with local coordinates ``x`` moves with world velocity ``R Γ(x) φ = R (ω × x + v)``.
    ``Γᵀ`` maps a point force in body coordinates to a body wrench (Sueda eq. 1.13).

    Parameters
    ----------
    x : array_like, shape (..., 3)
        Point in body coordinates.

    Returns
    -------
    ndarray, shape (..., 3, 6)

    Raises
    ------
    ValueError
        If ``x`` is not of shape (..., 3) or is not finite.
    """
    return _material_jacobian(as_array(x, "x", (3,)))


def _material_jacobian(x: np.ndarray) -> np.ndarray:
    """:func:`material_jacobian` of a point already validated (internal callers)."""
    X = skew_matrix(x)
    G = np.zeros(X.shape[:-2] + (3, 6))
    G[..., :, :3] = np.swapaxes(X, -1, -2)
    G[..., :, 3:] = _EYE3
    return G
