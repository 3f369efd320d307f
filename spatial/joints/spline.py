"""Spline joints: a body sliding along a curve or a surface of frames (Sueda §2.4.12–2.4.13).

A uniform cubic B-spline blends four consecutive control values ``c₁ … c₄`` with the weights
``B_i(u)``, the entries of ``B ū`` where ``B`` is the basis matrix of Sueda eq. 2.61 and
``ū = (1, u, u², u³)`` with the local parameter ``u ∈ [0, 1]`` (eq. 2.62–2.63).  With more than
four control values, the integer part of the joint variable ``q`` picks the window of four and
its fractional part is ``u``; the curve is twice continuously differentiable across windows.

**Curve joint (§2.4.12, Algorithm 3).**  For points, the sum ``Σ c_i B_i`` can be regrouped as
``c₁ + Σ_{i≥2} (c_i − c_{i−1}) B̃_i`` with the *cumulative* weights ``B̃_i = Σ_{k≥i} B_k``
(eqs. 2.64–2.65; ``B̃₁ = 1``).  That form generalizes to rigid frames ``C_i`` on SE(3): a
difference becomes the twist ``Δ_i = log(C_{i−1}⁻¹ C_i)`` that carries one frame onto the next,
a weighted difference becomes the partial motion ``exp(Δ_i B̃_i)``, and the sum becomes the
product (eq. 2.67)::

    Q(q) = C₁ exp(Δ₂ B̃₂(u)) exp(Δ₃ B̃₃(u)) exp(Δ₄ B̃₄(u)).

The result is always a rigid frame, passes near the control frames, and reduces to the point
spline when all rotations are the identity.  The window for ``q`` is ``s = ⌊q⌋`` (clamped to the
last window at the upper end), ``u = q − s``, so ``q`` runs over ``[0, K − 3]`` for ``K``
control frames.

**Surface joint (§2.4.13, Algorithm 4).**  Two variables ``(q₁, q₂)`` blend a ``K₁ x K₂`` grid
of frames.  Following Lee and Terzopoulos, each control frame is split into six scalar
coordinates, the position ``(x, y, z)`` and the intrinsic XYZ Euler angles ``(a, b, c)`` of its
rotation; each coordinate is interpolated by the tensor-product spline
``f = (B ū₁)ᵀ C (B ū₂)`` of its 4x4 window (eqs. 2.68–2.69), and the frame is the product
``Q = T_x T_y T_z R_x R_y R_z`` of the six elementary motions ``exp(ê_k f_k)`` (eqs. 2.70–2.71;
translations first, so that the position is not turned by the rotation).  As with any Euler
set, keep the rotations of the grid moderate (well below a quarter turn about the second axis).

**Jacobian and Hessian.**  Both joints are a product of exponentials
``Q = Q₀ Π_k exp(ξ_k f_k(q))`` with fixed twists ``ξ_k``.  Appending one factor
``E = exp(ξ f)`` to a product ``P`` with body Jacobian columns ``S_i`` (``[S_i] = P⁻¹ ∂P/∂q_i``)
gives, since ``E⁻¹ ∂E/∂q_i = ξ ∂_i f`` and ``E⁻¹ [s] E = [Ad(E⁻¹) s]``,

* ``S_i ← ξ ∂_i f + Ad(E⁻¹) S_i``;
* differentiating once more, with ``∂ Ad(E⁻¹)/∂q_j = −∂_j f Ad(E⁻¹) ad(ξ)`` and
  ``−ad(ξ) S_i = ad(S_i) ξ``:
  ``∂S_i/∂q_j ← ξ ∂²_{ij} f + Ad(E⁻¹) (∂S_i/∂q_j + ad(S_i) ξ ∂_j f)``, with the old ``S_i``.

These are the recursions of Algorithms 3 and 4.  (Line 10 of Algorithm 3 as printed multiplies
the bracket term by ``B̃_i(q)``; the derivation, and the finite-difference tests, need the
derivative ``B̃′_i(q)`` there, as in line 16 of Algorithm 4.)

**Conversion to this library.**  Sueda's body Jacobian ``S`` is already in successor
coordinates with the angular part first, so it is the motion subspace as it stands; the joint
transform is the Plücker form of ``Q⁻¹``, ``X_J = Ad(Q⁻¹) = plux(Rᵀ, p)`` for
``Q = [[R, p], [0, 1]]``; and ``c_J = Ṡ q̇ = Σ_{ij} (∂S_i/∂q_j) q̇_i q̇_j``.  ``α = q̇``.
"""

from __future__ import annotations

import numpy as np

