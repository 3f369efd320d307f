"""Recursive hybrid dynamics, the Delassus matrix and the dual constrained problem (Sueda §2.12,
Alg. 9, eqs. 2.121–2.127).

Recursive hybrid dynamics (Alg. 9, after Kim and Pollard).  Three passes over the tree, with
each joint either force-driven (``τ_j`` known) or prescribed (``q̈_j`` known):

1. root to leaves: the body twists ``V_j = ^jX_λ(j) V_λ(j) + S_j q̇_j`` and the velocity-product
   accelerations ``η_j = V_j × S_j q̇_j + Ṡ_j q̇_j`` (lines 1–5);
2. leaves to root: the inertia a body offers with its subtree,
   ``M̂_j = M_j + Σ_c ^cX_jᵀ Π_c ^cX_j``, and its bias force
   ``B̂_j = -ad(V_j)ᵀ M_j V_j - F_j^ext + Σ_c ^cX_jᵀ β_c`` (lines 7–8).  What the joint passes
   on to its parent depends on its kind: a prescribed joint is rigid for this purpose,
   ``Π_j = M̂_j``, ``β_j = B̂_j + M̂_j (η_j + S_j q̈_j)``; a force-driven joint gives way along
   ``S_j``, ``Ψ_j = (S_jᵀ M̂_j S_j)⁻¹``, ``Π_j = M̂_j - M̂_j S_j Ψ_j S_jᵀ M̂_j`` and
   ``β_j = B̂_j + M̂_j (η_j + S_j Ψ_j (τ_j - S_jᵀ (M̂_j η_j + B̂_j)))`` (lines 9–16);
3. root to leaves: ``q̈_j = Ψ_j (τ_j - S_jᵀ M̂_j (^jX_λ(j) V̇_λ(j) + η_j) - S_jᵀ B̂_j)`` at a
   force-driven joint, then ``V̇_j = ^jX_λ(j) V̇_λ(j) + S_j q̈_j + η_j``, the joint wrench
   ``F_j = M̂_j V̇_j + B̂_j`` and at a prescribed joint ``τ_j = S_jᵀ F_j`` (lines 18–28).

In the package's frames the body frame is the joint's successor frame, so Sueda's ``M_j`` is
the spatial inertia ``I_j`` and the ``Ad`` between joint and body is the identity; gravity is
the base acceleration ``V̇_0 = -a_grav`` (Featherstone's trick) instead of a force in
``F^ext``.  ``-ad(V)ᵀ M V`` is Featherstone's ``v ×* I v``.  With every joint force-driven this
is the articulated-body algorithm, with every joint prescribed the RNEA.

The Delassus matrix and the dual (eqs. 2.121–2.127).  Let ``q̈*`` be the unconstrained
acceleration and ``Ā`` the stacked constraint rows (inequalities ``C̄`` first, then equalities
``Ḡ``).  The correction ``δ = q̈ - q̈*`` minimizes ``½ δᵀ M_r δ`` subject to
``C̄ δ ≥ -C̄̇ q̇ - C̄ q̈*`` and ``Ḡ δ = -Ḡ̇ q̇ - Ḡ q̈*`` (eq. 2.125).  With multipliers ``w``
(``w_c ≥ 0`` on the inequalities), ``δ = M_r⁻¹ Āᵀ w`` and ``w`` minimizes

    ½ wᵀ (Ā M_r⁻¹ Āᵀ) w + wᵀ (Ā̇ q̇ + Ā q̈*)   subject to   w_c ≥ 0.

``Ā M_r⁻¹ Āᵀ`` is the Delassus matrix, built one column at a time by ``M_r⁻¹`` products
(:mod:`.inverse_inertia`, i.e. Alg. 9 without velocity and force terms) — ``O(n)`` per
column.  Two sign slips in the text: eq. 2.127 bounds the inequality multipliers by ``≤ 0``
with this very objective, which lets an active contact be *pulled* instead of pushed (for a
block of mass 2 kg resting on the floor it returns ``λ = 0`` and ``q̈ = -9.81``, falling
through; the bound ``≥ 0`` gives ``w = 19.62`` N and ``q̈ = 0``); and eq. 2.123's right-hand side
has the opposite sign of the Schur complement of eq. 2.122 as written (it is consistent with
eq. 2.124's ``f_con = Ḡᵀλ`` only if eq. 2.122's ``Ḡᵀ`` blocks read ``-Ḡᵀ``).  Here
``f_con = Āᵀ w`` is added to the joint forces and Alg. 9 is run again (eq. 2.124).
"""

