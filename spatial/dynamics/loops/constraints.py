"""Loop constraints in the implicit form: loop joints, ``K q̈ = k`` and the loop errors (§8.1–8.7).

A closed-loop mechanism is modelled as a kinematic tree (its *spanning tree*, variables ``q``)
plus *loop joints* that close the loops (:meth:`spatial.Model.add_loop_joint`).  Loop joint
``k`` joins its predecessor body ``p(k)`` to its successor ``s(k)`` and lets through only the
relative motions of its motion subspace; with ``T`` a basis of the forces it can transmit, the
velocity across it must obey ``Tᵀ (v_s - v_p) = 0`` (eqs. 8.7–8.9).  This module builds, loop by
loop, everything the solvers of the chapter need:

1. **Position level (Table 8.1).**  :func:`loop_jcalc` splits the transform between the joint's
   two frames, as the tree places them, into the nearest transform the joint allows and a
   small leftover displacement ``d`` (eqs. 8.25–8.26); ``δ = Tᵀ d`` is the loop's position
   error (eq. 8.27).  :func:`loop_position_errors` stacks ``δ`` over all loops.
2. **Velocity and acceleration level (Table 8.4).**  Writing ``v_s - v_p`` through the tree's
   Jacobians, the joints shared by both paths from the base cancel and only the joints of the
   loop remain, with sign ``ε = ±1`` by side (eqs. 8.17–8.20): ``K q̇ = 0``.  Differentiating
   once more gives ``K q̈ = k`` with ``k = -K̇ q̇`` built from the velocity-product
   accelerations the RNEA computes anyway (eqs. 8.13–8.15, 8.47).  :func:`loop_constraints`
   returns ``K`` and ``k``, optionally with Baumgarte's correction ``k_stab`` (eqs. 8.21–8.23).
3. **Active loop-joint forces (Tables 8.2–8.3).**  A motor at a loop joint pushes on the tree
   like an external force pair; :func:`loop_bias_force` folds it into ``C - τᵃ`` (eq. 8.28).
4. **Consistency of a state.**  The solvers assume ``δ = 0`` and ``K q̇ = 0``.  A state that
   violates them (a loop left open, a velocity that pulls a loop apart) gets a
   :class:`LoopConstraintWarning` naming the loop joint and the size of the violation, instead
   of a silently meaningless answer.

Conventions (``spatial.__doc__`` and the tree contract): ``q`` has shape ``(..., nq)``, ``qd``
``(..., nv)``; leading batch dimensions broadcast.  Loop ``l`` (0-based, the book's
``k = N_B + 1 + l``) owns ``n^c_l = 6 - n_k`` consecutive rows of ``K``, ``k``, ``δ`` and
``λ``.  Spatial quantities of the loops are in base coordinates, as in Table 8.4.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from ..._batched import T as _T
from ..._batched import inv_motion, xinv  # unvalidated: the transforms are built here
from ..._batched import mv as _mv
from ..._validate import as_array, as_scalar_array, positive_scalar
from ...joints import Cylindrical, Fixed, Joint, Planar, Prismatic, Revolute, Spherical
from ...kinematics import _forward_pass
from ...model import LOOP_JOINT_TYPES, Model
from ...vectors import XtoV, _as_plucker, cross_motion, skew, unskew
from ..rnea import bias_force

__all__ = [
    "LoopConstraintWarning",
    "POSITION_TOL",
    "VELOCITY_TOL",
    "loop_jcalc",
    "loop_position_errors",
    "loop_constraints",
    "loop_bias_force",
    "check_loop_trajectory",
]

_CONSISTENCY_TOL = 1e-6  # relative residual above which a linear system is called inconsistent
POSITION_TOL = 1e-2  #: default bound on a loop's position error ``|δ|`` (m or rad)
VELOCITY_TOL = 1e-1  #: default bound on a loop's velocity error ``|K q̇|`` (m/s or rad/s)


# ----------------------------------------------------------------------------- small helpers


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


def _constraints(model: Model, q, qd, gains) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Table 8.4 on validated arrays: ``K`` (..., n^c, nv), ``k + k_stab`` and ``δ`` (..., n^c).

    ``δ`` (eq. 8.23) comes out of the same pass, for the consistency check of the solvers.
    """
    st = _tree_state(model, q, qd, jacobians=True)
    batch = np.broadcast_shapes(q.shape[:-1], qd.shape[:-1])
    nc = _n_constraints(model)
    K = np.zeros(batch + (nc, model.nv))
    k = np.zeros(batch + (nc,))
    errors = np.zeros(batch + (nc,))
    for l, rows in enumerate(_loop_rows(model)):
        lj = model.loop_joints[l]
        p, s = lj.predecessor, lj.successor
        Xp, Xs = _loop_frames(model, st.X0, l)
        delta, T = _loop_jcalc(lj.joint, Xs @ xinv(Xp))
        errors[..., rows] = delta
        T = _T(Xs) @ T  # to base coordinates: ^0X*_{s,k} = (^{s,k}X_0)ᵀ
        Tt = _T(T)
        k[..., rows] = -_mv(Tt, st.avp[s] - st.avp[p] + cross_motion(st.v[s], st.v[p]))
        if gains is not None:
            alpha, beta = gains
            k_stab = 2.0 * alpha * _mv(Tt, st.v[s] - st.v[p]) + beta**2 * delta
            k[..., rows] = k[..., rows] - k_stab
        for i, epsilon in _loop_path(model, l):
            K[..., rows, model.v_index[i]] = epsilon * (Tt @ st.S0[i])  # eq. 8.20
    return K, k, errors


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
    return _constraints(model, q, qd, _gains(stabilization))[:2]


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
    f_x = _external_forces(model, q, tau_loop, f_ext)
    return bias_force(model.spanning_tree(), q, qd, f_x)  # C of the spanning tree


