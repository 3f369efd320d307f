"""Articulated bodies with several handles (Featherstone §7.1, §7.2.1 and §7.5).

A *handle* is a body of an articulated body at which outside forces act.  With ``h`` handles,
the accelerations of the handles depend linearly on the forces applied to them (eq. 7.4):

    ``[a_1; …; a_h] = Φ [f_1; …; f_h] + b``,

with ``Φ`` the (symmetric, positive semi-definite) articulated-body inverse inertia, whose
off-diagonal blocks ``Φ_ij`` say how a force at handle ``j`` accelerates handle ``i``, and
``b`` the bias acceleration (the handles' accelerations when no force is applied).  Inverse
inertias are used because the handles' motions may be dependent, making ``Φ`` singular.

Two ways to compute them:

* :func:`handle_inverse_inertia` — the *projection* method (eqs. 7.5–7.10 stacked over the
  handles): with ``J`` the handles' Jacobians, ``Φ = J H⁻¹ Jᵀ`` and
  ``b = J̇ q̇ - J H⁻¹ (C - τ)``;
* :func:`assemble_handles` — the *assembly* formula of §7.5 (eqs. 7.57–7.63): two articulated
  bodies, ``A₁₂`` with handle sets 1 and 2 and ``A₃₄`` with handle sets 3 and 4, are joined by
  joints between the handles of sets 2 and 3, which are used up; the result has handle sets 1
  and 4.  This is the step of divide-and-conquer dynamics algorithms.

All handle quantities are spatial vectors in **one common frame** — here world (base)
coordinates — so that the joint constraints can relate accelerations and forces of different
bodies.
"""

from __future__ import annotations

import numpy as np

from .._validate import as_array, real_array
from ..kinematics import _body_index, body_jacobian, jdot_qdot
from ..model import Model
from .crba import crba
from .rnea import bias_force

__all__ = ["handle_inverse_inertia", "assemble_handles"]


def handle_inverse_inertia(
    model: Model, q, qd, handles, tau=None, f_ext=None
) -> tuple[np.ndarray, np.ndarray]:
    """Multi-handle articulated-body inverse inertia and bias acceleration by projection.

    Eqs. 7.6–7.10 with the handles' Jacobians stacked (§7.2.1, "Multiple Handles"): a force
    ``f_k`` on handle ``k`` enters the equation of motion as ``J_kᵀ f_k``, so
    ``q̈ = H⁻¹ (Jᵀ f + τ - C)`` and ``a = J q̈ + J̇ q̇ = Φ f + b`` with

    ``Φ = J H⁻¹ Jᵀ`` and ``b = J̇ q̇ + J H⁻¹ (τ - C)``.

    The model is the whole articulated body: a fixed-base tree hanging from the world, or a
    floating one (a Free root joint) whose handles can have all 6 degrees of freedom.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qd : array_like, shape (..., nv)
    handles : sequence of int or str
        The handle bodies (numbers ``1 … NB`` or names), in the order of the blocks of ``Φ``.
    tau : array_like, shape (..., nv), optional
        Joint forces inside the articulated body (default zero).
    f_ext : array_like, shape (..., NB + 1, 6), optional
        Other external forces, in world coordinates (they enter ``b``).

    Returns
    -------
    Phi : ndarray, shape (..., 6h, 6h)
        Block ``(k, l)`` maps a force at handle ``l`` to the acceleration of handle ``k``; all
        in world coordinates.
    b : ndarray, shape (..., 6h)
        The handles' spatial accelerations without handle forces (gravity included).

    Raises
    ------
    ValueError
        If ``handles`` is empty or names a non-body, or a state array is invalid; if the
        model has loop joints, as :func:`~spatial.dynamics.aba`.
    """
    model.check_tree("handle_inverse_inertia")
    if isinstance(handles, (str, int, np.integer)) or len(handles) == 0:
        raise ValueError(f"handles must be a non-empty sequence of bodies, got {handles!r}")
    ids = [_body_index(model, h) for h in handles]
    if 0 in ids:
        raise ValueError("the fixed base (body 0) cannot be a handle")
    q, qd, _, tau = model.check_state(q, qd, None, np.zeros(model.nv) if tau is None else tau)
    J = np.concatenate([body_jacobian(model, q, i, frame="world") for i in ids], -2)
    Jdqd = np.concatenate([jdot_qdot(model, q, qd, i, frame="world") for i in ids], -1)
    H = crba(model, q)
    rhs = np.concatenate(
        [np.swapaxes(J, -1, -2), (tau - bias_force(model, q, qd, f_ext))[..., None]], -1
    )
    batch = np.broadcast_shapes(H.shape[:-2], rhs.shape[:-2])
    Hinv_rhs = np.linalg.solve(
        np.broadcast_to(H, batch + H.shape[-2:]), np.broadcast_to(rhs, batch + rhs.shape[-2:])
    )
    JHinv = J @ Hinv_rhs
    return JHinv[..., :-1], Jdqd + JHinv[..., -1]


