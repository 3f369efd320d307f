"""Frame spring: translational and rotational spring-dampers between two frames (ArtiSynth §0.22).

Frame 1 is fixed to body A and frame 2 to body B: their world poses are ``T₁ = T_A T_A1`` and
``T₂ = T_B T_B2``, with the constant offsets ``T_A1``, ``T_B2`` (4x4 frames as in
:mod:`spatial.se3`; Sueda writes E for this frame, ArtiSynth X).  With
``R = R₁ᵀ R₂`` (frame 2's orientation seen from frame 1), ``θ = log(R)`` its rotation vector
(``|θ| ≤ π``) and ``Δ = R₁ᵀ (x₂ - x₁)`` the offset of the origins in frame 1, the wrench on
frame 1, in frame 1 coordinates about its origin, is (ArtiSynth eqs. 0.37–0.38)

    τ₁ = k_r θ + d_r (R ω₂ - ω₁),    f₁ = k_t Δ + d_t (R v₂ - v₁),

where ``φ₁ = [ω₁; v₁]``, ``φ₂ = [ω₂; v₂]`` are the frames' body twists, so ``R ω₂ - ω₁`` and
``R v₂ - v₁`` are the relative angular velocity and origin velocity in frame 1.  Frame 2 feels the
opposite world force and torque: ``w₂ = -[Rᵀ τ₁; Rᵀ f₁]`` in frame 2 coordinates about its
origin.  The elastic part is conservative, ``V = ½ k_t |x₂ - x₁|² + ½ k_r |θ|²``, and exerts
no net moment; the translational damper acts along ``ẋ₂ - ẋ₁``, which need not be parallel to
``x₂ - x₁``, so it can exert a net moment.

Jacobians (our derivation; ArtiSynth §0.22.1–0.22.2 for comparison).  Under body
perturbations ``δ₁ = [α₁; β₁]``, ``δ₂ = [α₂; β₂]`` of the frames, ``R`` turns by
``ρ = R α₂ - α₁`` (in frame 1), ``δθ = U ρ`` with ``U`` the rate matrix of the rotation vector
(ArtiSynth eq. 0.45, :func:`spatial.rotvec_rate_matrix`), ``δΔ = [Δ] α₁ - β₁ + R β₂``, and
``δ(R y) = -[R y] ρ``, ``δ(Rᵀ y) = Rᵀ (δy + [y] ρ)``.  A body sees its frame through the
constant ``Ad(T_A1)⁻¹`` (twists) and ``Ad(T_A1)⁻ᵀ`` (wrenches).  ArtiSynth's position Jacobian holds
world-aligned velocities fixed, so its damping terms differ from ``K`` here (which holds body
twists fixed); the elastic terms agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .._batched import skew_matrix
from .._validate import nonnegative_scalar
from ..se3 import (
    _EYE3,
    _Ad,
    _as_frame,
    _frame_inverse,
    _log_so3,
    _so3_left_jacobian_inverse,
    log_so3,
)
from .base import _T, Force, _body_number

__all__ = ["FrameSpring"]


@dataclass(frozen=True, eq=False)
class FrameSpring(Force):
    """Six-axis spring-damper between a frame on one body and a frame on another (ArtiSynth §0.22).

    Parameters
    ----------
    body1 : int
        Number of body A carrying frame 1 (``0`` = the world).
    frame1 : array_like, shape (4, 4)
        ``T_A1``: frame 1 in body A's coordinates (world coordinates if ``body1`` is 0).
    body2 : int
        Number of body B carrying frame 2.
    frame2 : array_like, shape (4, 4)
        ``T_B2``: frame 2 in body B's coordinates.
    k_t, k_r : float
        Translational (N/m) and rotational (N m/rad) stiffness, >= 0.
    d_t, d_r : float
        Translational and rotational damping, >= 0 (default 0).

    Raises
    ------
    ValueError
        If a body number or frame is invalid or a coefficient is negative.
    """

    body1: int
    frame1: np.ndarray
    body2: int
    frame2: np.ndarray
    k_t: float
    k_r: float
    d_t: float = 0.0
    d_r: float = 0.0

    def __post_init__(self) -> None:
        for k in (1, 2):
            object.__setattr__(
                self, f"body{k}", _body_number(getattr(self, f"body{k}"), f"body{k}")
            )
            T_local = _as_frame(getattr(self, f"frame{k}"), f"frame{k}")
            if T_local.shape != (4, 4):
                raise ValueError(f"frame{k} must have shape (4, 4), got {T_local.shape}")
            object.__setattr__(self, f"frame{k}", T_local)
        for name in ("k_t", "k_r", "d_t", "d_r"):
            object.__setattr__(self, name, nonnegative_scalar(getattr(self, name), name))

    @property
    def bodies(self) -> tuple[int, int]:
        return (self.body1, self.body2)

    @cached_property
    def _frame_adjoints(self) -> tuple[np.ndarray, np.ndarray]:
        """``Ad(T_A1)⁻¹`` and ``Ad(T_B2)⁻¹``: constant, so computed once (read-only)."""
        out = []
        for T_local in (self.frame1, self.frame2):
            A_inv = _Ad(_frame_inverse(T_local))
            A_inv.flags.writeable = False
            out.append(A_inv)
        return tuple(out)

    def _frame_states(self, T, phi):
        """World poses and body twists of frames 1 and 2, and the map ``P`` (12 x 6N)."""
        n = T.shape[-3]
        batch = T.shape[:-3]
        P = np.zeros(batch + (12, 6 * n))
        poses, twists = [], []
        for k, (b, T_local) in enumerate(((self.body1, self.frame1), (self.body2, self.frame2))):
            if b == 0:
                poses.append(np.broadcast_to(T_local, batch + (4, 4)))
                twists.append(np.zeros(batch + (6,)))
                continue
            A_inv = self._frame_adjoints[k]
            i = b - 1  # body b is row b - 1 of the state
            poses.append(T[..., i, :, :] @ T_local)
            twists.append((A_inv @ phi[..., i, :, None])[..., 0])
            P[..., 6 * k : 6 * k + 6, 6 * i : 6 * i + 6] = A_inv
        return poses, twists, P

    def _wrench(self, T, phi):
        """The generalized force ``f`` and what its Jacobians reuse (:meth:`_terms`)."""
        (T1, T2), (phi1, phi2), P = self._frame_states(T, phi)
        R1, R2 = T1[..., :3, :3], T2[..., :3, :3]
        R = _T(R1) @ R2
        theta = _log_so3(R)
        delta = (_T(R1) @ (T2[..., :3, 3] - T1[..., :3, 3])[..., None])[..., 0]
        w1, v1, w2, v2 = phi1[..., :3], phi1[..., 3:], phi2[..., :3], phi2[..., 3:]
        Rw2 = (R @ w2[..., None])[..., 0]
        Rv2 = (R @ v2[..., None])[..., 0]
        tau1 = self.k_r * theta + self.d_r * (Rw2 - w1)
        f1 = self.k_t * delta + self.d_t * (Rv2 - v1)
        Rt = _T(R)
        w = np.concatenate(
            [tau1, f1, -(Rt @ tau1[..., None])[..., 0], -(Rt @ f1[..., None])[..., 0]], -1
        )
        Pt = _T(P)
        return (Pt @ w[..., None])[..., 0], (P, R, theta, delta, Rw2, Rv2, tau1, f1)

    def _force(self, T, phi):
        return self._wrench(T, phi)[0]

    def _terms(self, T, phi):
        f, (P, R, theta, delta, Rw2, Rv2, tau1, f1) = self._wrench(T, phi)
        batch = R.shape[:-2]
        eye, zero = np.broadcast_to(_EYE3, batch + (3, 3)), np.zeros(batch + (3, 3))
        # ∂ρ/∂(δ₁, δ₂) with ρ = R α₂ - α₁, and the analogous maps for position and velocity
        d_rho = np.concatenate([-eye, zero, R, zero], -1)
        d_delta = np.concatenate([skew_matrix(delta), -eye, zero, R], -1)
        U = _so3_left_jacobian_inverse(theta)  # rotvec_rate_matrix(θ), |θ| <= π: never singular
        d_tau1 = (self.k_r * U - self.d_r * skew_matrix(Rw2)) @ d_rho
        d_f1 = self.k_t * d_delta - self.d_t * skew_matrix(Rv2) @ d_rho
        Rt = _T(R)
        K_loc = np.concatenate(
            [
                d_tau1,
                d_f1,
                -Rt @ (d_tau1 + skew_matrix(tau1) @ d_rho),
                -Rt @ (d_f1 + skew_matrix(f1) @ d_rho),
            ],
            -2,
        )
        dv_tau1 = self.d_r * d_rho  # ∂(R ω₂ - ω₁)/∂(φ₁, φ₂) has the same blocks as ∂ρ/∂(δ₁, δ₂)
        dv_f1 = self.d_t * np.concatenate([zero, -eye, zero, R], -1)
        D_loc = np.concatenate([dv_tau1, dv_f1, -Rt @ dv_tau1, -Rt @ dv_f1], -2)
        Pt = _T(P)
        return f, Pt @ K_loc @ P, Pt @ D_loc @ P

    def displacement(self, T) -> tuple[np.ndarray, np.ndarray]:
        """Rotation vector ``θ = log(R₁ᵀR₂)`` and offset ``Δ = R₁ᵀ(x₂ - x₁)``, both in frame 1.

        Parameters
        ----------
        T : array_like, shape (..., N, 4, 4)

        Returns
        -------
        theta, delta : ndarray, shape (..., 3)

        Raises
        ------
        ValueError
            If ``T`` is invalid.
        """
        T = self._frames(T)
        (T1, T2), _, _ = self._frame_states(T, np.zeros(T.shape[:-2] + (6,)))
        R1 = T1[..., :3, :3]
        theta = log_so3(_T(R1) @ T2[..., :3, :3])
        return theta, (_T(R1) @ (T2[..., :3, 3] - T1[..., :3, 3])[..., None])[..., 0]

    def potential(self, T) -> np.ndarray:
        """Elastic energy ``½ k_t |Δ|² + ½ k_r |θ|²``.

        Parameters
        ----------
        T : array_like, shape (..., N, 4, 4)

        Returns
        -------
        ndarray, shape (...)

        Raises
        ------
        ValueError
            If ``T`` is invalid.
        """
        theta, delta = self.displacement(T)
        return 0.5 * self.k_t * np.sum(delta**2, -1) + 0.5 * self.k_r * np.sum(theta**2, -1)
