"""Roll-pitch-yaw angles and their rates (ArtiSynth notes §0.4).

ArtiSynth describes an orientation by three angles ``(θ, φ, ψ)``: a turn by ``θ`` about z, then
by ``φ`` about the new y′ axis, then by ``ψ`` about the newest x″ axis, so
``R = R_z(θ) R_y(φ) R_x(ψ)``: the Euler set ``"ZYX"`` of :mod:`.euler`
(:func:`rpy_to_matrix`, and back :func:`matrix_to_rpy`).  ArtiSynth calls the triple roll, pitch
and yaw; Featherstone (§4.5) calls the same sequence yaw, pitch and roll.

The notes work with the angular velocity in *base* coordinates.  Its columns are the three
turning axes expressed in the base frame, ``ω = W (θ̇, φ̇, ψ̇)`` (:func:`rpy_rate_matrix`,
:func:`rpy_rates_to_omega`), and inverting ``W`` gives the rates from ``ω`` (ArtiSynth eq. 0.2,
:func:`omega_to_rpy_rates_matrix`, :func:`omega_to_rpy_rates`); the rows of ``W⁻¹`` are the
constraint wrenches of limits on the three angles, and their time derivative is
:func:`omega_to_rpy_rates_matrix_dot`.  ``W`` is singular at ``cos φ = 0`` (gimbal lock), where
the inverse maps raise instead of returning huge numbers.
"""

from __future__ import annotations

import numpy as np

from .._validate import as_array, require_rotation
from .euler import euler_to_matrix

__all__ = [
    "rpy_to_matrix",
    "matrix_to_rpy",
    "rpy_rate_matrix",
    "rpy_rates_to_omega",
    "omega_to_rpy_rates_matrix",
    "omega_to_rpy_rates",
    "omega_to_rpy_rates_matrix_dot",
]


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
