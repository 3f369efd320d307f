"""Forward dynamics of a closed-loop system in the implicit form (§8.3–8.5).

The spanning tree obeys ``H q̈ + C = τ + τᵃ + τ^c``, where ``τ^c = Kᵀ λ`` is what the loop
joints do to it (eqs. 8.29–8.34) and the accelerations must satisfy ``K q̈ = k`` (eq. 8.35).
Together they form the symmetric indefinite system of eq. 8.36,

    [[H, Kᵀ], [K, 0]] [q̈; -λ] = [τ' ; k],      τ' = τ - C + τᵃ,

which :func:`loop_forward_dynamics` solves by one of the routes of §8.5:

1. ``"schur"`` — factor ``H = LᵀL`` with branch-induced sparsity (Table 6.3), form
   ``Y = L⁻ᵀKᵀ`` and ``z = L⁻ᵀτ'``, solve ``YᵀY λ = k - Yᵀz`` (eqs. 8.37–8.41) and then
   ``H q̈ = τ' + Kᵀλ``;
2. ``"direct"`` — the whole matrix of eq. 8.36 at once;
3. ``"reduced"`` — ``q̈ = G ÿ + g`` from §8.8 (:func:`G_and_g`) and the projected, positive
   definite ``GᵀHG ÿ = Gᵀ(τ' - H g)`` (eq. 8.45); ``λ`` follows from ``Kᵀλ = H q̈ - τ'``;
4. ``"clusters"`` — the reduced route with ``G`` and ``g`` computed block by block over the
   minimal loop clusters (§8.9, :func:`G_and_g_by_cluster`).

``q̈`` is unique even where ``K`` is rank deficient (overconstrained loops, §8.10); ``λ`` is then
the minimum-norm choice (eq. 8.41).  Baumgarte stabilization (§8.3) only changes ``k``: it adds
``k_stab = -2α K q̇ - β² δ`` so that the loop errors obey a damped spring equation
(:func:`loop_constraints`).

Two things can make the answer meaningless, and both are said out loud:

* the state itself violates the constraints (``δ ≠ 0`` or ``K q̇ ≠ 0``) — a
  :class:`LoopConstraintWarning` names the loop joint and the size of the violation;
* ``k`` lies outside the range of a rank-deficient ``K`` (a configuration singularity), so no
  ``q̈`` meets the constraints — a ``RuntimeWarning`` says the result is a least-squares
  compromise.

:func:`loop_joint_forces` turns ``λ`` into the spatial forces the loop joints transmit (§8.4).
"""

from __future__ import annotations

import warnings

import numpy as np

from ..._batched import T as _T
from ..._batched import mv as _mv
from ..._validate import as_array
from ...model import Model
from ..crba import crba
from ..rnea import bias_force
from ..sparse import ltl, ltl_solve, solve_Lt
from .analysis import _explicit_form_by_cluster
from .constraints import (
    _CONSISTENCY_TOL,
    POSITION_TOL,
    VELOCITY_TOL,
    _constraints,
    _external_forces,
    _gains,
    _loop_frames,
    _loop_rows,
    _n_constraints,
    _tolerances,
    _tree_state,
    _warn_if_violated,
)
from .explicit import (
    _check_independent,
    _explicit_form,
    _independent_accelerations,
    _independent_variables,
)

__all__ = ["METHODS", "loop_forward_dynamics", "loop_joint_forces"]

METHODS = ("schur", "direct", "reduced", "clusters")


# ----------------------------------------------------------------------------- §8.5


def _pinv_solve(A: np.ndarray, b: np.ndarray, rtol: float, hermitian: bool = False) -> np.ndarray:
    """Minimum-norm least-squares solution of ``A x = b`` over a batch."""
    return _mv(np.linalg.pinv(A, rtol, hermitian=hermitian), b)