from .._batched import cross_motion, plux, skew_matrix
from .._validate import real_array
from ..se3 import _as_frame, _one_minus_cos_over_t2, _sinc, _so3_left_jacobian, log_se3
from .base import Joint

__all__ = ["SplineCurve", "SplineSurface"]

# uniform cubic B-spline basis (Sueda eq. 2.61): the weights are B @ (1, u, u², u³)
_B = np.array([[1.0, -3.0, 3.0, -1.0], [4.0, 0.0, -6.0, 3.0], [1.0, 3.0, 3.0, -3.0], [0, 0, 0, 1]])
_B = _B / 6.0
# cumulative weights B̃_i = Σ_{k ≥ i} B_k (eq. 2.65)
_B_CUMULATIVE = np.triu(np.ones((4, 4))) @ _B


def _monomials(u: np.ndarray) -> np.ndarray:
    """``(ū, ū′, ū″)`` stacked, shape (..., 3, 4), for ``ū = (1, u, u², u³)`` (eq. 2.66)."""
    one, zero = np.ones_like(u), np.zeros_like(u)
    return np.stack(
        [
            np.stack([one, u, u * u, u**3], -1),
            np.stack([zero, one, 2.0 * u, 3.0 * u * u], -1),
            np.stack([zero, zero, 2.0 * one, 6.0 * u], -1),
        ],
        -2,
    )


def _window(q: np.ndarray, count: int):
    """Window index ``s`` (clamped to ``[0, count − 4]``) and local parameter ``u = q − s``."""
    s = np.clip(np.floor(q), 0, count - 4).astype(int)
    return s, q - s


def _exp(phi: np.ndarray):
    """Unvalidated ``exp([φ])`` of twists (..., 6): rotation (..., 3, 3) and position (..., 3)."""
    w, v = phi[..., :3], phi[..., 3:]
    theta = np.linalg.norm(w, axis=-1)
    W = skew_matrix(w)
    R = (
        np.eye(3)
        + _sinc(theta)[..., None, None] * W
        + _one_minus_cos_over_t2(theta)[..., None, None] * (W @ W)
    )
    return R, (_so3_left_jacobian(w) @ v[..., None])[..., 0]


def _product_of_exponentials(Q0, xi, f, df, ddf):
    """``Q = Q₀ Π_k exp(ξ_k f_k)`` with its body Jacobian and Hessian (Algorithms 3 and 4).

    Parameters
    ----------
    Q0 : (..., 4, 4)
        The fixed leading frame.
    xi : (..., m, 6)
        The twists ``ξ_k`` of the factors.
    f, df, ddf : (..., m), (..., m, n), (..., m, n, n)
        The weights ``f_k(q)`` with their first and second derivatives.

    Returns
    -------
    Q : (..., 4, 4)
    S : (..., 6, n)
        Column ``i`` is ``unbracket(Q⁻¹ ∂Q/∂q_i)``.
    dS : (..., 6, n, n)
        ``dS[..., :, i, j] = ∂S_i/∂q_j``.
    """
    n = df.shape[-1]
    batch = np.broadcast_shapes(Q0.shape[:-2], xi.shape[:-2], f.shape[:-1])
    Q = np.broadcast_to(Q0, batch + (4, 4))
    S = np.zeros(batch + (6, n))
    dS = np.zeros(batch + (6, n, n))
    for k in range(xi.shape[-2]):
        x = np.broadcast_to(xi[..., k, :], batch + (6,))
        R, p = _exp(x * f[..., k, None])
        Ad_inv = plux(np.swapaxes(R, -1, -2), p)  # Ad(E⁻¹)
        E = np.zeros(batch + (4, 4))
        E[..., :3, :3], E[..., :3, 3], E[..., 3, 3] = R, p, 1.0
        Q = Q @ E
        # ad(S_i) ξ ∂_j f with the old S_i, shape (..., 6, n, n)
        bracket = np.stack(
            [cross_motion(S[..., i], x)[..., None] * df[..., k, None, :] for i in range(n)], -2
        )
        dS = x[..., :, None, None] * ddf[..., k, None, :, :] + np.einsum(
            "...ab,...bij->...aij", Ad_inv, dS + bracket
        )
        S = x[..., :, None] * df[..., k, None, :] + Ad_inv @ S
    return Q, S, dS


def _joint_transform(Q: np.ndarray) -> np.ndarray:
    """``X_J = Ad(Q⁻¹) = plux(Rᵀ, p)`` of frames ``Q = [[R, p], [0, 1]]`` (..., 4, 4)."""
    return plux(np.swapaxes(Q[..., :3, :3], -1, -2), Q[..., :3, 3])


