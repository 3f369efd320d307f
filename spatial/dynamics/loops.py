"""Closed-loop systems: a spanning tree plus loop joints (Featherstone ch. 8).

A closed-loop mechanism is described as a kinematic tree (its *spanning tree*, with variables
``q``) plus *loop joints* that close the loops (:meth:`spatial.Model.add_loop_joint`).  Each
loop joint ``k`` constrains the relative motion of its successor body ``s(k)`` and predecessor
body ``p(k)``: ``Tᵀ (v_s - v_p) = 0`` with ``T`` the joint's constraint-force subspace
(eqs. 8.7–8.9).  Collected over all loops and differentiated, the constraints read
``K q̈ = k`` (eqs. 8.4, 8.17); the loop joints push on the tree with ``τ^c = Kᵀ λ`` (eq. 8.5).

This module implements the chapter:

* **implicit form** — :func:`loop_jcalc` (the loop position error ``δ`` and ``T``, Table 8.1),
  :func:`loop_position_errors`, :func:`loop_constraints` (``K`` and ``k`` with Baumgarte
  stabilization, §8.3, Table 8.4), :func:`loop_bias_force` (``C - τᵃ``, Tables 8.2–8.3),
  :func:`loop_forward_dynamics` (eq. 8.36 by the three methods of §8.5),
  :func:`loop_joint_forces` (§8.4), :func:`simulate_closed_loop`;
* **explicit form** — :func:`G_and_g` (§8.8), :class:`LoopClosure` and loop closure functions
  ``q = γ(y)`` (§8.11): :func:`newton_closure` for any mechanism and the closed forms
  :func:`four_bar_closure`, :func:`crank_slider_closure`, :func:`fig_8_3_closure`;
  :func:`reduced_forward_dynamics` (eq. 8.45), :func:`simulate_reduced`;
* **properties** — :func:`mobility` (§8.10), :func:`loop_clusters` (§8.9);
* **inverse dynamics** with actuator assignment — :func:`loop_inverse_dynamics` (§8.12);
* **sparse matrix method** — :func:`sparse_system`, :func:`sparse_matrix_method` (§8.13,
  eq. 8.64).

Conventions (``spatial.__doc__`` and the tree contract): ``q`` has shape ``(..., nq)``, ``qd``,
``qdd``, ``tau`` ``(..., nv)``; leading batch dimensions broadcast and go through the same code.
Loop ``l`` (0-based, the book's ``k = N_B + 1 + l``) owns ``n^c_l = 6 - n_k`` consecutive rows of
``K``, ``k``, ``δ`` and ``λ``.  Spatial quantities of the loops are in base coordinates, as in
Table 8.4.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import scipy.sparse
import scipy.sparse.linalg

from .._batched import T as _T
from .._batched import inv_motion, xinv  # unvalidated: the transforms are built here
from .._batched import mv as _mv
from .._validate import as_array, as_scalar_array, positive_scalars
from ..joints import Cylindrical, Fixed, Joint, Planar, Prismatic, Revolute, Spherical
from ..kinematics import _forward_pass
from ..model import LOOP_JOINT_TYPES, Model
from ..vectors import XtoV, _as_plucker, cross_force, cross_motion, skew, unskew
from .crba import crba
from .rnea import bias_force, rnea
from .sparse import ltl, ltl_solve, solve_Lt

__all__ = [
    "loop_jcalc",
    "loop_position_errors",
    "loop_constraints",
    "loop_bias_force",
    "loop_forward_dynamics",
    "loop_joint_forces",
    "simulate_closed_loop",
    "G_and_g",
    "LoopClosure",
    "newton_closure",
    "four_bar_closure",
    "crank_slider_closure",
    "fig_8_3_closure",
    "reduced_forward_dynamics",
    "simulate_reduced",
    "Mobility",
    "mobility",
    "loop_clusters",
    "loop_inverse_dynamics",
    "SparseSystem",
    "sparse_system",
    "sparse_matrix_method",
]

METHODS = ("schur", "direct", "reduced")
_CONSISTENCY_TOL = 1e-6  # relative residual above which a linear system is called inconsistent


# ----------------------------------------------------------------------------- small helpers


def _rank(M: np.ndarray, tol: float) -> np.ndarray:
    """Numerical rank of each matrix of a batch: singular values above ``tol`` times the largest."""
    s = np.linalg.svd(M, compute_uv=False)
    if s.shape[-1] == 0:
        return np.zeros(s.shape[:-1], dtype=int)
    return (s > tol * s[..., :1]).sum(-1)


def _uniform_rank(M: np.ndarray, tol: float, what: str) -> int:
    """The numerical rank of ``M``, which must be the same over the whole batch."""
    ranks = np.unique(_rank(M, tol))
    if ranks.size > 1:
        raise ValueError(
            f"the rank of {what} differs across the batch ({ranks.tolist()}): some states are at "
            "a configuration singularity (Featherstone §8.10); solve them separately"
        )
    return int(ranks[0]) if ranks.size else 0


def _loop_rows(model: Model) -> list[slice]:
    """Rows of ``K``, ``k``, ``δ`` and ``λ`` that belong to each loop."""
    rows, start = [], 0
    for lj in model.loop_joints:
        rows.append(slice(start, start + lj.nc))
        start += lj.nc
    return rows


def _n_constraints(model: Model) -> int:
    """``n^c = Σ_k n^c_k``, the number of loop constraints (eq. 8.1)."""
    return sum(lj.nc for lj in model.loop_joints)


def _active_subspace(S: np.ndarray) -> np.ndarray:
    """``T^a = S (SᵀS)⁻¹`` (6 x n): ``Sᵀ T^a = 1`` (eq. 3.35); ``T^a τ`` is the joint's force."""
    return S @ np.linalg.inv(_T(S) @ S)


def _check_independent(independent, n: int, name: str = "independent") -> tuple[int, ...]:
    """``independent`` as a tuple of distinct ints in ``0 … n-1``."""
    try:
        idx = tuple(int(i) for i in independent)
    except (TypeError, ValueError):
        raise ValueError(
            f"{name} must be a sequence of variable indices, got {independent!r}"
        ) from None
    if any(isinstance(i, bool) for i in independent) or len(set(idx)) != len(idx):
        raise ValueError(f"{name} must be distinct integer indices, got {independent!r}")
    if any(not 0 <= i < n for i in idx):
        raise ValueError(f"{name} must index the {n} velocity variables (0 … {n - 1}), got {idx}")
    return idx


# ----------------------------------------------------------------------------- Table 8.1


def _angle_about(E: np.ndarray, axis: np.ndarray) -> np.ndarray:
    """The joint angle ``θ`` whose coordinate rotation ``E(θ)`` about ``axis`` is nearest ``E``.

    Maximizing ``tr(E E(θ)ᵀ) = cos θ (tr E - aᵀEa) + sin θ tr(E a×) + aᵀEa`` gives
    ``θ = atan2(tr(E a×), tr E - aᵀEa)``; it is exact when ``E`` is such a rotation.
    """
    aEa = np.einsum("i,...ij,j->...", axis, E, axis)
    tr = np.trace(E, axis1=-2, axis2=-1)
    return np.arctan2(-np.einsum("...ij,ij->...", E, skew(axis)), tr - aEa)


def _joint_fit(joint: Joint, X: np.ndarray) -> np.ndarray:
    """``X_J``: the joint transform nearest to ``X``, so that ``X = X_err X_J`` (eq. 8.25)."""
    E = X[..., :3, :3]
    r = unskew(-_T(E) @ X[..., 3:, :3])  # X = rot(E) xlt(r): r = F_s's origin in F_p
    if isinstance(joint, Fixed):
        return np.broadcast_to(np.eye(6), X.shape)
    if isinstance(joint, Spherical):
        X_J = np.zeros(X.shape)
        X_J[..., :3, :3] = E
        X_J[..., 3:, 3:] = E
        return X_J
    if isinstance(joint, Prismatic):
        return joint.transform((r @ joint.axis)[..., None])
    axis = np.array([0.0, 0.0, 1.0]) if isinstance(joint, Planar) else joint.axis
    theta = _angle_about(E, axis)
    if isinstance(joint, Revolute):
        return joint.transform(theta[..., None])
    if isinstance(joint, Cylindrical):
        return joint.transform(np.stack([theta, r @ axis], -1))
    return joint.transform(np.stack([theta, r[..., 0], r[..., 1]], -1))  # Planar