def _schur(model: Model, H, tau_p, K, k, rtol):
    """Method 2 of §8.5: ``K H⁻¹ Kᵀ λ = k - K H⁻¹ τ'`` through ``H = LᵀL`` (eqs. 8.37–8.41)."""
    parents = model.expanded_parent()
    L = ltl(H, parents)
    Yt = solve_Lt(L[..., None, :, :], parents, K)  # rows of Yᵀ = (L⁻ᵀ Kᵀ)ᵀ
    z = solve_Lt(L, parents, tau_p)
    lam = _pinv_solve(Yt @ _T(Yt), k - _mv(Yt, z), rtol, hermitian=True)
    return ltl_solve(L, parents, tau_p + _mv(_T(K), lam)), lam


def _direct(model: Model, H, tau_p, K, k, batch, rtol):
    """Method 1 of §8.5: the symmetric indefinite matrix of eq. 8.36 in one solve."""
    n, nc = model.nv, K.shape[-2]
    M = np.zeros(batch + (n + nc, n + nc))
    M[..., :n, :n] = H
    M[..., :n, n:] = _T(K)
    M[..., n:, :n] = K
    rhs = np.concatenate(
        [np.broadcast_to(tau_p, batch + (n,)), np.broadcast_to(k, batch + (nc,))], -1
    )
    x = _pinv_solve(M, rhs, rtol, hermitian=True)
    return x[..., :n], -x[..., n:]


def _projected(H, tau_p, K, G, g, rtol):
    """Method 3 of §8.5: ``GᵀHG ÿ = Gᵀ(τ' - H g)`` (eq. 8.45); ``q̈ = G ÿ + g``, ``Kᵀλ = H q̈ - τ'``.

    ``λ`` is the minimum-norm solution (eq. 8.41).
    """
    qdd = _mv(G, _independent_accelerations(H, G, g, tau_p)) + g
    return qdd, _pinv_solve(_T(K), _mv(H, qdd) - tau_p, rtol)


def _forward_dynamics(
    model: Model, q, qd, tau, tau_loop, f_ext, gains, method, independent, rtol, tolerances
):
    """Eq. 8.36 on validated arrays; ``tolerances = (position_tol, velocity_tol)`` or None.

    With ``tolerances`` the state is checked first (:class:`LoopConstraintWarning`); the
    simulators pass None and check their trajectory once instead.
    """
    tree = model.spanning_tree()  # H and C of the spanning tree (§8.1)
    H = crba(tree, q)
    tau_p = tau - bias_force(tree, q, qd, _external_forces(model, q, tau_loop, f_ext))  # τ'
    K, k, delta = _constraints(model, q, qd, gains)
    batch = np.broadcast_shapes(H.shape[:-2], tau_p.shape[:-1], K.shape[:-2])
    if K.shape[-2] == 0:  # no loops: the tree's forward dynamics
        parents = model.expanded_parent()
        return ltl_solve(ltl(H, parents), parents, tau_p), np.zeros(batch + (0,))
    if tolerances is not None:
        _warn_if_violated(model, delta, _mv(K, qd), *tolerances, "loop_forward_dynamics", 3)
    if method == "schur":
        qdd, lam = _schur(model, H, tau_p, K, k, rtol)
    elif method == "direct":
        qdd, lam = _direct(model, H, tau_p, K, k, batch, rtol)
    elif method == "reduced":
        independent = _independent_variables(K, independent, rtol, "loop_forward_dynamics")
        G, g = _explicit_form(K, k, independent, rtol, "loop_forward_dynamics")
        qdd, lam = _projected(H, tau_p, K, G, g, rtol)
    else:
        if independent is not None:
            independent = _check_independent(independent, model.nv)
        G, g, _ = _explicit_form_by_cluster(model, K, k, independent, rtol, "loop_forward_dynamics")
        qdd, lam = _projected(H, tau_p, K, G, g, rtol)
    _warn_if_inconsistent(model, q, qd, K, k, _mv(K, qdd) - k, gains is not None, rtol)
    return qdd, lam