def _velocity_product(dS: np.ndarray, qd: np.ndarray) -> np.ndarray:
    """``c_J = Σ_ij (∂S_i/∂q_j) q̇_i q̇_j`` from ``dS`` (..., 6, n, n) and ``q̇`` (..., n)."""
    return np.einsum("...aij,...i,...j->...a", dS, qd, qd)


def _control_frames(frames, name: str, ndim: int) -> np.ndarray:
    """Validated rigid frames of shape (K, 4, 4) or (K₁, K₂, 4, 4), each ``K ≥ 4``."""
    F = np.array(real_array(frames, name))
    if F.ndim != ndim + 2 or F.shape[-2:] != (4, 4):
        kind = "K" if ndim == 1 else "K₁ x K₂"
        raise ValueError(f"{name} must be an array of {kind} 4x4 frames, got shape {F.shape}")
    if min(F.shape[:ndim]) < 4:
        raise ValueError(
            f"{name} needs at least 4 control frames along each parameter of a cubic B-spline, "
            f"got shape {F.shape[:ndim]}"
        )
    return _as_frame(F, name)


class _SplineJoint(Joint):
    """What both spline joints share: ``X_J``, ``S`` and ``c_J`` from one evaluation of the
    product of exponentials (``_evaluate(q)`` returns ``Q, S, ∂S/∂q``), and the parameter box
    ``[0, upper]`` (an array of ``nq`` upper ends)."""

    upper: np.ndarray

    def _evaluate(self, q):
        raise NotImplementedError

    def transform(self, q):
        return _joint_transform(self._evaluate(q)[0])

    def motion_subspace(self, q):
        return self._evaluate(q)[1]

    def bias(self, q, qd):
        return _velocity_product(self._evaluate(q)[2], qd)

    def random_configuration(self, rng, shape=()):
        return rng.uniform(0.0, 1.0, size=tuple(shape) + (self.nq,)) * self.upper

    def check_q(self, q, name="q"):
        q = real_array(q, name)
        if not np.all(np.isfinite(q)):
            raise ValueError(f"{name} must be finite")
        bad = (q < 0.0) | (q > self.upper)
        if np.any(bad):
            raise ValueError(
                f"{name} = {q[bad].flat[0]!r} is outside the spline's parameter range: each "
                f"variable must lie in [0, K - 3], here from {[0.0] * self.nq} to "
                f"{self.upper.tolist()}"
            )


class SplineCurve(_SplineJoint):
    """One-DoF joint along a cumulative cubic B-spline of frames (Sueda §2.4.12, Algorithm 3).

    ``Q(q) = C_{s+1} exp(Δ₂ B̃₂(u)) exp(Δ₃ B̃₃(u)) exp(Δ₄ B̃₄(u))`` with window ``s = ⌊q⌋``,
    ``u = q − s`` and ``Δ_i`` the twists between consecutive control frames of the window
    (see the module docstring).  ``X_J = Ad(Q⁻¹)``, ``S`` is the body Jacobian of ``Q`` and
    ``c_J = (∂S/∂q) q̇²``.  The joint variable runs over ``[0, K − 3]``; the frame is
    twice continuously differentiable in ``q``.  ``neutral()`` is ``q = 0``, where
    ``X_J`` is the identity only if ``Q(0)`` is (e.g. when the first three frames are).

    Parameters
    ----------
    control_frames : array_like, shape (K, 4, 4)
        ``K ≥ 4`` rigid frames ``[[R, p], [0, 1]]`` of the successor relative to the
        predecessor.  Consecutive frames must differ by less than a half turn: the spline
        takes the shorter way round from one frame to the next (``|ω| < π`` in ``Δ_i``).

    Raises
    ------
    ValueError
        If there are fewer than 4 frames, a frame is not rigid, or two consecutive frames
        differ by a half turn (to within 1e-9 in the cosine of the angle), where the twist
        between them is not unique.
    """

    nq = 1
    nv = 1

    def __init__(self, control_frames):
        C = _control_frames(control_frames, "control_frames", 1)
        relative = np.swapaxes(C[:-1, :3, :3], -1, -2) @ C[1:, :3, :3]
        cos_angle = 0.5 * (np.trace(relative, axis1=-2, axis2=-1) - 1.0)
        if np.any(cos_angle < -1.0 + 1e-9):
            k = int(np.argmax(cos_angle < -1.0 + 1e-9))
            raise ValueError(
                f"control frames {k} and {k + 1} differ by a half turn; the twist between them "
                f"is not unique (insert an intermediate frame)"
            )
        self.control_frames = C
        inverse = np.linalg.inv(C[:-1])
        self._deltas = log_se3(inverse @ C[1:])  # Δ between frames k and k+1, (K-1, 6)
        self.upper = np.array([len(C) - 3.0])

    def _evaluate(self, q):
        s, u = _window(q[..., 0], len(self.control_frames))
        b = _monomials(u) @ _B_CUMULATIVE.T  # (..., 3, 4): B̃, B̃′, B̃″
        xi = self._deltas[s[..., None] + np.arange(3)]  # (..., 3, 6): Δ₂, Δ₃, Δ₄
        return _product_of_exponentials(
            self.control_frames[s],
            xi,
            b[..., 0, 1:],
            b[..., 1, 1:, None],
            b[..., 2, 1:, None, None],
        )

    def __repr__(self) -> str:
        return f"SplineCurve({self.control_frames.tolist()!r})"