def _loop_jcalc(joint: Joint, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`loop_jcalc` on validated input."""
    T = joint.constraint_subspace(joint.neutral())
    d = XtoV(X @ xinv(_joint_fit(joint, X)))
    return d @ T, T


def loop_jcalc(joint: Joint, X) -> tuple[np.ndarray, np.ndarray]:
    """Loop position error ``δ`` and constraint-force subspace ``T`` of a loop joint (Table 8.1).

    The book's ``[δ, T] = jcalc(jtype(k), ^sX_p)``.  ``X = ^sX_p`` is the transform from the
    joint's predecessor frame to its successor frame as the spanning tree places them; when the
    loop is closed it is a joint transform ``X_J``.  Otherwise it is factored as
    ``X = X_err X_J`` (eq. 8.25) with ``X_J`` the nearest transform the joint allows (the best
    joint angle about the axis, the projection of the offset on a sliding axis, …) and
    ``X_err ≈ 1 - d×`` (eq. 8.26); ``d = XtoV(X_err)`` is the small displacement from where
    ``F_s`` should be to where it is, in ``F_s`` coordinates, and ``δ = Tᵀ d`` (eq. 8.27) keeps
    its constrained components.  Where Table 8.1 writes one closed formula per joint type, the
    factorization here is done numerically for every type; to first order in the error both
    give the same ``δ``, and ``δ = 0`` exactly when the loop closes.

    Parameters
    ----------
    joint : Joint
        One of :data:`spatial.model.LOOP_JOINT_TYPES`.
    X : array_like, shape (..., 6, 6)
        ``^sX_p``, a Plücker transform.

    Returns
    -------
    delta : ndarray, shape (..., 6 - joint.nv)
        Position error in the constrained directions (radians and metres).
    T : ndarray, shape (6, 6 - joint.nv)
        Constraint-force subspace in ``F_s`` coordinates (``joint.constraint_subspace``), a
        constant for these joint types.

    Raises
    ------
    ValueError
        If ``joint`` is not a supported loop-joint type or ``X`` is not a Plücker transform.
    """
    if not isinstance(joint, LOOP_JOINT_TYPES):
        raise ValueError(f"loop_jcalc: {joint!r} is not a supported loop-joint type")
    return _loop_jcalc(joint, _as_plucker(X, "X"))


# ----------------------------------------------------------------------------- Table 8.4


@dataclass
class _LoopState:
    """What Table 8.4 gathers from the tree, in base coordinates (lists indexed by body)."""

    X0: list  # ^iX_0, (..., 6, 6)
    S0: list | None  # ^0X_i S_i, (..., 6, n_i); S0[0] is None
    v: list | None  # ^0v_i, (..., 6)
    avp: list | None  # velocity-product accelerations ^0a^vp_i (without gravity), (..., 6)


def _tree_state(model: Model, q, qd=None, jacobians: bool = False) -> _LoopState:
    """Transforms, world motion subspaces, velocities and velocity-product accelerations.

    One forward pass of :mod:`spatial.kinematics` (Example 4.4, eqs. 5.7–5.8 with ``q̈ = 0``)
    on validated arrays, carried to base coordinates.
    """
    fp = _forward_pass(model, q, qd, None if qd is None else np.zeros(model.nv))
    X0 = fp.X0
    S0 = None
    if jacobians:
        S0 = [None] + [xinv(X0[i]) @ fp.S[i] for i in range(1, model.NB + 1)]
    if qd is None:
        return _LoopState(X0, S0, None, None)
    v = [inv_motion(X0[i], fp.v[i]) for i in range(model.NB + 1)]
    avp = [inv_motion(X0[i], fp.a[i]) for i in range(model.NB + 1)]
    return _LoopState(X0, S0, v, avp)


def _loop_path(model: Model, l: int) -> list[tuple[int, float]]:
    """Tree joints ``i`` on the path of loop ``l`` with ``ε_li`` (eq. 8.18).

    Table 8.4's walk: ``i = p(k)`` and ``j = s(k)`` step towards the base, the larger number
    first, until they meet at the root of the loop; joints passed from the ``p(k)`` side get
    ``ε = -1``, those from the ``s(k)`` side ``+1``.
    """
    lj = model.loop_joints[l]
    i, j, path = lj.predecessor, lj.successor, []
    while i != j:
        if i > j:
            path.append((i, -1.0))
            i = model.parent[i]
        else:
            path.append((j, 1.0))
            j = model.parent[j]
    return path


def _loop_frames(model: Model, X0: list, l: int) -> tuple[np.ndarray, np.ndarray]:
    """``X_p = X_P(l) ^{p(k)}X_0`` and ``X_s = X_S(l) ^{s(k)}X_0`` (Table 8.4)."""
    lj = model.loop_joints[l]
    return lj.X_p @ X0[lj.predecessor], lj.X_s @ X0[lj.successor]


def loop_position_errors(model: Model, q) -> np.ndarray:
    """Position errors ``δ`` of all loops, stacked (eqs. 8.23–8.24).

    ``δ_l = jcalc(jtype(k), X_S(l) ^{s(k)}X_{p(k)} X_P(l)⁻¹)`` (:func:`loop_jcalc`); zero when
    every loop closes.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)

    Returns
    -------
    ndarray, shape (..., n^c)

    Raises
    ------
    ValueError
        If ``q`` is not a valid configuration of the model.
    """
    q, _, _, _ = model.check_state(q)
    X0 = _tree_state(model, q).X0
    delta = np.zeros(q.shape[:-1] + (_n_constraints(model),))
    for l, rows in enumerate(_loop_rows(model)):
        Xp, Xs = _loop_frames(model, X0, l)
        delta[..., rows] = _loop_jcalc(model.loop_joints[l].joint, Xs @ xinv(Xp))[0]
    return delta


def _gains(stabilization) -> tuple[np.ndarray, np.ndarray] | None:
    """``(α, β)`` as arrays ready to broadcast against ``(..., n^c)``, or None."""
    if stabilization is None:
        return None
    try:
        alpha, beta = stabilization
    except (TypeError, ValueError):
        raise ValueError(
            f"stabilization must be None or a pair (alpha, beta), got {stabilization!r}"
        ) from None
    alpha = as_scalar_array(alpha, "stabilization alpha")
    beta = as_scalar_array(beta, "stabilization beta")
    if np.any(alpha < 0):
        raise ValueError("stabilization alpha must be ≥ 0 (a damping rate, 1/s)")
    return alpha[..., None], beta[..., None]


def _constraints(model: Model, q, qd, gains) -> tuple[np.ndarray, np.ndarray]:
    """Table 8.4 on validated arrays: ``K`` (..., n^c, nv) and ``k + k_stab`` (..., n^c)."""
    st = _tree_state(model, q, qd, jacobians=True)
    batch = np.broadcast_shapes(q.shape[:-1], qd.shape[:-1])
    nc = _n_constraints(model)
    K = np.zeros(batch + (nc, model.nv))
    k = np.zeros(batch + (nc,))
    for l, rows in enumerate(_loop_rows(model)):
        lj = model.loop_joints[l]
        p, s = lj.predecessor, lj.successor
        Xp, Xs = _loop_frames(model, st.X0, l)
        delta, T = _loop_jcalc(lj.joint, Xs @ xinv(Xp))
        T = _T(Xs) @ T  # to base coordinates: ^0X*_{s,k} = (^{s,k}X_0)ᵀ
        Tt = _T(T)
        k[..., rows] = -_mv(Tt, st.avp[s] - st.avp[p] + cross_motion(st.v[s], st.v[p]))
        if gains is not None:
            alpha, beta = gains
            k_stab = 2.0 * alpha * _mv(Tt, st.v[s] - st.v[p]) + beta**2 * delta
            k[..., rows] = k[..., rows] - k_stab
        for i, epsilon in _loop_path(model, l):
            K[..., rows, model.v_index[i]] = epsilon * (Tt @ st.S0[i])  # eq. 8.20
    return K, k


def loop_constraints(model: Model, q, qd, stabilization=None) -> tuple[np.ndarray, np.ndarray]:
    """Loop constraint matrix ``K`` and vector ``k`` with ``K q̈ = k`` (Table 8.4, eq. 8.21).

    For loop ``l`` closed by joint ``k`` (Featherstone's algorithm, everything in base
    coordinates): ``X_p = X_P(l) ^{p(k)}X_0``, ``X_s = X_S(l) ^{s(k)}X_0``;
    ``[δ, T] = jcalc(jtype(k), X_s X_p⁻¹)`` and ``T ← X_sᵀ T``; then

    * ``K_li = ε_li Tᵀ ^0X_i S_i`` for the tree joints ``i`` on the loop's path, ``ε = -1``
      from the loop's root to ``p(k)`` and ``+1`` to ``s(k)`` (eqs. 8.18–8.20);
    * ``k_l = -Tᵀ (a_s - a_p + v_s × v_p) - k_stab`` (eq. 8.47) with the velocity-product
      accelerations ``a^vp`` and velocities of ``s(k)`` and ``p(k)``, and
      ``k_stab = 2α Tᵀ (v_s - v_p) + β² δ`` (eqs. 8.22–8.23, Baumgarte): the loop errors then
      obey ``ë + 2α ė + β² e = 0`` instead of ``ë = 0``.  Featherstone suggests
      ``α = β = 1/T_stab`` with ``T_stab`` a little shorter than the time scale of interest.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qd : array_like, shape (..., nv)
    stabilization : (alpha, beta), optional
        Baumgarte gains (1/s), scalars or arrays broadcasting with the batch (one pair per
        state); ``alpha ≥ 0``.  ``None`` (default) gives the plain ``k`` of eq. 8.17.

    Returns
    -------
    K : ndarray, shape (..., n^c, nv)
    k : ndarray, shape (..., n^c)
        ``k + k_stab`` when stabilized.

    Raises
    ------
    ValueError
        If a state array is invalid or ``stabilization`` is not a pair of finite gains with
        ``alpha ≥ 0``.
    """
    q, qd, _, _ = model.check_state(q, qd)
    return _constraints(model, q, qd, _gains(stabilization))


# ----------------------------------------------------------------------------- Tables 8.2–8.3


def _external_forces(model: Model, q, tau_loop, f_ext):
    """``f_ext`` plus the active loop-joint forces as external forces (base coordinates).

    ``f^a = T^a τ_k`` in ``F_s`` acts on ``s(k)`` and ``-f^a`` on ``p(k)`` (Table 8.3).
    """
    if tau_loop is None:
        return f_ext
    n_a = sum(lj.joint.nv for lj in model.loop_joints)
    tau_loop = as_array(tau_loop, "tau_loop", (n_a,))
    X0 = _tree_state(model, q).X0
    batch = np.broadcast_shapes(q.shape[:-1], tau_loop.shape[:-1])
    total = np.zeros(batch + (model.NB + 1, 6))
    if f_ext is not None:
        total = total + as_array(f_ext, "f_ext", (model.NB + 1, 6))
    start = 0
    for l, lj in enumerate(model.loop_joints):
        tau_k = tau_loop[..., start : start + lj.joint.nv]
        start += lj.joint.nv
        _, Xs = _loop_frames(model, X0, l)
        Ta = _active_subspace(lj.joint.motion_subspace(lj.joint.neutral()))  # constant
        f_a = _mv(_T(Xs), _mv(Ta, tau_k))  # in base coordinates
        if lj.successor != 0:
            total[..., lj.successor, :] += f_a
        if lj.predecessor != 0:
            total[..., lj.predecessor, :] -= f_a
    return total


def loop_bias_force(model: Model, q, qd, tau_loop=None, f_ext=None) -> np.ndarray:
    """``C - τᵃ``: the spanning tree's bias force minus the active loop-joint forces (Table 8.3).

    The active force ``f^a_k = T^a_k τ_k`` of loop joint ``k`` (``T^a = S (SᵀS)⁻¹`` in ``F_s``
    coordinates, so that ``Sᵀ f^a = τ_k``) comes from outside the tree: it acts on ``s(k)`` and
    its reaction on ``p(k)`` exactly like an external force (Table 8.2).  Table 8.3 therefore
    subtracts them where the RNEA subtracts external forces; this function adds them to
    ``f_ext`` and calls :func:`~spatial.dynamics.bias_force` (Table 5.1 with ``q̈ = 0``), which
    gives ``C - Σ_l J_Llᵀ f^a_k = C - τᵃ`` (eq. 8.28).

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qd : array_like, shape (..., nv)
    tau_loop : array_like, shape (..., Σ_k n_k), optional
        Active forces of the loop joints along their freedoms (e.g. a motor at a loop joint),
        loop by loop; ``None`` for passive loop joints (``τᵃ = 0``).
    f_ext : array_like, shape (..., NB + 1, 6), optional
        External forces in base coordinates (row 0 zero), as for ``rnea``.

    Returns
    -------
    ndarray, shape (..., nv)

    Raises
    ------
    ValueError
        If a state array, ``tau_loop`` or ``f_ext`` has the wrong shape or is invalid.
    """
    q, qd, _, _ = model.check_state(q, qd)
    return bias_force(model, q, qd, _external_forces(model, q, tau_loop, f_ext))


# ----------------------------------------------------------------------------- §8.5


def _pinv_solve(A: np.ndarray, b: np.ndarray, rtol: float, hermitian: bool = False) -> np.ndarray:
    """Minimum-norm least-squares solution of ``A x = b`` over a batch."""
    return _mv(np.linalg.pinv(A, rtol, hermitian=hermitian), b)


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
) -> tuple[np.ndarray, np.ndarray]:
    """Forward dynamics of a closed-loop system: ``q̈`` and the loop force variables ``λ``.

    Solves eq. 8.36, ``[[H, Kᵀ], [K, 0]] [q̈; -λ] = [τ - C + τᵃ; k + k_stab]``, i.e. the tree's
    equation of motion with the loop constraint forces ``τ^c = Kᵀ λ`` (eq. 8.34) and the
    acceleration constraint (eq. 8.35), by one of the three methods of §8.5:

    * ``"schur"`` (method 2, the default): factor ``H = LᵀL`` exploiting branch-induced
      sparsity (Table 6.3), ``Y = L⁻ᵀKᵀ``, ``z = L⁻ᵀτ'``, ``A = YᵀY = K H⁻¹ Kᵀ``,
      ``b = k - Yᵀz`` (eqs. 8.37–8.39), ``λ = A⁺ b`` (eq. 8.41 with ``z = 0``), then
      ``H q̈ = τ' + Kᵀ λ``;
    * ``"direct"`` (method 1): the symmetric indefinite matrix of eq. 8.36 solved at once;
    * ``"reduced"`` (method 3): ``q̈ = G ÿ + g`` from :func:`G_and_g` and
      ``GᵀHG ÿ = Gᵀ(τ' - H g)`` (eq. 8.45); ``λ`` then follows from ``Kᵀλ = H q̈ - τ'``.

    ``q̈`` is unique even when ``K`` is rank deficient (planar loops closed by revolute joints
    are overconstrained, §8.10); ``λ`` is then the minimum-norm choice among the force variables
    that produce the same motion (eq. 8.41), and a slightly inconsistent ``k + k_stab`` is met
    in the least-squares sense (a ``k`` that no ``q̈`` can meet is warned about, below).

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qd : array_like, shape (..., nv)
    tau : array_like, shape (..., nv), optional
        Tree-joint forces; zero by default.
    tau_loop : array_like, shape (..., Σ_k n_k), optional
        Active loop-joint forces (:func:`loop_bias_force`).
    f_ext : array_like, shape (..., NB + 1, 6), optional
        External forces in base coordinates.
    stabilization : (alpha, beta), optional
        Baumgarte gains (:func:`loop_constraints`).
    method : {"schur", "direct", "reduced"}
    independent : sequence of int, optional
        For ``method="reduced"``: the independent velocity variables (see :func:`G_and_g`).
    rtol : float
        Relative cut-off on singular values for the pseudo-inverses (rank decisions).

    Returns
    -------
    qdd : ndarray, shape (..., nv)
    lam : ndarray, shape (..., n^c)
        Constraint force variables ``λ``; the loop joint forces are :func:`loop_joint_forces`.

    Raises
    ------
    ValueError
        If an input is invalid, ``method`` is unknown, or (``"reduced"``) the independent
        variables are not valid at this configuration.

    Warns
    -----
    RuntimeWarning
        If ``K q̈ = k`` (without the Baumgarte term) has no solution, so that the returned
        ``q̈`` violates the loop constraints: a configuration singularity where ``rank K``
        drops (§8.10), or a ``q̇`` with ``K q̇ ≠ 0``.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    q, qd, _, tau = model.check_state(q, qd, None, np.zeros(model.nv) if tau is None else tau)
    gains = _gains(stabilization)
    H = crba(model, q)
    tau_p = tau - bias_force(model, q, qd, _external_forces(model, q, tau_loop, f_ext))  # τ'
    K, k = _constraints(model, q, qd, gains)
    batch = np.broadcast_shapes(H.shape[:-2], tau_p.shape[:-1], K.shape[:-2])
    if K.shape[-2] == 0:  # no loops: the tree's forward dynamics
        parents = model.expanded_parent()
        return ltl_solve(ltl(H, parents), parents, tau_p), np.zeros(batch + (0,))

    if method == "schur":
        parents = model.expanded_parent()
        L = ltl(H, parents)
        Yt = solve_Lt(L[..., None, :, :], parents, K)  # rows of Yᵀ = (L⁻ᵀ Kᵀ)ᵀ
        z = solve_Lt(L, parents, tau_p)
        A = Yt @ _T(Yt)
        b = k - _mv(Yt, z)
        lam = _pinv_solve(A, b, rtol, hermitian=True)
        qdd = ltl_solve(L, parents, tau_p + _mv(_T(K), lam))
    elif method == "direct":
        n, nc = model.nv, K.shape[-2]
        M = np.zeros(batch + (n + nc, n + nc))
        M[..., :n, :n] = H
        M[..., :n, n:] = _T(K)
        M[..., n:, :n] = K
        rhs = np.concatenate(
            [np.broadcast_to(tau_p, batch + (n,)), np.broadcast_to(k, batch + (nc,))], -1
        )
        x = _pinv_solve(M, rhs, rtol, hermitian=True)
        qdd, lam = x[..., :n], -x[..., n:]
    else:
        G, g, _ = G_and_g(K, k, independent, tol=rtol)
        ydd = np.linalg.solve(_T(G) @ H @ G, _mv(_T(G), tau_p - _mv(H, g)))
        qdd = _mv(G, ydd) + g
        lam = _pinv_solve(_T(K), _mv(H, qdd) - tau_p, rtol)
    _warn_if_inconsistent(model, q, qd, K, k, _mv(K, qdd) - k, gains is not None, rtol)
    return qdd, lam


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
            stacklevel=3,
        )


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


