"""Constrained REDMAX: KKT systems, hybrid dynamics and inequality QPs (Sueda §2.8–2.9,
eqs. 2.98–2.107).

With the rows of :mod:`.constraints` — ``Ḡ_r`` and ``Ḡ̇_r q̇`` (bilateral, eq. 2.102), ``C̄_r``
and ``C̄̇_r q̇`` (unilateral, eq. 2.104) — the acceleration-level KKT system is

    [[M_r, Ḡ_rᵀ], [Ḡ_r, 0]] [q̈; λ] = [f_r; -Ḡ̇_r q̇]              (eqs. 2.98, 2.100, 2.103),

so ``M_r q̈ = f_r - Ḡ_rᵀ λ``: the constraint force is ``-Ḡ_rᵀ λ``.  It is solved densely here; a
set of rows that is not independent (the three-direction hinge of the four-bar) makes the
matrix singular and is reported with its rank.

Stabilization.  Integrating ``q̈`` lets the position error ``C`` drift.  Baumgarte's terms
(Sueda §1.10, as Featherstone eq. 8.26) ask instead for ``C̈ + 2α Ċ + β² C = 0``, i.e. the
constraint row's right-hand side ``-Ḡ̇ q̇ - 2α Ḡ q̇ - β² C``.  At the velocity level (eqs. 2.99,
2.101) the step solves for ``q̇⁺`` with ``Ḡ q̇⁺ = -γ C / h``.

Hybrid dynamics (§2.9, eqs. 2.106–2.107).  Prescribing the accelerations of some joints adds
the rows ``ᵖG_r q̈ = ᵖq̈`` (``ᵖG_r`` selects their velocity variables).  With the sign of
eq. 2.106, ``M_r q̈ = f_r - ᵖG_rᵀ ᵖλ``, so the joint force that realizes the motion is
``ᵖτ = -ᵖλ`` (the text's ``ᵖτ = ᵖG_rᵀ ᵖλ`` has the wrong sign for its own KKT matrix).

Inequalities (eq. 2.105).  Joint limits and contacts become ``C̄ q̈ ≥ -C̄̇ q̇`` in a QP,
solved here through the package's mixed-LCP solvers (:func:`spatial.solvers.solve_qp`); a
solver that does not converge raises :class:`spatial.solvers.LCPError`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._validate import as_array, positive_scalar
from ..model import Model
from ..solvers import qp as _solvers_qp
from .constraints import (
    ConstraintRows,
    JointConstraint,
    JointLimit,
    PointConstraint,
    PointContact,
    _check_items,
    _check_state,
    _stack,
)
from .jacobian import _jacobian
from .redmax import _force, _mass_matrix, _redmax_pass

__all__ = ["KKTSolution", "constrained_forward_dynamics", "constrained_step"]


class KKTSolution(NamedTuple):
    """Result of a constrained REDMAX solve.

    ``qdd`` (nv,) accelerations (or ``q̇⁺`` for a step), ``lam`` the bilateral multipliers
    (constraint rows first, prescribed rows last) with ``M_r q̈ = f_r - Ḡᵀ λ + C̄ᵀ μ``, ``mu`` the
    unilateral multipliers (``≥ 0``), and ``tau`` all joint forces (given ones copied, those of
    prescribed joints computed).
    """

    qdd: np.ndarray
    lam: np.ndarray
    mu: np.ndarray
    tau: np.ndarray


# ----------------------------------------------------------------------------- kernels


def _prescribed_rows(model, prescribed, qdd_prescribed):
    """``ᵖG_r`` (p, nv) and ``ᵖq̈`` (p,) from a joint mask (eq. 2.106)."""
    if prescribed is None:
        return np.zeros((0, model.nv)), np.zeros(0), np.zeros(0, int)
    mask = np.asarray(prescribed)
    if mask.dtype != bool or mask.shape != (model.NB,):
        raise ValueError(f"prescribed must be a boolean array of shape (NB,) = ({model.NB},)")
    idx = np.concatenate(
        [np.arange(model.nv)[model.v_index[i]] for i in range(1, model.NB + 1) if mask[i - 1]]
        + [np.zeros(0, int)]
    )
    if qdd_prescribed is None:
        raise ValueError("prescribed joints need qdd_prescribed (their accelerations)")
    qdd_p = as_array(qdd_prescribed, "qdd_prescribed", (model.nv,))
    return np.eye(model.nv)[idx], qdd_p[idx], idx


def _gains(stabilization):
    if stabilization is None:
        return 0.0, 0.0
    try:
        alpha, beta = (float(s) for s in stabilization)
    except (TypeError, ValueError):
        raise ValueError(
            f"stabilization must be a pair (alpha, beta), got {stabilization!r}"
        ) from None
    if alpha < 0 or not np.isfinite(alpha) or not np.isfinite(beta):
        raise ValueError("stabilization alpha must be finite and ≥ 0, beta finite")
    return alpha, beta


def _require_independent(G: np.ndarray) -> None:
    """Dependent bilateral rows make the KKT matrix singular (the rank argument of §2.8)."""
    if G.shape[0] == 0:
        return
    s = np.linalg.svd(G, compute_uv=False)
    rank = int(np.sum(s > 1e-10 * max(1.0, s[0])))
    if rank < G.shape[0]:
        raise ValueError(
            f"the {G.shape[0]} bilateral constraint rows have rank {rank}: they are redundant or "
            "inconsistent, so the KKT matrix is singular (a planar hinge closes a loop with two "
            "directions perpendicular to its axis, eq. 2.94, not three)"
        )


def _solve(M, f, G, g, C, c, method, options):
    """``min ½ xᵀMx - xᵀf`` s.t. ``G x = g``, ``C x ≥ c`` (eqs. 2.98–2.107, 2.105).

    Returns ``x``, ``λ`` (``M x = f - Gᵀλ + Cᵀμ``) and ``μ ≥ 0``.
    """
    _require_independent(G)
    if C.shape[0] == 0:
        n, k = M.shape[0], G.shape[0]
        K = np.block([[M, G.T], [G, np.zeros((k, k))]])
        sol = np.linalg.solve(K, np.concatenate([f, g]))
        return sol[:n], sol[n:], np.zeros(0)
    # the mixed LCP M x - Gᵀλ' - Cᵀμ = f (ArtiSynth §0.7) has λ' = -λ
    res = _solvers_qp._solve_mixed_lcp(M, G, C, f, g, c, method, False, dict(options or {}))
    res.check()
    return res.x, -res.lam, res.z


class _Problem(NamedTuple):
    """A validated constrained problem at one state: ``M_r``, ``f_r`` and the stacked rows."""

    q: np.ndarray
    qd: np.ndarray
    tau: np.ndarray
    M: np.ndarray
    f: np.ndarray
    bi: ConstraintRows  # bilateral rows (eq. 2.102)
    uni: ConstraintRows  # unilateral rows (eq. 2.104)
    Gp: np.ndarray  # prescribed rows ᵖG_r (eq. 2.106)
    qdd_p: np.ndarray
    idx: np.ndarray  # the prescribed velocity variables


def _setup(model, q, qd, tau, f_ext, constraints, inequalities, prescribed, qdd_prescribed):
    """Validate everything once and assemble the dense REDMAX terms (eq. 2.18) and the rows."""
    q, qd, tau, f_ext = _check_state(model, q, qd, tau, f_ext)
    bi = _check_items(model, constraints, (PointConstraint, JointConstraint), "constraints")
    uni = _check_items(model, inequalities, (PointContact, JointLimit), "inequalities")
    Gp, qdd_p, idx = _prescribed_rows(model, prescribed, qdd_prescribed)
    tau = tau.copy()
    tau[idx] = 0.0  # the prescribed joints' forces are unknowns
    fp = _redmax_pass(model, q, qd)
    J = _jacobian(model, fp)
    M = _mass_matrix(model, J)
    f = _force(model, fp, J, q, qd, tau, f_ext)
    bi_rows, uni_rows = _stack(model, fp, q, qd, bi), _stack(model, fp, q, qd, uni)
    return _Problem(q, qd, tau, M, f, bi_rows, uni_rows, Gp, qdd_p, idx)


# ----------------------------------------------------------------------------- public API


def constrained_forward_dynamics(
    model: Model,
    q,
    qd,
    tau=None,
    constraints=(),
    *,
    inequalities=(),
    prescribed=None,
    qdd_prescribed=None,
    f_ext=None,
    stabilization=None,
    method: str = "lemke",
    solver_options: dict | None = None,
) -> KKTSolution:
    """Constrained REDMAX accelerations: KKT (eqs. 2.98, 2.100, 2.103, 2.106) or QP (eq. 2.105).

    Solves ``M_r q̈ + Ḡᵀλ - C̄ᵀμ = f_r`` with ``Ḡ q̈ = -Ḡ̇ q̇ - 2α Ḡ q̇ - β² C`` for the bilateral
    rows, ``ᵖq̈`` for the prescribed ones, and ``C̄ q̈ ≥ -C̄̇ q̇`` with ``μ ≥ 0`` complementary for
    the unilateral ones (active contacts and limits: the caller passes those in contact).

    Parameters
    ----------
    model : Model
    q : array_like, shape (nq,)
    qd : array_like, shape (nv,)
    tau : array_like, shape (nv,), optional
        Joint forces (entries of prescribed joints are ignored).
    constraints : sequence of PointConstraint, JointConstraint
    inequalities : sequence of PointContact, JointLimit
    prescribed : array_like of bool, shape (NB,), optional
        Joints whose acceleration is prescribed (hybrid dynamics, §2.9).
    qdd_prescribed : array_like, shape (nv,), optional
        Their accelerations (other entries ignored).
    f_ext : array_like, shape (NB + 1, 6), optional
        External forces in base coordinates (row 0 zero).
    stabilization : (alpha, beta), optional
        Baumgarte gains for the bilateral constraints.
    method : str
        LCP method of :func:`spatial.solvers.solve_qp` when there are inequalities.
    solver_options : dict, optional
        Passed to that solver (``tol``, ``max_iter``, ...).

    Returns
    -------
    KKTSolution
        ``tau`` holds the given forces and ``ᵖτ = -ᵖλ`` at the prescribed joints.

    Raises
    ------
    ValueError, TypeError
        For an invalid state, constraint or mask; for redundant or inconsistent bilateral rows;
        if the model has loop joints (:meth:`~spatial.Model.check_tree`): REDMAX closes a loop
        with the rows given in ``constraints``, so pass ``model.spanning_tree()`` with them.
    spatial.solvers.LCPError
        If the QP solver does not converge.
    """
    model.check_tree("constrained_forward_dynamics")
    alpha, beta = _gains(stabilization)
    _solvers_qp._check_method(method, False)
    pr = _setup(model, q, qd, tau, f_ext, constraints, inequalities, prescribed, qdd_prescribed)
    q, qd, tau, M, f, bi, uni, Gp, qdd_p, idx = pr
    g = -bi.Gdot_qd - 2.0 * alpha * (bi.G @ qd) - beta**2 * bi.error
    G = np.vstack([bi.G, Gp])
    qdd, lam, mu = _solve(
        M, f, G, np.concatenate([g, qdd_p]), uni.G, -uni.Gdot_qd, method, solver_options
    )
    tau[idx] = -lam[len(bi.G) :]
    return KKTSolution(qdd, lam, mu, tau)


def constrained_step(
    model: Model,
    q,
    qd,
    h,
    tau=None,
    constraints=(),
    *,
    inequalities=(),
    prescribed=None,
    qdd_prescribed=None,
    f_ext=None,
    stabilization: float = 0.0,
    method: str = "lemke",
    solver_options: dict | None = None,
) -> tuple[np.ndarray, KKTSolution]:
    """One velocity-level constrained REDMAX step (Sueda eqs. 2.99, 2.101, 2.107, 2.120).

    Minimizes ``½ q̇⁺ᵀ M_r q̇⁺ - q̇⁺ᵀ (M_r q̇ + h f_r)`` subject to ``Ḡ q̇⁺ = -γ C / h`` (bilateral),
    ``ᵖG q̇⁺ = ᵖq̇ + h ᵖq̈`` (prescribed, eq. 2.107) and ``C̄ q̇⁺ ≥ -max(gap, 0)/h - γ min(gap, 0)/h``
    (unilateral: a separated contact may close its gap within the step, a penetrating one is
    pushed out at the rate ``γ/h``), then moves ``q⁺ = integrate(q, q̇⁺, h)``.

    Parameters
    ----------
    model, q, qd, tau, constraints, inequalities, prescribed, qdd_prescribed, f_ext
        As :func:`constrained_forward_dynamics`.
    method, solver_options
        As :func:`constrained_forward_dynamics`.
    h : float
        Time step, > 0.
    stabilization : float
        ``γ ∈ [0, 1]``, the fraction of the position error removed per step.

    Returns
    -------
    q_next : ndarray, shape (nq,)
    solution : KKTSolution
        ``qdd`` holds ``q̇⁺``; multipliers are impulses; ``tau`` as in
        :func:`constrained_forward_dynamics` (forces, impulse / h).

    Raises
    ------
    ValueError, TypeError, spatial.solvers.LCPError
        As :func:`constrained_forward_dynamics`; also for ``h ≤ 0`` or ``γ`` outside [0, 1].
    """
    model.check_tree("constrained_step")
    h = positive_scalar(h, "h")
    _solvers_qp._check_method(method, False)
    gamma = float(stabilization)
    if not 0.0 <= gamma <= 1.0:
        raise ValueError(f"stabilization γ must be in [0, 1], got {stabilization!r}")
    pr = _setup(model, q, qd, tau, f_ext, constraints, inequalities, prescribed, qdd_prescribed)
    q, qd, tau, M, f, bi, uni, Gp, qdd_p, idx = pr
    gap = uni.error
    c = -np.maximum(gap, 0.0) / h - gamma * np.minimum(gap, 0.0) / h
    G = np.vstack([bi.G, Gp])
    g = np.concatenate([-gamma * bi.error / h, qd[idx] + h * qdd_p])
    v, lam, mu = _solve(M, M @ qd + h * f, G, g, uni.G, c, method, solver_options)
    tau[idx] = -lam[len(bi.G) :] / h
    q_next = model._per_joint("integrate", q, v, h)
    return q_next, KKTSolution(v, lam, mu, tau)