from __future__ import annotations

import numpy as np

from .._batched import T
from .._validate import as_array
from .._validate import broadcast_batch as _batch_shape
from ..dynamics.aba import _col, _pass1
from ..dynamics.hybrid import _force_driven
from ..dynamics.rnea import _check_f_ext
from ..kinematics import _forward_pass
from ..model import Model
from ..solvers import qp
from .constrained import KKTSolution, _require_independent
from .constraints import (
    JointConstraint,
    JointLimit,
    PointConstraint,
    PointContact,
    _check_items,
    _check_state,
    _stack,
)
from .inverse_inertia import _factor

__all__ = ["recursive_hybrid_dynamics", "delassus_matrix", "dual_forward_dynamics"]


# ----------------------------------------------------------------------------- kernels


def _rhd(model: Model, q, qd, qdd_known, tau_known, fd, f_ext, batch):
    """Alg. 9 on validated arrays; ``fd[j]`` says joint ``j`` is force-driven.  ``(q̈, τ)``."""
    NB = model.NB
    Xup, S, _, eta, Mhat, Bhat = _pass1(model, q, qd, f_ext)  # lines 1–5 and B̂'s own terms
    Psi = [None] * (NB + 1)
    for j in range(NB, 0, -1):  # lines 6–17
        if fd[j]:
            tau_j = _col(tau_known[..., model.v_index[j]])
            MS = Mhat[j] @ S[j]
            Psi[j] = np.linalg.inv(T(S[j]) @ MS)
            Pi = Mhat[j] - MS @ Psi[j] @ T(MS)
            beta = Bhat[j] + Mhat[j] @ (
                eta[j] + S[j] @ (Psi[j] @ (tau_j - T(S[j]) @ (Mhat[j] @ eta[j] + Bhat[j])))
            )
        else:
            Pi = Mhat[j]
            beta = Bhat[j] + Mhat[j] @ (eta[j] + S[j] @ _col(qdd_known[..., model.v_index[j]]))
        p = model.parent[j]
        if p != 0:
            Mhat[p] = Mhat[p] + T(Xup[j]) @ Pi @ Xup[j]
            Bhat[p] = Bhat[p] + T(Xup[j]) @ beta
    qdd, tau = np.zeros(batch + (model.nv,)), np.zeros(batch + (model.nv,))
    Vdot = [_col(-model.a_grav)] + [None] * NB
    for j in range(1, NB + 1):  # lines 18–28
        vj = model.v_index[j]
        a_p = Xup[j] @ Vdot[model.parent[j]]
        if fd[j]:
            tau_j = _col(tau_known[..., vj])
            qdd_j = Psi[j] @ (tau_j - T(S[j]) @ (Mhat[j] @ (a_p + eta[j]) + Bhat[j]))
            Vdot[j] = a_p + S[j] @ qdd_j + eta[j]
            tau[..., vj] = tau_known[..., vj]
        else:
            qdd_j = _col(qdd_known[..., vj])
            Vdot[j] = a_p + S[j] @ qdd_j + eta[j]
            tau[..., vj] = (T(S[j]) @ (Mhat[j] @ Vdot[j] + Bhat[j]))[..., 0]  # τ = Sᵀ F
        qdd[..., vj] = qdd_j[..., 0]
    return qdd, tau