def _rk4(accel: Callable, advance: Callable, x0, v0, dt: float, steps: int):
    """Classical RK4 for ``ẋ = v``, ``v̇ = accel(t, x, v)``; positions move by ``advance``."""
    xs, vs = [x0], [v0]
    x, v = x0, v0
    for n in range(steps):
        t = n * dt
        a1 = accel(t, x, v)
        v2 = v + 0.5 * dt * a1
        a2 = accel(t + 0.5 * dt, advance(x, v, 0.5 * dt), v2)
        v3 = v + 0.5 * dt * a2
        a3 = accel(t + 0.5 * dt, advance(x, v2, 0.5 * dt), v3)
        v4 = v + dt * a3
        a4 = accel(t + dt, advance(x, v3, dt), v4)
        x = advance(x, (v + 2.0 * v2 + 2.0 * v3 + v4) / 6.0, dt)
        v = v + dt * (a1 + 2.0 * a2 + 2.0 * a3 + a4) / 6.0
        xs.append(x)
        vs.append(v)
    t = dt * np.arange(steps + 1)
    return t, np.stack(xs, -2), np.stack(vs, -2)


def _steps(dt, steps) -> tuple[float, int]:
    dt = float(as_scalar_array(dt, "dt"))
    if dt <= 0:
        raise ValueError(f"dt must be > 0, got {dt}")
    if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)) or steps < 0:
        raise ValueError(f"steps must be a non-negative int, got {steps!r}")
    return dt, int(steps)