# ----------------------------------------------------------------------------- consistency


class LoopConstraintWarning(RuntimeWarning):
    """A state handed to a closed-loop solver violates the loop constraints (§8.3).

    Raised as a warning, not an error, because a simulation without Baumgarte stabilization
    drifts off the constraints by design and must be able to go on; the message names the
    worst loop joint and the size of the violation.  Silence it with
    ``warnings.simplefilter("ignore", LoopConstraintWarning)`` where drift is expected.
    """


def _tolerances(position_tol, velocity_tol) -> tuple[float, float]:
    """The two bounds of the consistency check, as positive floats."""
    return positive_scalar(position_tol, "position_tol"), positive_scalar(
        velocity_tol, "velocity_tol"
    )


def _worst_loop(model: Model, error: np.ndarray, tol: float) -> tuple[int, float, int, int] | None:
    """The loop with the largest ``|error|`` over the batch if any state exceeds ``tol``.

    Returns ``(loop, size, violating states, states)`` or None.
    """
    per_loop = np.stack([np.abs(error[..., r]).max(-1) for r in _loop_rows(model)], -1)
    bad = per_loop.max(-1) > tol
    if not np.any(bad):
        return None
    loop = int(np.unravel_index(np.argmax(per_loop), per_loop.shape)[-1])
    return loop, float(per_loop.max()), int(np.sum(bad)), int(bad.size)


# What each check says: the violation, and what to do about it for one state or a trajectory.
_VIOLATIONS = {
    "position_tol": (
        "max |δ|",
        "m or rad",
        "the loops are not closed at this configuration",
        "the result is the motion of the tree pulled by the loop forces, not of the closed "
        "mechanism; close the loops first (a loop closure function, §8.11) or let Baumgarte "
        "stabilization pull them shut (§8.3)",
        "the loops were open along the trajectory",
        "add or strengthen Baumgarte stabilization (§8.3, with h β well inside RK4's stability "
        "region), shorten the step, or integrate the explicit form "
        "(spatial.systems.ClosureSystem, §8.11)",
    ),
    "velocity_tol": (
        "max |K q̇|",
        "m/s or rad/s",
        "the velocity violates the loop constraints K q̇ = 0 (eq. 8.9)",
        "the loop joint moves in a direction it does not allow; use a q̇ in the null space of K "
        "(q̇ = G ẏ, §8.8)",
        "the velocity left the loop constraints K q̇ = 0 (eq. 8.9) along the trajectory",
        "add or strengthen Baumgarte stabilization (§8.3), shorten the step, or integrate the "
        "explicit form (spatial.systems.ClosureSystem, §8.11)",
    ),
}


def _warn_if_violated(
    model: Model,
    delta,
    velocity_error,
    position_tol: float,
    velocity_tol: float,
    who: str,
    stacklevel: int,
    trajectory: bool = False,
) -> None:
    """:class:`LoopConstraintWarning` where ``|δ| > position_tol`` or ``|K q̇| > velocity_tol``.

    ``delta`` is the loop position error of eq. 8.23 and ``velocity_error`` is ``K q̇``, its
    rate (eq. 8.9); both should vanish on a closed mechanism.  One warning per kind, naming
    the loop joint with the largest violation over the batch (over the time steps too for a
    ``trajectory``).  ``stacklevel`` counts from the caller of this function, as
    ``warnings.warn``'s does.
    """
    for error, tol, name in (
        (delta, position_tol, "position_tol"),
        (velocity_error, velocity_tol, "velocity_tol"),
    ):
        worst = _worst_loop(model, error, tol)
        if worst is None:
            continue
        loop, size, n_bad, n = worst
        measure, units, state_what, state_advice, run_what, run_advice = _VIOLATIONS[name]
        what, advice = (run_what, run_advice) if trajectory else (state_what, state_advice)
        where = f" ({n_bad} of {n} states)" if n > 1 else ""
        warnings.warn(
            f"{who}: {what}: {measure} = {size:.3g} ({units}) at loop joint "
            f"{model.loop_joints[loop].name!r} (loop {loop}){where} exceeds {name} = {tol:g}; "
            f"{advice}",
            LoopConstraintWarning,
            stacklevel=stacklevel + 1,
        )


def check_loop_trajectory(
    model: Model,
    q,
    qd,
    position_tol: float = POSITION_TOL,
    velocity_tol: float = VELOCITY_TOL,
    *,
    who: str = "simulate",
    stacklevel: int = 2,
) -> None:
    """Warn once if a trajectory leaves the loops open or moves against them.

    A simulation in the implicit form controls only the second derivative of the loop errors,
    so they drift (§8.3).  Checked once over all states rather than stage by stage, the worst
    loop joint is reported in one :class:`LoopConstraintWarning` per kind of error.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qd : array_like, shape (..., nv)
        The states of the trajectory (any leading dimensions, time among them).
    position_tol, velocity_tol : float
        As :func:`~spatial.dynamics.loops.loop_forward_dynamics`.
    who : str
        Names the caller at the start of the message.
    stacklevel : int
        As ``warnings.warn``'s, counted from the caller of this function.

    Raises
    ------
    ValueError
        If a state or a tolerance is invalid.

    Warns
    -----
    LoopConstraintWarning
        If some state leaves a loop open by more than ``position_tol`` or violates
        ``K q̇ = 0`` by more than ``velocity_tol``.
    """
    q, qd, _, _ = model.check_state(q, qd)
    tolerances = _tolerances(position_tol, velocity_tol)
    K, _, delta = _constraints(model, q, qd, None)
    _warn_if_violated(model, delta, _mv(K, qd), *tolerances, who, stacklevel + 1, True)