def _delassus(factor, A: np.ndarray) -> np.ndarray:
    """``A M⁻¹ Aᵀ``: one ``O(n)`` solve per row of ``A`` (eq. 2.123's left-hand side)."""
    return A @ factor._solve(A.T)


# ----------------------------------------------------------------------------- public API


def recursive_hybrid_dynamics(
    model: Model, q, qd, qdd_known, tau_known, prescribed, f_ext=None
) -> tuple[np.ndarray, np.ndarray]:
    """Recursive hybrid dynamics in ``O(NB)`` (Sueda §2.12, Alg. 9).

    Joint ``j`` is prescribed if ``prescribed[j - 1]`` (its ``q̈_j`` read from ``qdd_known``,
    ``τ_j`` computed) and force-driven otherwise (``τ_j`` read from ``tau_known``).  Equals
    :func:`spatial.hybrid_dynamics`; all force-driven it is :func:`spatial.aba`, all
    prescribed :func:`spatial.rnea`.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qd : array_like, shape (..., nv)
    qdd_known, tau_known : array_like, shape (..., nv), or None
        None allowed when no joint needs it.
    prescribed : array_like of bool, shape (NB,)
    f_ext : array_like, shape (..., NB + 1, 6), optional
        External forces in base coordinates (row 0 zero).

    Returns
    -------
    qdd, tau : ndarray, shape (..., nv)

    Raises
    ------
    ValueError
        For a mask that is not boolean of shape (NB,), a needed ``qdd_known``/``tau_known``
        that is None, or invalid state arrays; for a model with loop joints (as
        :func:`spatial.aba`).

    Examples
    --------
    >>> import numpy as np, spatial as sp
    >>> from spatial.builders import simple_pendulum
    >>> qdd, tau = sp.reduced.recursive_hybrid_dynamics(
    ...     simple_pendulum(length=2.0), [np.pi / 2], [0.0], None, [0.0], [False])
    >>> bool(np.isclose(qdd[0], -9.81 / 2))
    True
    """
    fd = _force_driven(model, prescribed)
    if qdd_known is None and not all(fd[1:]):
        raise ValueError("qdd_known is None but some joints are prescribed")
    if tau_known is None and any(fd[1:]):
        raise ValueError("tau_known is None but some joints are force-driven")
    qdd_known = np.zeros(model.nv) if qdd_known is None else qdd_known
    tau_known = np.zeros(model.nv) if tau_known is None else tau_known
    q, qd, qdd_known, tau_known = model.check_state(
        q, qd, qdd_known, tau_known, tree_dynamics="recursive_hybrid_dynamics"
    )
    f_ext = _check_f_ext(model, f_ext)
    batch = _batch_shape(
        q=(q, 1), qd=(qd, 1), qdd_known=(qdd_known, 1), tau_known=(tau_known, 1), f_ext=(f_ext, 2)
    )
    return _rhd(model, q, qd, qdd_known, tau_known, fd, f_ext, batch)


def delassus_matrix(model: Model, q, A) -> np.ndarray:
    """The Delassus matrix ``A M_r⁻¹ Aᵀ`` built column by column (Sueda eq. 2.123).

    Each column costs one ``O(NB)`` inverse-inertia product (Alg. 10), so the matrix costs
    ``O(k NB)`` plus ``O(k² nv)`` for the final products, without forming ``M_r``.

    Parameters
    ----------
    model : Model
    q : array_like, shape (nq,)
    A : array_like, shape (k, nv)
        Constraint rows in reduced coordinates (e.g. ``constraint_rows(...).G``).

    Returns
    -------
    ndarray, shape (k, k)

    Raises
    ------
    ValueError
        If ``q`` or ``A`` is invalid, or ``M_r`` is singular; if the model has loop joints
        (as :func:`~spatial.reduced.redmax_mass_matrix`).
    """
    q, _, _, _ = model.check_state(q, tree_dynamics="delassus_matrix")
    A = as_array(A, "A", (model.nv,))
    if A.ndim != 2 or q.ndim != 1:
        raise ValueError(f"A must be a matrix (k, nv) and q one configuration; got {A.shape}")
    return _delassus(_factor(model, _forward_pass(model, q), (), None, None), A)