def _forces(tau, t, q, qd):
    """``tau`` evaluated: a constant array, a callable ``tau(t, q, qd)``, or None."""
    return tau(t, q, qd) if callable(tau) else tau


def simulate_closed_loop(
    model: Model,
    q0,
    qd0,
    dt: float,
    steps: int,
    tau=None,
    tau_loop=None,
    stabilization=None,
    method: str = "schur",
):
    """Integrate a closed-loop system in the implicit form with RK4 (§8.3, §8.5).

    Each stage solves :func:`loop_forward_dynamics`; positions advance through
    ``model.integrate`` (plain RK4 for joints whose positions are integrals of their velocity
    variables).  Without ``stabilization`` the loop-closure errors grow from round-off and
    truncation; with Baumgarte gains they decay (§8.3).

    Parameters
    ----------
    model : Model
    q0 : array_like, shape (..., nq)
    qd0 : array_like, shape (..., nv)
    dt : float
        Step (s).
    steps : int
    tau : array_like, shape (..., nv), or callable ``tau(t, q, qd)``, optional
        Tree-joint forces.
    tau_loop : array_like, optional
        Active loop-joint forces (constant).
    stabilization : (alpha, beta), optional
        Baumgarte gains, scalars or one pair per batch entry.
    method : str
        As :func:`loop_forward_dynamics`.

    Returns
    -------
    t : ndarray, shape (steps + 1,)
    q : ndarray, shape (..., steps + 1, nq)
    qd : ndarray, shape (..., steps + 1, nv)

    Raises
    ------
    ValueError
        If an input is invalid.
    """
    q0, qd0, _, _ = model.check_state(q0, qd0)
    dt, steps = _steps(dt, steps)

    def accel(t, q, qd):
        tau_t = _forces(tau, t, q, qd)
        return loop_forward_dynamics(
            model, q, qd, tau_t, tau_loop, None, stabilization, method=method
        )[0]

    return _rk4(accel, model.integrate, q0, qd0, dt, steps)


# ----------------------------------------------------------------------------- §8.8


def _complete_pivoting(K: np.ndarray, tol: float) -> tuple[int, ...]:
    """Independent columns of ``K`` by Gaussian elimination with complete pivoting (§8.8).

    Rows and columns are swapped so that the largest remaining entry becomes the pivot; the
    elimination stops when every remaining entry is below ``tol`` times the largest entry of
    ``K`` (the rank test).  The pivot columns form ``K₁₁``; the others are independent.
    """
    A = np.array(K, dtype=float)
    m, n = A.shape
    cols = list(range(n))
    scale = np.abs(A).max(initial=0.0)
    r = 0
    while r < min(m, n):
        sub = np.abs(A[r:, r:])
        i, j = np.unravel_index(np.argmax(sub), sub.shape)
        if sub[i, j] <= tol * scale:
            break
        A[[r, r + i]] = A[[r + i, r]]
        A[:, [r, r + j]] = A[:, [r + j, r]]
        cols[r], cols[r + j] = cols[r + j], cols[r]
        A[r + 1 :, r:] -= np.outer(A[r + 1 :, r] / A[r, r], A[r, r:])
        r += 1
    return tuple(sorted(cols[r:]))


def G_and_g(K, k, independent=None, tol: float = 1e-9) -> tuple[np.ndarray, np.ndarray, tuple]:
    """Solve ``K x = k`` in the explicit form ``x = G y + g`` with ``y`` a subset of ``x`` (§8.8).

    ``K`` (``m x n``, rank ``r``) is split into the columns of the ``n - r`` *independent*
    variables ``y`` and of the ``r`` dependent ones; with ``K_d`` of full column rank,
    ``x_d = -K_d⁺ K_y y + K_d⁺ k`` (eq. 8.51: ``-K₁₁⁻¹K₁₂`` and ``K₁₁⁻¹k₁``, rows of ``K`` that
    depend on the others being harmless).  So ``G`` has the identity in the independent rows,
    ``K G = 0`` and ``K g = k`` (eqs. 8.43–8.44).  If ``independent`` is not given it is chosen
    as the book does, by Gaussian elimination with complete pivoting and a rank test.

    Parameters
    ----------
    K : array_like, shape (..., m, n)
    k : array_like, shape (..., m)
        In the range of ``K`` (a slightly inconsistent ``k`` is met in the least-squares sense).
    independent : sequence of int, optional
        Indices of the independent variables (``n - r`` of them).  Required for a batch of
        matrices (the choice must be the same for every entry).
    tol : float
        Relative tolerance of the rank decisions.

    Returns
    -------
    G : ndarray, shape (..., n, n - r)
    g : ndarray, shape (..., n)
        Zero in the independent rows.
    independent : tuple of int

    Raises
    ------
    ValueError
        If shapes disagree; if ``independent`` is missing for a batch; if the dependent
        variables cannot be solved for (``K_d`` loses rank: a configuration singularity,
        §8.10, or too few independent variables); or if the given variables are not
        independent (the constraints restrict them: more than ``n - r`` of them).
    """
    if np.ndim(K) < 2:
        raise ValueError(f"K must have shape (..., m, n), got {np.shape(K)}")
    m, n = np.shape(K)[-2:]
    K = as_array(K, "K", (m, n))
    k = as_array(k, "k", (m,))
    if independent is None:
        if K.ndim != 2:
            raise ValueError(
                "G_and_g: pass independent= for a batch of K (complete pivoting picks the "
                "independent variables of one matrix)"
            )
        independent = _complete_pivoting(K, tol)
    independent = _check_independent(independent, n)
    dependent = [j for j in range(n) if j not in independent]
    K_d, K_y = K[..., :, dependent], K[..., :, list(independent)]
    if dependent:
        s = np.linalg.svd(K_d, compute_uv=False)
        if len(dependent) > m or np.any(s[..., -1] <= tol * s[..., 0]):
            raise ValueError(
                f"G_and_g: the dependent variables {dependent} cannot be solved for: K restricted "
                "to them is singular. Either the independent variables "
                f"{list(independent)} are too few, or this is a configuration singularity "
                "(Featherstone §8.10) at which they do not determine the motion"
            )
    batch = np.broadcast_shapes(K.shape[:-2], k.shape[:-1])
    G = np.zeros(batch + (n, len(independent)))
    g = np.zeros(batch + (n,))
    G[..., list(independent), np.arange(len(independent))] = 1.0
    if dependent:
        K_d_pinv = np.linalg.pinv(K_d)
        G[..., dependent, :] = -K_d_pinv @ K_y
        g[..., dependent] = _mv(K_d_pinv, k)
    residual = np.abs(K @ G).max(initial=0.0)
    if residual > _CONSISTENCY_TOL * max(np.abs(K).max(initial=0.0), 1e-300) * max(
        1.0, np.abs(G).max(initial=0.0)
    ):
        raise ValueError(
            f"G_and_g: the variables {list(independent)} are not independent: the constraints "
            "fix a combination of them (there are more of them than the mobility n - rank(K))"
        )
    return G, g, independent


# ----------------------------------------------------------------------------- §8.11


@dataclass(frozen=True)
class LoopClosure:
    """A loop closure function ``q = γ(y)`` and its derivatives (Featherstone §8.11).

    ``y`` is a vector of independent position variables, here a subset of ``q``: the entries
    whose velocity variables are ``independent``.  Differentiating ``q = γ(y)`` gives
    ``q̇ = G ẏ`` with ``G = ∂γ/∂y`` and ``q̈ = G ÿ + g`` with ``g = Ġ ẏ`` (eqs. 8.56–8.60).
    Integrating ``y`` instead of ``q`` keeps every loop closed: no stabilization is needed.

    Attributes
    ----------
    gamma : callable
        ``gamma(y)``: ``y`` of shape (..., ny) → ``q`` of shape (..., nq).
    jacobians : callable
        ``jacobians(y, yd)`` → ``(q, G, g)`` with shapes (..., nq), (..., nv, ny), (..., nv).
    independent : tuple of int
        The velocity variables that ``ẏ`` equals (``G[independent] = 1``).
    """

    gamma: Callable[[np.ndarray], np.ndarray]
    jacobians: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]]
    independent: tuple[int, ...]

    @property
    def ny(self) -> int:
        """Number of independent variables (the mobility ``n - r``)."""
        return len(self.independent)