def assemble_handles(
    Phi_12, b_12, Phi_34, b_34, T, c, n_joints: int = 1
) -> tuple[np.ndarray, np.ndarray]:
    """Join two multi-handle articulated bodies through joints between handles (eq. 7.63).

    ``A₁₂`` has handle sets 1 (kept) and 2 (joined), ``A₃₄`` has sets 3 (joined) and 4 (kept),
    each described by ``a = Φ f + b`` (eqs. 7.57–7.58).  Each handle of set 2 is joined to the
    corresponding handle of set 3 by a joint with constraint-force subspace ``T`` and
    velocity-product acceleration ``c``: ``Tᵀ (a₃ - a₂) = Tᵀ c`` and ``f₃ = T λ = -f₂``
    (eqs. 7.60–7.61; the joints are passive — account for active joint forces as equal and
    opposite external forces in ``b``).  Eliminating ``λ`` gives, with
    ``Y = Tᵀ (Φ₂ + Φ₃) T``, ``W = T Y⁻¹ Tᵀ`` and ``β = c - b₃ + b₂``:

    ``Φ₁ᴬ = Φ₁ - Φ₁₂ W Φ₂₁``, ``Φ₄ᴬ = Φ₄ - Φ₄₃ W Φ₃₄``, ``Φ₁₄ᴬ = Φ₁₂ W Φ₃₄ = (Φ₄₁ᴬ)ᵀ``,
    ``b₁ᴬ = b₁ - Φ₁₂ W β``, ``b₄ᴬ = b₄ + Φ₄₃ W β``.

    Parameters
    ----------
    Phi_12 : array_like, shape (..., 6(h₁ + k), 6(h₁ + k))
        Inverse inertia of ``A₁₂``, blocks ordered as set 1 then set 2 (the last ``k``
        handles, ``k = n_joints``).
    b_12 : array_like, shape (..., 6(h₁ + k))
    Phi_34 : array_like, shape (..., 6(k + h₄), 6(k + h₄))
        Inverse inertia of ``A₃₄``, set 3 (the first ``k`` handles) then set 4.
    b_34 : array_like, shape (..., 6(k + h₄))
    T : array_like, shape (..., 6k, r)
        Block-diagonal constraint-force subspaces of the ``k`` joints, in the common frame.
    c : array_like, shape (..., 6k)
        The joints' velocity-product terms (``a₃ - a₂`` when the joint accelerations are
        zero), in the common frame.
    n_joints : int
        ``k``, the number of joints (handles in sets 2 and 3).

    Returns
    -------
    Phi : ndarray, shape (..., 6(h₁ + h₄), 6(h₁ + h₄))
        Inverse inertia of the assembly, set 1 then set 4.
    b : ndarray, shape (..., 6(h₁ + h₄))

    Raises
    ------
    ValueError
        If the shapes are inconsistent, or ``Y`` is singular (the joints duplicate a
        constraint already present; Featherstone 1999b treats that case).
    """
    if isinstance(n_joints, bool) or not isinstance(n_joints, (int, np.integer)) or n_joints < 1:
        raise ValueError(f"n_joints must be a positive int, got {n_joints!r}")
    k = 6 * n_joints
    Phi_12, Phi_34 = _square(Phi_12, "Phi_12", k), _square(Phi_34, "Phi_34", k)
    b_12 = as_array(b_12, "b_12", (Phi_12.shape[-1],))
    b_34 = as_array(b_34, "b_34", (Phi_34.shape[-1],))
    T = real_array(T, "T")
    if T.ndim < 2 or T.shape[-2] != k:
        raise ValueError(f"T must have shape (..., {k}, r), got {T.shape}")
    T = as_array(T, "T", T.shape[-2:])
    c = as_array(c, "c", (k,))
    n1 = Phi_12.shape[-1] - k
    Phi1, Phi12, Phi21, Phi2 = (
        Phi_12[..., :n1, :n1],
        Phi_12[..., :n1, n1:],
        Phi_12[..., n1:, :n1],
        Phi_12[..., n1:, n1:],
    )
    Phi3, Phi34, Phi43, Phi4 = (
        Phi_34[..., :k, :k],
        Phi_34[..., :k, k:],
        Phi_34[..., k:, :k],
        Phi_34[..., k:, k:],
    )
    b1, b2, b3, b4 = b_12[..., :n1], b_12[..., n1:], b_34[..., :k], b_34[..., k:]
    Tt = np.swapaxes(T, -1, -2)
    Y = Tt @ (Phi2 + Phi3) @ T
    if np.any(np.linalg.matrix_rank(Y) < Y.shape[-1]):
        raise ValueError(
            "Y = Tᵀ(Φ₂ + Φ₃)T is singular: the joints impose a constraint the handles "
            "already satisfy (at least one of each joined pair must have 6 DoF, §7.5)"
        )
    W = T @ np.linalg.solve(Y, Tt)
    beta = c - b3 + b2
    W_beta = (W @ beta[..., None])[..., 0]
    Phi1A = Phi1 - Phi12 @ W @ Phi21
    Phi4A = Phi4 - Phi43 @ W @ Phi34
    Phi14A = Phi12 @ W @ Phi34
    Phi = np.concatenate(
        [
            np.concatenate([Phi1A, Phi14A], -1),
            np.concatenate([np.swapaxes(Phi14A, -1, -2), Phi4A], -1),
        ],
        -2,
    )
    b = np.concatenate(
        [b1 - (Phi12 @ W_beta[..., None])[..., 0], b4 + (Phi43 @ W_beta[..., None])[..., 0]], -1
    )
    return Phi, b


def _square(Phi, name: str, k: int) -> np.ndarray:
    """``Phi`` as a float (..., n, n) array with ``n > k`` and ``n`` a multiple of 6."""
    Phi = real_array(Phi, name)
    if Phi.ndim < 2 or Phi.shape[-1] != Phi.shape[-2] or Phi.shape[-1] % 6 or Phi.shape[-1] <= k:
        raise ValueError(
            f"{name} must have shape (..., 6m, 6m) with more than {k // 6} handle(s), got "
            f"{Phi.shape}"
        )
    return as_array(Phi, name, Phi.shape[-2:])