def loop_forward_dynamics(
    model: Model,
    q,
    qd,
    tau=None,
    tau_loop=None,
    f_ext=None,
    stabilization=None,
    method: str = "schur",
    independent=None,
    rtol: float = 1e-10,
    position_tol: float = POSITION_TOL,
    velocity_tol: float = VELOCITY_TOL,
    check: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """Forward dynamics of a closed-loop system: ``q̈`` and the loop force variables ``λ``.

    Solves eq. 8.36, ``[[H, Kᵀ], [K, 0]] [q̈; -λ] = [τ - C + τᵃ; k + k_stab]``, i.e. the tree's
    equation of motion with the loop constraint forces ``τ^c = Kᵀ λ`` (eq. 8.34) and the
    acceleration constraint (eq. 8.35), by one of the methods of §8.5:

    * ``"schur"`` (method 2, the default): factor ``H = LᵀL`` exploiting branch-induced
      sparsity (Table 6.3), ``Y = L⁻ᵀKᵀ``, ``z = L⁻ᵀτ'``, ``A = YᵀY = K H⁻¹ Kᵀ``,
      ``b = k - Yᵀz`` (eqs. 8.37–8.39), ``λ = A⁺ b`` (eq. 8.41 with ``z = 0``), then
      ``H q̈ = τ' + Kᵀ λ``;
    * ``"direct"`` (method 1): the symmetric indefinite matrix of eq. 8.36 solved at once;
    * ``"reduced"`` (method 3): ``q̈ = G ÿ + g`` from :func:`G_and_g` and
      ``GᵀHG ÿ = Gᵀ(τ' - H g)`` (eq. 8.45); ``λ`` then follows from ``Kᵀλ = H q̈ - τ'``;
    * ``"clusters"``: method 3 with ``G`` and ``g`` found block by block over the minimal loop
      clusters (§8.9, :func:`G_and_g_by_cluster`).

    ``q̈`` is unique even when ``K`` is rank deficient (planar loops closed by revolute joints
    are overconstrained, §8.10); ``λ`` is then the minimum-norm choice among the force variables
    that produce the same motion (eq. 8.41), and a slightly inconsistent ``k + k_stab`` is met
    in the least-squares sense (a ``k`` that no ``q̈`` can meet is warned about, below).

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
        Should close every loop (loop position errors ``|δ| ≤ position_tol``).
    qd : array_like, shape (..., nv)
        Should respect the loops (``|K q̇| ≤ velocity_tol``).
    tau : array_like, shape (..., nv), optional
        Tree-joint forces; zero by default.
    tau_loop : array_like, shape (..., Σ_k n_k), optional
        Active loop-joint forces (:func:`loop_bias_force`).
    f_ext : array_like, shape (..., NB + 1, 6), optional
        External forces in base coordinates.
    stabilization : (alpha, beta), optional
        Baumgarte gains (:func:`loop_constraints`).
    method : {"schur", "direct", "reduced", "clusters"}
    independent : sequence of int, optional
        For ``method="reduced"`` or ``"clusters"``: the independent velocity variables (see
        :func:`G_and_g`).
    rtol : float
        Relative cut-off on singular values for the pseudo-inverses (rank decisions).
    position_tol : float
        Largest loop position error ``|δ|`` (m or rad, Table 8.1) accepted without a warning.
        The default, 1e-2, lets a stabilized simulation or a short unstabilized one pass and
        catches a loop left open.
    velocity_tol : float
        Largest ``|K q̇|`` (m/s or rad/s) accepted without a warning; default 0.1.
    check : bool
        Check the state against the two tolerances.  A simulation switches this off and checks
        its whole trajectory once instead (:func:`check_loop_trajectory`).

    Returns
    -------
    qdd : ndarray, shape (..., nv)
    lam : ndarray, shape (..., n^c)
        Constraint force variables ``λ``; the loop joint forces are :func:`loop_joint_forces`.

    Raises
    ------
    ValueError
        If an input is invalid, ``method`` is unknown, a tolerance is not a positive number,
        or (``"reduced"``, ``"clusters"``) the independent variables are not valid at this
        configuration.

    Warns
    -----
    LoopConstraintWarning
        If ``q`` leaves a loop open by more than ``position_tol`` or ``q̇`` violates
        ``K q̇ = 0`` by more than ``velocity_tol``; the message names the worst loop joint and
        the size of the violation.  The solution is still returned: it is the motion of the
        tree under the loop forces, which Baumgarte stabilization uses to pull the loops shut.
    RuntimeWarning
        If ``K q̈ = k`` (without the Baumgarte term) has no solution, so that the returned
        ``q̈`` violates the loop constraints: a configuration singularity where ``rank K``
        drops (§8.10).
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    q, qd, _, tau = model.check_state(q, qd, None, np.zeros(model.nv) if tau is None else tau)
    gains = _gains(stabilization)
    tolerances = _tolerances(position_tol, velocity_tol) if check else None
    return _forward_dynamics(
        model, q, qd, tau, tau_loop, f_ext, gains, method, independent, rtol, tolerances
    )


def _warn_if_inconsistent(model: Model, q, qd, K, k, residual, stabilized, rtol) -> None:
    """``RuntimeWarning`` where ``k`` of eq. 8.17 lies outside the range of ``K``.

    Then no ``q̈`` meets ``K q̈ = k`` and the solvers return the least-squares compromise
    (``residual = K q̈ - k``).  It happens at a configuration singularity (§8.10), where
    ``rank K`` drops and a velocity allowed to first order is not allowed to second order, or
    when ``q̇`` violates the loop constraints.  The Baumgarte term is not checked (``k`` is
    recomputed without it): its part ``β² δ`` may legitimately lie outside the range of a
    redundant ``K``.
    """
    scale = np.maximum(
        np.abs(k).max(-1), np.abs(K).max((-2, -1)) * np.abs(qd).max(-1, initial=0.0) ** 2
    )
    if np.all(np.abs(residual).max(-1) <= _CONSISTENCY_TOL * scale):
        return
    if stabilized:
        k = _constraints(model, q, qd, None)[1]
        scale = np.maximum(scale, np.abs(k).max(-1))
    outside = k - _mv(K @ np.linalg.pinv(K, rtol), k)  # (1 - K K⁺) k
    bad = np.abs(outside).max(-1) > _CONSISTENCY_TOL * scale
    if np.any(bad):
        warnings.warn(
            f"loop_forward_dynamics: K q̈ = k has no solution at {int(np.sum(bad))} of "
            f"{bad.size} states (largest violation {np.abs(outside).max():.3g}): k is outside "
            "the range of a rank-deficient K, so the returned q̈ is a least-squares compromise "
            "that violates the loop constraints. The mechanism is at a configuration "
            "singularity (Featherstone §8.10), or q̇ violates the loop constraints (K q̇ ≠ 0)",
            RuntimeWarning,
            stacklevel=4,
        )


# ----------------------------------------------------------------------------- §8.4


def loop_joint_forces(model: Model, q, lam) -> np.ndarray:
    """Spatial forces transmitted by the loop joints, from the force variables ``λ`` (§8.4).

    Loop joint ``k`` exerts ``f_k = T_k λ_k`` (eq. 8.30) on its successor body ``s(k)`` and
    ``-f_k`` on its predecessor ``p(k)``; their joint-space effect on the tree is
    ``τ^c = Σ_l J_Llᵀ f_k = Kᵀ λ`` (eqs. 8.29–8.32).  Returned in base coordinates, so they can
    be passed to ``rnea`` as external forces on ``s(k)`` and ``p(k)``.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    lam : array_like, shape (..., n^c)
        From :func:`loop_forward_dynamics`.

    Returns
    -------
    ndarray, shape (..., NL, 6)
        Row ``l``: ``f_k`` (on ``s(k)``) in base coordinates.

    Raises
    ------
    ValueError
        If ``q`` or ``lam`` has the wrong shape or is invalid.
    """
    q, _, _, _ = model.check_state(q)
    lam = as_array(lam, "lam", (_n_constraints(model),))
    X0 = _tree_state(model, q).X0
    batch = np.broadcast_shapes(q.shape[:-1], lam.shape[:-1])
    f = np.zeros(batch + (model.NL, 6))
    for l, rows in enumerate(_loop_rows(model)):
        joint = model.loop_joints[l].joint
        _, Xs = _loop_frames(model, X0, l)
        f[..., l, :] = _mv(_T(Xs), _mv(joint.constraint_subspace(joint.neutral()), lam[..., rows]))
    return f