def _position_indices(model: Model, independent: tuple[int, ...]) -> list[int]:
    """Entries of ``q`` for independent velocity variables; their joints must have ``q̇ = α``."""
    rng = np.random.default_rng(0)
    out = []
    for v in independent:
        i = next(b for b in range(1, model.NB + 1) if v in range(model.nv)[model.v_index[b]])
        joint = model.joints[i]
        eye = np.eye(joint.nv)
        if joint.nq != joint.nv or not np.allclose(
            joint.q_dot(joint.random_configuration(rng), eye), eye
        ):
            raise ValueError(
                f"velocity variable {v} belongs to joint {i} ({joint!r}), whose position "
                "variables are not the integrals of its velocity variables; choose independent "
                "variables of revolute, prismatic, helical or cylindrical joints"
            )
        out.append(model.q_index[i].start + v - model.v_index[i].start)
    return out


def newton_closure(
    model: Model, independent, q_guess, tol: float = 1e-12, max_iter: int = 50
) -> LoopClosure:
    """A loop closure function for any mechanism: solve ``δ(q) = 0`` by Newton's method.

    ``γ(y)`` starts from ``q_guess`` with the independent entries set to ``y`` and moves the
    dependent velocity variables by Gauss–Newton steps ``Δ = -K_d⁺ δ`` (``K_d``: the columns of
    ``K`` of the dependent variables, the Jacobian of ``δ`` on the closed loop) until every
    loop position error is below ``tol``.  ``G`` and ``g`` then come from ``K`` and ``k`` at the
    closed configuration by :func:`G_and_g` (with ``q̇ = G ẏ``, ``g = Ġ ẏ``).

    A mechanism can often be assembled in several ways for the same ``y`` (configuration
    ambiguity, §8.10): Newton's method converges to the assembly nearest ``q_guess``, so keep
    ``y`` in the region where that branch is the intended one.

    Parameters
    ----------
    model : Model
    independent : sequence of int
        Velocity variables chosen as independent (their joints must have ``q̇ = α``, e.g.
        revolute or prismatic).
    q_guess : array_like, shape (nq,)
        A configuration near the intended assembly.
    tol : float
        Absolute tolerance on ``|δ|`` (radians and metres).
    max_iter : int

    Returns
    -------
    LoopClosure
        Calling ``gamma`` raises ``ValueError`` if Newton's method does not converge (the loops
        cannot be closed for that ``y``, the start is too far, or ``y`` sits at a configuration
        singularity); ``jacobians`` raises ``ValueError`` at a configuration where ``y`` does
        not determine the motion (:func:`G_and_g`).

    Raises
    ------
    ValueError
        If ``independent`` or ``q_guess`` is invalid.
    """
    independent = _check_independent(independent, model.nv)
    q_index = _position_indices(model, independent)
    q_guess, _, _, _ = model.check_state(q_guess)
    if q_guess.ndim != 1:
        raise ValueError(f"q_guess must be one configuration of shape ({model.nq},)")
    dependent = [j for j in range(model.nv) if j not in independent]
    zeros = np.zeros(model.nv)

    def gamma(y):
        y = as_array(y, "y", (len(independent),))
        q = np.broadcast_to(q_guess, y.shape[:-1] + (model.nq,)).copy()
        q[..., q_index] = y
        for _ in range(max_iter):
            delta = loop_position_errors(model, q)
            if np.abs(delta).max(initial=0.0) <= tol:
                return q
            K_d = _constraints(model, q, zeros, None)[0][..., dependent]
            step = np.zeros(q.shape[:-1] + (model.nv,))
            step[..., dependent] = -_mv(np.linalg.pinv(K_d), delta)
            q = model.integrate(q, step, 1.0)
        raise ValueError(
            f"newton_closure: the loops did not close for y = {y.tolist()} within {max_iter} "
            f"iterations (|δ| = {np.abs(delta).max():.3g}): the mechanism cannot be assembled "
            "there, q_guess is too far from that assembly, or y is at a configuration "
            "singularity (Featherstone §8.10)"
        )

    def jacobians(y, yd):
        q = gamma(y)
        yd = as_array(yd, "yd", (len(independent),))
        K = _constraints(model, q, zeros, None)[0]
        G = G_and_g(K, np.zeros(K.shape[:-1]), independent)[0]
        K, k = _constraints(model, q, _mv(G, yd), None)
        return q, G, G_and_g(K, k, independent)[1]

    return LoopClosure(gamma, jacobians, independent)


def _branch(branch) -> float:
    if branch not in (1, -1):
        raise ValueError(f"branch must be +1 or -1 (the two assemblies), got {branch!r}")
    return float(branch)


def _wrap(angle: np.ndarray) -> np.ndarray:
    """Angles in [-π, π)."""
    return (angle + np.pi) % (2.0 * np.pi) - np.pi


def _require_assembly(h2: np.ndarray, y: np.ndarray, scale2: float, tol: float, what: str):
    """ValueError where a squared distance ``h2`` is negative (no assembly) or ~0 (singular)."""
    if np.any(h2 < -tol * scale2):
        bad = y[..., 0][h2 < -tol * scale2].ravel()[0]
        raise ValueError(f"the {what} cannot be assembled at input angle {bad:.6g} rad")
    if np.any(h2 <= tol * scale2):
        bad = y[..., 0][h2 <= tol * scale2].ravel()[0]
        raise ValueError(
            f"the {what} is at a dead-centre (singular) position at input angle {bad:.6g} rad: "
            "the input does not determine the motion there and G is infinite (Featherstone §8.10)"
        )


def four_bar_closure(
    crank: float = 0.3,
    coupler: float = 1.0,
    rocker: float = 0.8,
    ground: float = 0.9,
    branch: int = 1,
    tol: float = 1e-9,
) -> LoopClosure:
    """Closed-form loop closure of the four-bar linkage of :func:`spatial.builders.four_bar`.

    ``y = [θ₁]`` is the crank angle; ``q = [θ₁, φ₂ - θ₁, φ₃]`` with ``φ₂`` the coupler's and
    ``φ₃`` the rocker's absolute angle.  The coupler–rocker pin ``C`` is where the circle of
    radius ``coupler`` about the crank pin ``B`` meets the circle of radius ``rocker`` about
    the rocker pivot ``D = (ground, 0)``: two assemblies, ``branch = +1`` with ``C`` to the left
    of ``B → D`` and ``-1`` to the right (configuration ambiguity, §8.10).  Differentiating the
    loop equation ``l₁ e(θ₁) + l₂ e(φ₂) - l₃ e(φ₃) = l₀ e_x`` and crossing it with ``e⊥(φ₃)``
    and ``e⊥(φ₂)`` gives ``φ̇₂ = l₁ sin(θ₁ - φ₃) / (l₂ sin(φ₃ - φ₂)) θ̇₁``,
    ``φ̇₃ = l₁ sin(θ₁ - φ₂) / (l₃ sin(φ₃ - φ₂)) θ̇₁`` and, once more, the ``g`` terms.

    Parameters
    ----------
    crank, coupler, rocker, ground : float
        Link lengths ``l₁, l₂, l₃, l₀`` (> 0), as given to the builder.
    branch : {+1, -1}
    tol : float
        Relative tolerance of the assembly and dead-centre tests.

    Returns
    -------
    LoopClosure
        ``gamma`` and ``jacobians`` raise ``ValueError`` where the linkage cannot be assembled
        (``|D - B|`` outside ``[|l₂ - l₃|, l₂ + l₃]``) or is at a dead-centre (coupler and
        rocker aligned, ``sin(φ₃ - φ₂) = 0``), instead of returning NaN or infinity.

    Raises
    ------
    ValueError
        If a length is not positive or ``branch`` is not ±1.
    """
    l1, l2, l3, l0 = positive_scalars(
        (crank, coupler, rocker, ground), ("crank", "coupler", "rocker", "ground")
    )
    b = _branch(branch)
    scale2 = max(l1, l2, l3, l0) ** 2

    def angles(y):
        theta = y[..., 0]
        B = l1 * np.stack([np.cos(theta), np.sin(theta)], -1)
        w = np.array([l0, 0.0]) - B  # from the crank pin B to the rocker pivot D
        e2 = np.sum(w * w, -1)
        _require_assembly(e2, y, scale2, tol, "four-bar (crank pin on the rocker pivot)")
        e = np.sqrt(e2)
        a = (l2**2 - l3**2 + e2) / (2.0 * e)
        _require_assembly(l2**2 - a**2, y, scale2, tol, "four-bar")
        h = np.sqrt(l2**2 - a**2)
        u = w / e[..., None]
        C = B + a[..., None] * u + b * h[..., None] * np.stack([-u[..., 1], u[..., 0]], -1)
        phi2 = np.arctan2(C[..., 1] - B[..., 1], C[..., 0] - B[..., 0])
        phi3 = np.arctan2(C[..., 1], C[..., 0] - l0)
        return theta, phi2, phi3

    def gamma(y):
        theta, phi2, phi3 = angles(as_array(y, "y", (1,)))
        return np.stack([theta, _wrap(phi2 - theta), phi3], -1)

    def jacobians(y, yd):
        y, yd = as_array(y, "y", (1,)), as_array(yd, "yd", (1,))
        theta, phi2, phi3 = angles(y)
        s32 = np.sin(phi3 - phi2)
        G2 = l1 * np.sin(theta - phi3) / (l2 * s32)
        G3 = l1 * np.sin(theta - phi2) / (l3 * s32)
        w1 = yd[..., 0]
        w2, w3 = G2 * w1, G3 * w1
        a2 = (l1 * w1**2 * np.cos(theta - phi3) + l2 * w2**2 * np.cos(phi2 - phi3) - l3 * w3**2) / (
            l2 * s32
        )
        a3 = (l1 * w1**2 * np.cos(theta - phi2) + l2 * w2**2 - l3 * w3**2 * np.cos(phi3 - phi2)) / (
            l3 * s32
        )
        q = np.stack([theta, _wrap(phi2 - theta), phi3], -1)
        G = np.stack([np.ones_like(G2), G2 - 1.0, G3], -1)[..., None]
        g = np.stack([np.zeros_like(a2), a2, a3], -1)
        return q, G, g

    return LoopClosure(gamma, jacobians, (0,))


