"""Joints as constraint rows on the body twists, and their position errors (Sueda §1.10, §1.12).

Joint constraints (Sueda §1.10)
-------------------------------
A joint connects a predecessor frame F_p, fixed on the parent body (``parent_frame =
T_parent,Fp``), with a successor frame F_s fixed on the child (``child_frame = T_child,Fs``).
Any joint of :mod:`spatial.joints` describes the allowed relative motion: F_s moves relative to
F_p with the twist ``v_J = S α`` (F_s coordinates, Featherstone §4.4).  In maximal coordinates
the relative twist of the two frames, in F_s coordinates, is

    v_rel = Ad(T_s,child) φ_child - Ad(T_s,parent) φ_parent,

with ``T_s,b`` the pose of body ``b`` seen from F_s (the blocks of Sueda eq. 1.69, whose printed
form is garbled; this is our derivation).  The joint allows ``v_rel`` in the range of ``S`` and
forbids the rest.  The joint's constraint-force subspace ``T_c`` (Featherstone's ``T``, eq.
3.36, renamed here because ``T`` is a frame; ``T_cᵀ S = 0``) picks out the forbidden components,
so the joint contributes the ``6 - nv`` rows

    G_joint Φ = T_cᵀ v_rel = 0                                        (Sueda eqs. 1.69–1.70)

to the constraint matrix ``G``.  When ``T_c`` selects coordinate axes these are literally rows of
the adjoint matrices, as in Sueda's presentation ("drop the rows of the allowed motions").

The multipliers have a physical meaning: ``T_c λ`` is the constraint impulse (``T_c λ / h`` the
constraint wrench) that the parent exerts on the child, in F_s coordinates about F_s's origin,
the same quantity as the joint force ``f_i`` of the RNEA (Featherstone eq. 5.10) minus its
motion part ``S τ``.

Position-level constraint (Sueda §1.12)
---------------------------------------
The joint variables ``q̂`` that best explain the current relative pose
``T_ps = T_world,Fp⁻¹ T_world,Fs`` are found by Gauss–Newton on SE(3): repeat
``e = log(T_J(q̂)⁻¹ T_ps)``, ``q̂ ← integrate(q̂, S⁺ e)`` until the step vanishes (the joint's own
``integrate`` keeps quaternions unit).  The position error is ``g = T_cᵀ e``: zero exactly when the
joint is intact, and its derivative along ``T_b ← T_b exp([δ_b])`` equals ``G δ`` on the
constraint manifold.  The search starts from a warm start (the previous step's ``q̂``), so joints
that turn through many revolutions (helical, rack and pinion) keep the right branch.

Frames are 4x4 (``T_AB`` maps points from B to A; Sueda writes E for this frame).  Every function
takes the frames ``T (..., N, 4, 4)`` of a :class:`~spatial.maximal.System` (body ``b`` in row
``b - 1``, the world ``0`` fixed) and recovers the joint variables first (warm-started by ``q0``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .._batched import T as _T
from .._batched import mv as _mv
from ..joints import Joint
from ..se3 import _Ad, _frame_inverse, _log_se3
from ..vectors import _unskew
from .state import _check_q0, _check_system_state

if TYPE_CHECKING:
    from .system import System

__all__ = ["joint_coordinates", "constraint_jacobian", "constraint_error"]

_GN_MAX_ITER = 50  # Gauss–Newton iterations when recovering joint variables
_GN_TOL = 1e-12  # converged when the largest step is below this (times max(1, |q|))


def _joint_pose_inverse(joint: Joint, q: np.ndarray) -> np.ndarray:
    """``T_J(q)⁻¹ = T_sp``: F_p seen from F_s, the frame with ``Ad(T_sp) = X_J`` (``pluho``).

    ``X_J = [[E, 0], [-E r×, E]]`` is ``Ad`` of ``[[E, -E r], [0, 1]]``, and
    ``-E r = unskew(B Eᵀ)`` for the lower-left block ``B = -E r×`` (since ``E r× Eᵀ = (E r)×``).
    The joint's own ``transform`` is trusted (its model was checked when the joint was added),
    so nothing is validated here.
    """
    X = joint.transform(q)
    E = X[..., :3, :3]
    T = np.zeros(X.shape[:-2] + (4, 4))
    T[..., :3, :3] = E
    T[..., :3, 3] = _unskew(X[..., 3:, :3] @ np.swapaxes(E, -1, -2))
    T[..., 3, 3] = 1.0
    return T


# ----------------------------------------------------------------------------- joint kinematics


@dataclass
class _JointState:
    """What one joint contributes at a configuration (batched arrays)."""

    q: np.ndarray  # (..., nq) recovered joint variables q̂
    S: np.ndarray  # (..., 6, nv) motion subspace at q̂
    T_c: np.ndarray  # (..., 6, 6 - nv) constraint-force subspace at q̂
    e: np.ndarray  # (..., 6) residual twist log(T_J(q̂)⁻¹ T_ps), F_s coordinates
    A_child: np.ndarray  # (6, 6) Ad(T_s,child): child twist -> F_s coordinates
    A_parent: np.ndarray | None  # (..., 6, 6) Ad(T_s,parent), None for the world (body 0)


def _recover_joint_variables(joint: Joint, T_ps: np.ndarray, q: np.ndarray, name: str):
    """Gauss–Newton for ``q̂`` with ``T_J(q̂) ≈ T_ps`` (module docstring); returns ``(q̂, e)``."""
    for _ in range(_GN_MAX_ITER):
        e = _log_se3(_joint_pose_inverse(joint, q) @ T_ps)
        if joint.nv == 0:
            return q, e
        S = joint.motion_subspace(q)
        St = _T(S)
        step = np.linalg.solve(St @ S, _mv(St, e)[..., None])[..., 0]  # least squares S⁺ e
        if np.all(np.abs(step) <= _GN_TOL * np.maximum(1.0, np.abs(q).max(-1, keepdims=True))):
            return q, e
        q = joint.integrate(q, step, 1.0)
    raise ValueError(
        f"{name}: could not recover the joint variables from the two frames (Gauss–Newton did "
        f"not converge in {_GN_MAX_ITER} iterations); the joint is far from its constraint "
        "or q0 is a poor warm start"
    )


def _joint_states(system: System, T: np.ndarray, q0: np.ndarray) -> list[_JointState]:
    states = []
    for jc in system.joints:
        T_wS = T[..., jc.child - 1, :, :] @ jc.child_frame  # body b is row b - 1
        if jc.parent == 0:
            T_wP = np.broadcast_to(jc.parent_frame, T_wS.shape)
        else:
            T_wP = T[..., jc.parent - 1, :, :] @ jc.parent_frame
        T_Sw = _frame_inverse(T_wS)
        q, e = _recover_joint_variables(
            jc.joint, _frame_inverse(T_wP) @ T_wS, q0[..., jc.q_index], jc.name
        )
        A_parent = None if jc.parent == 0 else _Ad(T_Sw @ T[..., jc.parent - 1, :, :])
        states.append(
            _JointState(
                q,
                jc.joint.motion_subspace(q),
                jc.joint.constraint_subspace(q),
                e,
                _Ad(_frame_inverse(jc.child_frame)),
                A_parent,
            )
        )
    return states


def _joint_states_at(system: System, T: np.ndarray, q0) -> tuple[list[_JointState], tuple]:
    """The joint states at validated frames ``T`` (warm start ``q0``) and their batch shape.

    A simulation asks twice for the same frames: a step records the joint variables at its end,
    and the next step starts from them, warm-started by exactly the ``q̂`` just recovered, where
    Gauss–Newton stops at once with the same residual.  That second call returns the states of
    the first (the last call's frames, ``q̂`` and states are kept on the system).
    """
    last = system.__dict__.get("_last_joint_states")
    if (
        last is not None
        and q0 is not None
        and len(last[2]) == len(system.joints)
        and np.shape(q0) == last[1].shape
        and np.array_equal(T, last[0])
        and np.array_equal(q0, last[1])
    ):
        return last[2], last[3]
    states = _joint_states(system, T, _check_q0(system, q0, T.shape[:-3]))
    batch = np.broadcast_shapes(T.shape[:-3], *(s.q.shape[:-1] for s in states))
    q_hat = _stack_q(system, states, batch)
    system.__dict__["_last_joint_states"] = (np.array(T), q_hat, states, batch)
    return states, batch


def _assemble_G(system: System, states: list[_JointState], batch: tuple) -> np.ndarray:
    """Constraint matrix ``G (..., m, 6N)``: joint ``j``'s rows ``T_cᵀ [-A_parent, A_child]``."""
    G = np.zeros(batch + (system.m, 6 * system.N))
    for jc, st in zip(system.joints, states, strict=True):
        Tct = _T(st.T_c)
        c = 6 * (jc.child - 1)  # body b owns columns 6(b - 1) … 6b - 1
        G[..., jc.rows, c : c + 6] = Tct @ st.A_child
        if jc.parent != 0:
            p = 6 * (jc.parent - 1)
            G[..., jc.rows, p : p + 6] = -Tct @ st.A_parent
    return G


def _errors(system: System, states: list[_JointState], batch: tuple) -> np.ndarray:
    g = np.zeros(batch + (system.m,))
    for jc, st in zip(system.joints, states, strict=True):
        g[..., jc.rows] = _mv(_T(st.T_c), st.e)
    return g


def _stack_q(system: System, states: list[_JointState], batch: tuple) -> np.ndarray:
    q = np.zeros(batch + (system.nq,))
    for jc, st in zip(system.joints, states, strict=True):
        q[..., jc.q_index] = st.q
    return q


def joint_coordinates(system: System, T, phi=None, q0=None):
    """Joint variables ``q̂`` (and velocities ``α``) that reproduce the bodies' relative motion.

    ``q̂`` of each joint comes from Gauss–Newton on SE(3) (module docstring); the velocity
    variables are ``α = S⁺ v_rel``, the least-squares fit of the relative twist.  For a system
    built by :func:`spatial.maximal.from_model` these are the tree's ``(q, q̇)``.

    Parameters
    ----------
    system : System
    T : array_like, shape (..., N, 4, 4)
        Body frames (world from body).
    phi : array_like, shape (..., N, 6), optional
        Body twists; if given, the velocity variables are returned too.
    q0 : array_like, shape (..., nq), optional
        Warm start (default: every joint at its neutral position).  Needed for joints that have
        turned by more than half a revolution when the pose alone is ambiguous (helical, rack
        and pinion).

    Returns
    -------
    q : ndarray, shape (..., nq)
    qd : ndarray, shape (..., nv)
        Only if ``phi`` is given.

    Raises
    ------
    ValueError
        If a state array does not match the system, or the joint variables cannot be recovered
        (a joint far from its constraint).
    """
    T, phi = _check_system_state(system, T, phi)
    states, batch = _joint_states_at(system, T, q0)
    q = _stack_q(system, states, batch)
    if phi is None:
        return q
    qd = np.zeros(q.shape[:-1] + (system.nv,))
    for jc, st in zip(system.joints, states, strict=True):
        v_rel = _mv(st.A_child, phi[..., jc.child - 1, :])
        if jc.parent != 0:
            v_rel = v_rel - _mv(st.A_parent, phi[..., jc.parent - 1, :])
        qd[..., jc.v_index] = _mv(np.linalg.pinv(st.S), v_rel)
    return q, qd


def constraint_jacobian(system: System, T, q0=None) -> np.ndarray:
    """The joint constraint matrix ``G`` with ``ġ = G Φ`` (Sueda eqs. 1.69–1.70, 1.81).

    Joint ``j`` fills its rows ``system.joints[j].rows`` with ``T_cᵀ Ad(T_s,child)`` in the child's
    columns and ``-T_cᵀ Ad(T_s,parent)`` in the parent's (module docstring).

    Parameters
    ----------
    system : System
    T : array_like, shape (..., N, 4, 4)
    q0 : array_like, shape (..., nq), optional
        Warm start for the joint variables (:func:`joint_coordinates`).

    Returns
    -------
    ndarray, shape (..., m, 6N)

    Raises
    ------
    ValueError
        As :func:`joint_coordinates`.
    """
    T, _ = _check_system_state(system, T)
    return _assemble_G(system, *_joint_states_at(system, T, q0))


def constraint_error(system: System, T, q0=None) -> np.ndarray:
    """Position-level joint errors ``g = T_cᵀ log(T_J(q̂)⁻¹ T_ps)`` (Sueda §1.12, eq. 1.81).

    Zero when every joint is intact; its derivative along ``T_b ← T_b exp([δ_b])`` is ``G δ`` on
    the constraint manifold (:func:`constraint_jacobian`).  Angular rows are in radians and
    linear rows in metres, in each joint's F_s coordinates.

    Parameters
    ----------
    system : System
    T : array_like, shape (..., N, 4, 4)
    q0 : array_like, shape (..., nq), optional
        Warm start for the joint variables.

    Returns
    -------
    ndarray, shape (..., m)

    Raises
    ------
    ValueError
        As :func:`joint_coordinates`.
    """
    T, _ = _check_system_state(system, T)
    return _errors(system, *_joint_states_at(system, T, q0))