def _euler_xyz(R: np.ndarray) -> np.ndarray:
    """Angles ``(a, b, c)`` with ``R = R_x(a) R_y(b) R_z(c)`` (active, intrinsic), ``|b| ≤ π/2``."""
    a = np.arctan2(-R[..., 1, 2], R[..., 2, 2])
    b = np.arctan2(R[..., 0, 2], np.hypot(R[..., 0, 0], R[..., 0, 1]))
    c = np.arctan2(-R[..., 0, 1], R[..., 0, 0])
    return np.stack([a, b, c], -1)


# the twists ê_k of eq. 2.70: translations along x, y, z, then rotations about x, y, z
_AXES = np.concatenate([np.eye(6)[3:], np.eye(6)[:3]])


class SplineSurface(_SplineJoint):
    """Two-DoF joint over a tensor-product cubic B-spline surface of frames (Sueda §2.4.13).

    Every control frame is split into its position and intrinsic XYZ Euler angles; each of the
    six coordinates ``f_k(q₁, q₂)`` is a tensor-product cubic B-spline over the 4x4 window of
    the grid picked by ``⌊q₁⌋, ⌊q₂⌋`` (Sueda eqs. 2.68–2.69), and
    ``Q = Π_k exp(ê_k f_k)`` = translation, then XYZ rotation (eqs. 2.70–2.71, Algorithm 4).
    ``X_J = Ad(Q⁻¹)``, ``S`` (6 x 2) is the body Jacobian of ``Q`` and
    ``c_J = Σ_ij (∂S_i/∂q_j) q̇_i q̇_j``.  ``q₁ ∈ [0, K₁ − 3]``, ``q₂ ∈ [0, K₂ − 3]``.
    Keep the grid's rotations moderate: the Euler angles are interpolated, so neighbouring
    frames should have nearby angles and the second angle should stay well inside ±π/2.

    Parameters
    ----------
    control_grid : array_like, shape (K₁, K₂, 4, 4)
        Rigid frames, ``K₁, K₂ ≥ 4``; index 0 runs along ``q₁``, index 1 along ``q₂``.

    Raises
    ------
    ValueError
        If the grid has fewer than 4 frames along either parameter or a frame is not rigid.
    """

    nq = 2
    nv = 2

    def __init__(self, control_grid):
        G = _control_frames(control_grid, "control_grid", 2)
        self.control_grid = G
        # the six spline coordinates of every control frame: x, y, z, a, b, c
        self._values = np.concatenate([G[..., :3, 3], _euler_xyz(G[..., :3, :3])], -1)
        self.upper = np.array([G.shape[0] - 3.0, G.shape[1] - 3.0])

    def _evaluate(self, q):
        s1, u1 = _window(q[..., 0], self.control_grid.shape[0])
        s2, u2 = _window(q[..., 1], self.control_grid.shape[1])
        b1 = _monomials(u1) @ _B.T  # (..., 3, 4): weights and their derivatives along q₁
        b2 = _monomials(u2) @ _B.T
        i = (s1[..., None] + np.arange(4))[..., :, None]
        j = (s2[..., None] + np.arange(4))[..., None, :]
        V = self._values[i, j]  # (..., 4, 4, 6)
        # F[..., d1, d2, k]: ∂^{d1}_{q₁} ∂^{d2}_{q₂} f_k, for d1, d2 ∈ {0, 1, 2}
        F = np.einsum("...pa,...abk,...rb->...prk", b1, V, b2)
        f = F[..., 0, 0, :]
        df = np.stack([F[..., 1, 0, :], F[..., 0, 1, :]], -1)
        ddf = np.stack(
            [
                np.stack([F[..., 2, 0, :], F[..., 1, 1, :]], -1),
                np.stack([F[..., 1, 1, :], F[..., 0, 2, :]], -1),
            ],
            -2,
        )
        return _product_of_exponentials(np.eye(4), _AXES, f, df, ddf)

    def __repr__(self) -> str:
        return f"SplineSurface({self.control_grid.tolist()!r})"