def crank_slider_closure(
    crank: float = 0.3, rod: float = 1.0, offset: float = 0.0, branch: int = 1, tol: float = 1e-9
) -> LoopClosure:
    """Closed-form loop closure of the crank-slider of :func:`spatial.builders.crank_slider`.

    ``y = [θ]`` is the crank angle; ``q = [θ, φ - θ, x]`` with ``φ`` the connecting rod's
    absolute angle and ``x`` the slider's position along its guide (the line ``y = offset``).
    With ``w = offset - r sin θ`` and ``s = sqrt(l² - w²)``: ``x = r cos θ + b s`` and
    ``φ = atan2(w, b s)``, ``b = branch`` (``+1``: slider on the +x side of the crank pin).
    Differentiating: ``ẋ = (-r sin θ + b w r cos θ / s) θ̇`` and ``φ̇ = -b r cos θ / s θ̇``.

    Parameters
    ----------
    crank, rod : float
        Crank radius ``r`` and rod length ``l`` (> 0).
    offset : float
        Height ``e`` of the slider's guide above the crank pivot.
    branch : {+1, -1}
    tol : float

    Returns
    -------
    LoopClosure
        ``gamma``/``jacobians`` raise ``ValueError`` where the rod cannot reach the guide or
        stands perpendicular to it (``s = 0``, a dead-centre of the crank input).

    Raises
    ------
    ValueError
        If a length is not positive, ``offset`` is not finite or ``branch`` is not ±1.
    """
    r, l = positive_scalars((crank, rod), ("crank", "rod"))
    e = float(as_scalar_array(offset, "offset"))
    b = _branch(branch)
    scale2 = max(r, l, abs(e)) ** 2

    def parts(y):
        theta = y[..., 0]
        w = e - r * np.sin(theta)
        _require_assembly(l**2 - w**2, y, scale2, tol, "crank-slider")
        s = np.sqrt(l**2 - w**2)
        phi = np.arctan2(w, b * s)
        return theta, w, s, phi

    def gamma(y):
        theta, _, s, phi = parts(as_array(y, "y", (1,)))
        return np.stack([theta, _wrap(phi - theta), r * np.cos(theta) + b * s], -1)

    def jacobians(y, yd):
        y, yd = as_array(y, "y", (1,)), as_array(yd, "yd", (1,))
        theta, w, s, phi = parts(y)
        c, sn = np.cos(theta), np.sin(theta)
        dw, ddw = -r * c, r * sn
        ds = -w * dw / s
        dds = -(dw**2 + w * ddw) / s - (w * dw) ** 2 / s**3
        dphi = -b * r * c / s
        ddphi = b * r * (sn * s + c * ds) / s**2
        w2 = yd[..., 0] ** 2
        q = np.stack([theta, _wrap(phi - theta), r * c + b * s], -1)
        G = np.stack([np.ones_like(s), dphi - 1.0, -r * sn + b * ds], -1)[..., None]
        g = np.stack([np.zeros_like(s), ddphi * w2, (-r * c + b * dds) * w2], -1)
        return q, G, g

    return LoopClosure(gamma, jacobians, (0,))


def fig_8_3_closure(l1: float = 1.0, l2: float = 0.5, tol: float = 1e-9) -> LoopClosure:
    """Closed-form loop closure of Featherstone's Figure 8.3 mechanism.

    The mechanism is :func:`spatial.builders.planar_loop_fig_8_3`.

    A two-link arm (joints 1 and 4) driven by a linear actuator (cylinder on joint 2, piston on
    the prismatic joint 3) closing a triangle with sides ``l₁`` (base, arm pivot to cylinder
    pivot), ``l₂`` (arm pivot to the piston's pin on the arm) and ``d`` (the actuator's length).
    ``y = [q₁, q₄]`` and ``γ(y) = [y₁, θ₂, d, y₂]`` with ``d² = l₁² + l₂² - 2 l₁ l₂ cos y₁``
    (``d > 0``) and ``θ₂ = atan2(l₂ sin y₁, l₂ cos y₁ - l₁)``; ``G`` and ``g`` have the entries
    ``u₁ … u₄`` printed in the figure.

    Parameters
    ----------
    l1, l2 : float
        Triangle sides (> 0).
    tol : float

    Returns
    -------
    LoopClosure
        ``gamma``/``jacobians`` raise ``ValueError`` where ``d = 0`` (only possible if
        ``l₁ = l₂``, at ``y₁ = 0``), where the actuator's direction is undefined.

    Raises
    ------
    ValueError
        If a length is not positive.
    """
    l1, l2 = positive_scalars((l1, l2), ("l1", "l2"))
    scale2 = max(l1, l2) ** 2

    def parts(y):
        y1 = y[..., 0]
        d2 = l1**2 + l2**2 - 2.0 * l1 * l2 * np.cos(y1)
        if np.any(d2 <= tol * scale2):
            raise ValueError(
                f"Figure 8.3 mechanism: the actuator length d is 0 at y1 = "
                f"{y1[d2 <= tol * scale2].ravel()[0]:.6g}: its direction is undefined (l1 = l2)"
            )
        d = np.sqrt(d2)
        theta2 = np.arctan2(l2 * np.sin(y1), l2 * np.cos(y1) - l1)
        return y1, d, theta2

    def gamma(y):
        y = as_array(y, "y", (2,))
        y1, d, theta2 = parts(y)
        return np.stack([y1, theta2, d, y[..., 1]], -1)

    def jacobians(y, yd):
        y, yd = as_array(y, "y", (2,)), as_array(yd, "yd", (2,))
        y1, d, theta2 = parts(y)
        u1 = (l2**2 - l1 * l2 * np.cos(y1)) / d**2
        u2 = l1 * l2 * np.sin(y1) / d
        w2 = yd[..., 0] ** 2
        u3 = (l1**2 - l2**2) * l1 * l2 * np.sin(y1) / d**4 * w2
        u4 = (l1 * l2 * np.cos(y1) - u2**2) / d * w2
        one, zero = np.ones_like(u1), np.zeros_like(u1)
        q = np.stack([y1, theta2, d, y[..., 1]], -1)
        G = np.stack(
            [
                np.stack([one, zero], -1),
                np.stack([u1, zero], -1),
                np.stack([u2, zero], -1),
                np.stack([zero, one], -1),
            ],
            -2,
        )
        g = np.stack([np.zeros_like(u3), u3, u4, np.zeros_like(u3)], -1)
        return q, G, g

    return LoopClosure(gamma, jacobians, (0, 3))


def _reduced(model: Model, q, G, g, yd, tau, tau_loop, f_ext) -> np.ndarray:
    """Eq. 8.45 at ``q = γ(y)``: ``ÿ = (GᵀHG)⁻¹ Gᵀ (τ - C + τᵃ - H g)``."""
    qd = _mv(G, yd)
    q, qd, _, tau = model.check_state(q, qd, None, np.zeros(model.nv) if tau is None else tau)
    H = crba(model, q)
    C = bias_force(model, q, qd, _external_forces(model, q, tau_loop, f_ext))
    return np.linalg.solve(_T(G) @ H @ G, _mv(_T(G), tau - C - _mv(H, g)))


def reduced_forward_dynamics(
    model: Model, closure: LoopClosure, y, yd, tau=None, tau_loop=None, f_ext=None
) -> np.ndarray:
    """Forward dynamics in independent coordinates: ``GᵀHG ÿ = Gᵀ(τ - C + τᵃ - H g)`` (eq. 8.45).

    With ``q = γ(y)``, ``q̇ = G ẏ`` and ``q̈ = G ÿ + g`` (eqs. 8.56–8.60), premultiplying the
    tree's equation of motion by ``Gᵀ`` removes the loop forces (``Gᵀ Kᵀ = 0``) and leaves the
    symmetric positive-definite system of eq. 8.46 (cf. eq. 3.20).

    Parameters
    ----------
    model : Model
    closure : LoopClosure
        E.g. :func:`four_bar_closure` or :func:`newton_closure`.
    y, yd : array_like, shape (..., ny)
    tau : array_like, shape (..., nv), optional
        Tree-joint forces.
    tau_loop, f_ext : optional
        As :func:`loop_forward_dynamics`.

    Returns
    -------
    ndarray, shape (..., ny)
        ``ÿ``; ``q̈ = G ÿ + g``.

    Raises
    ------
    ValueError
        If an input is invalid or the closure fails (no assembly, singular configuration).
    """
    if not isinstance(closure, LoopClosure):
        raise ValueError(f"closure must be a LoopClosure, got {closure!r}")
    q, G, g = closure.jacobians(y, yd)
    return _reduced(model, q, G, g, as_array(yd, "yd", (closure.ny,)), tau, tau_loop, f_ext)