def dual_forward_dynamics(
    model: Model,
    q,
    qd,
    tau=None,
    constraints=(),
    *,
    inequalities=(),
    f_ext=None,
    method: str = "lemke",
    solver_options: dict | None = None,
) -> KKTSolution:
    """Constrained accelerations through the dual problem (Sueda eqs. 2.121–2.127).

    ``q̈*`` by Alg. 9; the Delassus matrix ``Ā M_r⁻¹ Āᵀ`` column by column; the multipliers
    ``w`` from the dual (equalities eliminated by their Schur complement, the inequalities an
    LCP solved with the package's solvers); then Alg. 9 again with ``τ + Āᵀ w`` (eq. 2.124).
    Equal to :func:`~spatial.reduced.constrained_forward_dynamics` without stabilization.

    Parameters
    ----------
    model, q, qd, tau, constraints, inequalities, f_ext, method, solver_options
        As :func:`~spatial.reduced.constrained_forward_dynamics`.

    Returns
    -------
    KKTSolution
        With ``M_r q̈ = f_r - Ḡᵀ λ + C̄ᵀ μ`` as there (``λ = -w_g``, ``μ = w_c ≥ 0``).

    Raises
    ------
    ValueError, TypeError
        For invalid input or redundant bilateral rows; for a model with loop joints, as
        :func:`~spatial.reduced.constrained_forward_dynamics`.
    spatial.solvers.LCPError
        If the LCP solver does not converge.
    """
    qp._check_method(method, False)
    q, qd, tau, f_ext = _check_state(model, q, qd, tau, f_ext, "dual_forward_dynamics")
    bi = _check_items(model, constraints, (PointConstraint, JointConstraint), "constraints")
    uni = _check_items(model, inequalities, (PointContact, JointLimit), "inequalities")
    fd = [False] + [True] * model.NB
    qdd_star, _ = _rhd(model, q, qd, None, tau, fd, f_ext, ())
    fp = _forward_pass(model, q, qd)
    G, C = _stack(model, fp, q, qd, bi), _stack(model, fp, q, qd, uni)
    _require_independent(G.G)
    A = np.vstack([C.G, G.G])
    s = np.concatenate([C.Gdot_qd, G.Gdot_qd]) + A @ qdd_star  # Ā̇ q̇ + Ā q̈*
    W = _delassus(_factor(model, fp, (), None, None), A)
    nc = C.G.shape[0]
    Wcc, Wcg, Wgg = W[:nc, :nc], W[:nc, nc:], W[nc:, nc:]
    s_c, s_g = s[:nc], s[nc:]
    w_c = np.zeros(nc)
    if nc:  # w_g = -Wgg⁻¹ (s_g + Wgc w_c) leaves an LCP in w_c
        K = np.linalg.solve(Wgg, np.hstack([Wcg.T, s_g[:, None]])) if len(s_g) else None
        M_c = Wcc - (Wcg @ K[:, :-1] if K is not None else 0.0)
        q_c = s_c - (Wcg @ K[:, -1] if K is not None else 0.0)
        opts = qp._lcp_options(method, nc, dict(solver_options or {}))
        res = qp._lcp_kernel(method, M_c, q_c, **opts)
        res.check()
        w_c = res.z
    w_g = -np.linalg.solve(Wgg, s_g + Wcg.T @ w_c) if len(s_g) else np.zeros(0)
    w = np.concatenate([w_c, w_g])
    qdd, _ = _rhd(model, q, qd, None, tau + A.T @ w, fd, f_ext, ())  # eq. 2.124
    return KKTSolution(qdd, -w_g, w_c, tau)