def simulate_reduced(
    model: Model, closure: LoopClosure, y0, yd0, dt: float, steps: int, tau=None, tau_loop=None
):
    """Integrate the explicit form in ``(y, ẏ)`` with RK4 (§8.11): the loops stay closed.

    Parameters
    ----------
    model : Model
    closure : LoopClosure
    y0, yd0 : array_like, shape (..., ny)
    dt : float
    steps : int
    tau : array_like, shape (..., nv), or callable ``tau(t, q, qd)``, optional
        Tree-joint forces (``q = γ(y)``, ``qd = G ẏ``).
    tau_loop : array_like, optional

    Returns
    -------
    t : ndarray, shape (steps + 1,)
    y : ndarray, shape (..., steps + 1, ny)
    yd : ndarray, shape (..., steps + 1, ny)
        ``q = closure.gamma(y)``.

    Raises
    ------
    ValueError
        If an input is invalid or the motion reaches a configuration where the closure fails.
    """
    if not isinstance(closure, LoopClosure):
        raise ValueError(f"closure must be a LoopClosure, got {closure!r}")
    y0 = as_array(y0, "y0", (closure.ny,))
    yd0 = as_array(yd0, "yd0", (closure.ny,))
    dt, steps = _steps(dt, steps)

    def accel(t, y, yd):
        q, G, g = closure.jacobians(y, yd)
        tau_t = _forces(tau, t, q, _mv(G, yd))
        return _reduced(model, q, G, g, yd, tau_t, tau_loop, None)

    return _rk4(accel, lambda y, yd, h: y + h * yd, y0, yd0, dt, steps)


# ----------------------------------------------------------------------------- §8.9–8.10


class Mobility(NamedTuple):
    """Counts of §8.10 for a closed-loop system at a configuration."""

    n: int  #: tree degrees of freedom
    nc: int  #: loop constraints n^c
    rank: np.ndarray  #: r = rank(K)
    mobility: np.ndarray  #: n - r (eq. 8.52)
    redundant: np.ndarray  #: n^c - r redundant constraints (overconstraint, eq. 8.55)


def mobility(model: Model, q, tol: float = 1e-9) -> Mobility:
    """Mobility, rank of the loop constraints and overconstraint at ``q`` (§8.10).

    ``mobility = n - r`` with ``r = rank(K)`` (eq. 8.52), which can change with the
    configuration (variable mobility); ``n^c - r > 0`` constraints are redundant
    (overconstraint: every planar loop closed by a revolute joint has 3).

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    tol : float
        Relative tolerance on the singular values of ``K``.

    Returns
    -------
    Mobility
        ``rank``, ``mobility`` and ``redundant`` have the batch shape of ``q``.

    Raises
    ------
    ValueError
        If ``q`` is invalid.
    """
    q, _, _, _ = model.check_state(q)
    K, _ = _constraints(model, q, np.zeros(model.nv), None)
    r = _rank(K, tol)
    nc = _n_constraints(model)
    return Mobility(model.nv, nc, r, model.nv - r, nc - r)


def loop_clusters(model: Model) -> list[tuple[list[int], list[int]]]:
    """Minimal loop clusters: loops coupled through shared tree joints (§8.9, Figure 8.1).

    Two loops are coupled if their paths share a tree joint; a minimal cluster is a set of
    loops closed under coupling.  Numbering the tree joints of each cluster consecutively makes
    ``K`` and ``G`` block-diagonal, one block per cluster.

    Parameters
    ----------
    model : Model

    Returns
    -------
    list of (loops, joints)
        For each cluster, its loop numbers and the tree joints (body numbers) on its paths,
        both sorted; clusters in order of their first loop.
    """
    clusters: list[tuple[set, set]] = []
    for l in range(model.NL):
        loops, joints = {l}, {i for i, _ in _loop_path(model, l)}
        for other in [c for c in clusters if c[1] & joints]:
            clusters.remove(other)
            loops |= other[0]
            joints |= other[1]
        clusters.append((loops, joints))
    return sorted(((sorted(a), sorted(b)) for a, b in clusters), key=lambda c: c[0][0])


# ----------------------------------------------------------------------------- §8.12


def loop_inverse_dynamics(
    model: Model,
    q,
    qd,
    qdd,
    actuated,
    tau_loop=None,
    f_ext=None,
    allow_redundant: bool = False,
    tol: float = 1e-9,
) -> np.ndarray:
    """Actuator forces that produce a given motion of a closed-loop system (§8.12).

    The tree's inverse dynamics ``τ_ID = ID(q, q̇, q̈)`` (RNEA with the active loop-joint forces
    as external forces, §8.6) fixes only ``Gᵀ τ = Gᵀ τ_ID`` (eq. 8.62): the loops can absorb any
    force in ``range(Kᵀ)``.  With the actuated freedoms ``u`` and the rows ``G_u`` of ``G``
    that belong to them, the actuator forces solve ``G_uᵀ u = Gᵀ τ_ID`` (eq. 8.63).  ``G`` is
    any basis of the null space of ``K`` (the equation does not depend on the basis).

    * ``rank(G_u) < n - r``: **underactuated**, the actuators cannot produce every motion —
      ``ValueError`` (also when there are enough actuators but the configuration is singular
      for them, like a crank at a dead-centre, §8.10);
    * ``p > rank(G_u) = n - r``: **redundantly actuated**, infinitely many ``u`` work —
      ``ValueError`` unless ``allow_redundant``, then the minimum-norm ``u``;
    * ``p = rank(G_u) = n - r``: properly actuated, ``u = G_u⁻ᵀ Gᵀ τ_ID``.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qd, qdd : array_like, shape (..., nv)
        A motion that satisfies the loop constraints: ``K q̇ = 0`` and ``K q̈ = k``.
    actuated : sequence of int
        Velocity variables (tree-joint freedoms) that have actuators.
    tau_loop, f_ext : optional
        Known active loop-joint forces and external forces (as :func:`loop_bias_force`).
    allow_redundant : bool
        Return the minimum-norm forces of a redundantly actuated system instead of raising.
    tol : float
        Relative tolerance of the rank decisions.

    Returns
    -------
    tau : ndarray, shape (..., nv)
        Actuator forces in the actuated entries, zero elsewhere.

    Raises
    ------
    ValueError
        If an input is invalid, the motion violates the loop constraints (relative residual
        above 1e-6), the system is underactuated, or redundantly actuated without
        ``allow_redundant``.
    """
    q, qd, qdd, _ = model.check_state(q, qd, qdd)
    actuated = _check_independent(actuated, model.nv, "actuated")
    K, k = _constraints(model, q, qd, None)
    for residual, scale, what in (
        (_mv(K, qd), np.abs(K).max(initial=0.0) * np.abs(qd).max(initial=0.0), "K q̇ = 0"),
        (
            _mv(K, qdd) - k,
            np.abs(K).max(initial=0.0) * np.abs(qdd).max(initial=0.0) + np.abs(k).max(initial=0.0),
            "K q̈ = k",
        ),
    ):
        if np.abs(residual).max(initial=0.0) > _CONSISTENCY_TOL * max(scale, 1e-300):
            raise ValueError(
                f"loop_inverse_dynamics: the motion violates the loop constraints ({what} has "
                f"residual {np.abs(residual).max():.3g}); q, q̇, q̈ must satisfy them (§8.12)"
            )
    tau_id = rnea(model, q, qd, qdd, _external_forces(model, q, tau_loop, f_ext))
    r = _uniform_rank(K, tol, "K")
    G = _T(np.linalg.svd(K)[2][..., r:, :])  # a basis of null(K), (..., n, n - r)
    m = model.nv - r
    G_u = G[..., list(actuated), :]
    rank_u = _rank(G_u, tol) if m else np.zeros(G_u.shape[:-2], dtype=int)
    if np.any(rank_u < m):
        why = (
            "these actuators are at a configuration singularity, where their motion does not "
            "determine the mechanism's (Featherstone §8.10)"
            if len(actuated) >= m
            else "most motions cannot be produced (Featherstone §8.12, case 1)"
        )
        raise ValueError(
            f"underactuated: the actuated variables {list(actuated)} control only "
            f"{int(rank_u.min())} of the {m} degrees of freedom (n - rank K = {model.nv} - {r}); "
            f"{why}"
        )
    rhs = _mv(_T(G), tau_id)
    if len(actuated) > m:
        if not allow_redundant:
            raise ValueError(
                f"redundantly actuated: {len(actuated)} actuators for {m} degrees of freedom, "
                "so infinitely many actuator forces produce this motion (Featherstone §8.12, "
                "case 2); pass allow_redundant=True for the minimum-norm forces"
            )
        u = _mv(np.linalg.pinv(_T(G_u)), rhs)
    else:
        u = np.linalg.solve(_T(G_u), rhs[..., None])[..., 0]
    tau = np.zeros(u.shape[:-1] + (model.nv,))
    tau[..., list(actuated)] = u
    return tau


# ----------------------------------------------------------------------------- §8.13


@dataclass(frozen=True)
class SparseSystem:
    """The sparse equation of motion of eq. 8.64 for one state (Featherstone §8.13, §3.7).

    Unknowns ``x = [a; -λ]``: the spatial accelerations of all bodies (base coordinates) and
    the constraint force variables of every joint, tree and loop alike; ``A x = b`` with
    ``A = [[I, P T], [Tᵀ Pᵀ, 0]]`` symmetric and sparse.

    Attributes
    ----------
    A : scipy.sparse.csr_array, shape (N, N)
        ``N = 6 N_B + n^c_tot``.
    b : ndarray, shape (N,)
    labels : tuple of str
        One per block: ``"body i"``, ``"joint i"`` (tree joint of body ``i``), ``"loop l"``.
    blocks : tuple of slice
        Rows (and columns) of each block, in the order of ``labels``: bodies first, then the
        tree joints, then the loop joints.
    banded_order : ndarray of int, shape (N,)
        A symmetric permutation that puts each joint's rows right after the later of the two
        bodies it connects (Figure 8.4): ``A[order][:, order]``.  For a ladder its bandwidth
        does not grow with the length of the ladder.
    """

    A: scipy.sparse.csr_array
    b: np.ndarray
    labels: tuple[str, ...]
    blocks: tuple[slice, ...]
    banded_order: np.ndarray


def _single_state(model: Model, q, qd, tau):
    q, qd, _, tau = model.check_state(q, qd, None, np.zeros(model.nv) if tau is None else tau)
    if q.ndim != 1 or qd.ndim != 1 or tau.ndim != 1:
        raise ValueError("the sparse matrix method works on one state at a time (no batch)")
    return q, qd, tau


def _joint_terms(model: Model, q, qd, X0):
    """Per joint (tree joints, then loop joints): label, p, s, X_s, T, T^a, c_J (F_s coords)."""
    terms = []
    for i in range(1, model.NB + 1):
        joint, q_i = model.joints[i], q[model.q_index[i]]
        S = joint.motion_subspace(q_i)
        Ta = _active_subspace(S)
        c_J = joint.bias(q_i, qd[model.v_index[i]])
        terms.append(
            (f"joint {i}", model.parent[i], i, X0[i], joint.constraint_subspace(q_i), Ta, c_J)
        )
    for l, lj in enumerate(model.loop_joints):
        _, Xs = _loop_frames(model, X0, l)
        T = lj.joint.constraint_subspace(lj.joint.neutral())
        terms.append((f"loop {l}", lj.predecessor, lj.successor, Xs, T, None, np.zeros(6)))
    return terms


def sparse_system(model: Model, q, qd, tau=None, tau_loop=None, f_ext=None) -> SparseSystem:
    """Assemble eq. 8.64: every body and every joint at once, no spanning tree (§8.13).

    Body ``i`` (base coordinates): ``I_i a_i + v_i ×* I_i v_i = Σ_j P_ij (T_j λ_j + T^a_j τ_j)
    + I_i a_g + f^x_i`` with ``P_ij = +1`` if ``i = s(j)``, ``-1`` if ``i = p(j)``; joint ``j``:
    ``T_jᵀ (a_s - a_p) = T_jᵀ (^0X_s c_J + v_s × (v_s - v_p))``, the derivative of
    ``T_jᵀ (v_s - v_p) = 0`` (for a loop joint ``c_J`` drops out, as in eq. 8.47).  ``T^a τ``
    are the tree joints' forces; active loop-joint forces enter as external forces.

    Parameters
    ----------
    model : Model
    q : array_like, shape (nq,)
    qd : array_like, shape (nv,)
    tau : array_like, shape (nv,), optional
    tau_loop : array_like, optional
    f_ext : array_like, shape (NB + 1, 6), optional

    Returns
    -------
    SparseSystem

    Raises
    ------
    ValueError
        If an input is invalid or batched.
    """
    q, qd, tau = _single_state(model, q, qd, tau)
    f_x = _external_forces(model, q, tau_loop, f_ext)
    st = _tree_state(model, q, qd)
    NB = model.NB
    terms = _joint_terms(model, q, qd, st.X0)
    sizes = [6] * NB + [T.shape[1] for *_, T, _, _ in terms]
    starts = np.concatenate([[0], np.cumsum(sizes)])
    blocks = tuple(slice(int(a), int(b)) for a, b in zip(starts[:-1], starts[1:], strict=True))
    N = int(starts[-1])
    A = np.zeros((N, N))  # assembled dense, stored sparse (the systems here are small)
    b = np.zeros(N)
    for i in range(1, NB + 1):
        I0 = st.X0[i].T @ model.inertia[i] @ st.X0[i]  # ^0X_i* I_i ^iX_0
        rows = blocks[i - 1]
        A[rows, rows] = I0
        b[rows] = -cross_force(st.v[i], I0 @ st.v[i]) + I0 @ model.a_grav
        if f_x is not None:
            b[rows] += f_x[i]
    for j, (_, p, s, Xs, T, Ta, c_J) in enumerate(terms):
        rows = blocks[NB + j]
        Tw = Xs.T @ T  # force subspace in base coordinates
        for body, sign in ((s, 1.0), (p, -1.0)):
            if body != 0:
                A[blocks[body - 1], rows] = sign * Tw
                A[rows, blocks[body - 1]] = sign * Tw.T
        v_p = st.v[p] if p != 0 else np.zeros(6)
        b[rows] = T.T @ c_J + Tw.T @ cross_motion(st.v[s], st.v[s] - v_p)
        if Ta is not None:
            f_a = Xs.T @ (Ta @ tau[model.v_index[s]])
            b[blocks[s - 1]] += f_a
            if p != 0:
                b[blocks[p - 1]] -= f_a
    later = list(range(1, NB + 1)) + [max(p, s) for _, p, s, *_ in terms]
    order = sorted(range(len(blocks)), key=lambda n: (later[n], n >= NB))
    banded = np.concatenate([np.arange(blocks[n].start, blocks[n].stop) for n in order])
    labels = tuple(f"body {i}" for i in range(1, NB + 1)) + tuple(t[0] for t in terms)
    return SparseSystem(scipy.sparse.csr_array(A), b, labels, blocks, banded)


def sparse_matrix_method(model: Model, q, qd, tau=None, tau_loop=None, f_ext=None) -> np.ndarray:
    """Forward dynamics by the sparse matrix method (Featherstone §8.13, eq. 8.64).

    Assembles :func:`sparse_system`, factorizes it with a sparse LU (SuperLU, which picks a
    fill-reducing ordering) and recovers the tree-joint accelerations from the body
    accelerations: ``S_i q̈_i = ^iX_0 (a_i - a_λ(i) - v_i × (v_i - v_λ(i))) - c_J``.  The
    coefficient matrix must be non-singular, i.e. the system properly constrained (``r = n^c``
    over all joints): planar mechanisms with revolute joints are overconstrained and rejected.

    Parameters
    ----------
    model : Model
    q : array_like, shape (nq,)
    qd : array_like, shape (nv,)
    tau : array_like, shape (nv,), optional
    tau_loop : array_like, optional
    f_ext : array_like, shape (NB + 1, 6), optional

    Returns
    -------
    qdd : ndarray, shape (nv,)

    Raises
    ------
    ValueError
        If an input is invalid or batched, or the coefficient matrix is singular.
    """
    q, qd, tau = _single_state(model, q, qd, tau)
    system = sparse_system(model, q, qd, tau, tau_loop, f_ext)
    singular = ValueError(
        "sparse_matrix_method: the coefficient matrix of eq. 8.64 is singular: the mechanism "
        "is overconstrained (redundant joint constraints, e.g. a planar loop of revolute "
        "joints) or at a singular configuration; the spanning-tree methods handle it"
    )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", scipy.sparse.linalg.MatrixRankWarning)
            lu = scipy.sparse.linalg.splu(system.A.tocsc())
    except (RuntimeError, scipy.sparse.linalg.MatrixRankWarning):
        raise singular from None
    pivots = np.abs(lu.U.diagonal())
    if pivots.min() <= 1e-12 * pivots.max():
        raise singular
    x = lu.solve(system.b)
    st = _tree_state(model, q, qd)
    a = [np.zeros(6)] + [x[6 * (i - 1) : 6 * i] for i in range(1, model.NB + 1)]
    qdd = np.zeros(model.nv)
    for i in range(1, model.NB + 1):
        p, joint = model.parent[i], model.joints[i]
        q_i, qd_i = q[model.q_index[i]], qd[model.v_index[i]]
        S = joint.motion_subspace(q_i)
        rel = st.X0[i] @ (a[i] - a[p] - cross_motion(st.v[i], st.v[i] - st.v[p]))
        rel = rel - joint.bias(q_i, qd_i)
        qdd[model.v_index[i]] = _active_subspace(S).T @ rel  # (SᵀS)⁻¹ Sᵀ
    return qdd
