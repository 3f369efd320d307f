"""Checkers for the exercises of notebook 07, "Articulated bodies: ABA".

07.1  the articulated inertia of a handle with one child body (Featherstone eqs. 7.19, 7.47);
07.2  one joint's acceleration from its articulated body (eqs. 7.30, 7.49);
07.3  one semi-implicit Euler step for a batch of states with ``aba`` and ``model.integrate``;
07.4  (predict) the acceleration of Example 7.1's box under a push: the apparent mass per direction;
07.5  (model) the trunk's angular acceleration when one knee motor of the quadruped applies 1 N m.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import builders, joints
from ..dynamics import aba, articulated_inertia
from ..model import Model
from ..urdf import example_robot
from ..vectors import crm
from . import check_number

__all__ = ["CHECKS"]


def _compare(got, expected, what: str, tol: float = 1e-9) -> None:
    got = np.asarray(got, dtype=float)
    if got.shape != expected.shape:
        raise AssertionError(f"{what}: expected shape {expected.shape}, got {got.shape}")
    err = np.abs(got - expected).max()
    if not err <= tol * max(1.0, np.abs(expected).max()):
        raise AssertionError(
            f"{what}: largest difference {err:.3g}.\nexpected\n{expected}\ngot\n{got}"
        )


def _two_body_chains(rng: np.random.Generator):
    """Two-body chains (body 2 hangs from body 1) with 1-, 2- and 3-DoF second joints."""
    for code in ("R", "C", "S"):
        yield builders.random_tree(rng, 2, joints=(code,), branching=0.0)


def check_handle_inertia(handle_inertia: Callable) -> None:
    """07.1: ``handle_inertia(I1, I2, S, Xup)`` is ``I^A_1`` of a handle with one child."""
    rng = np.random.default_rng(701)
    for model in _two_body_chains(rng):
        q = model.random_configuration(rng)
        joint = model.joints[2]
        q2 = q[model.q_index[2]]
        Xup = joint.transform(q2) @ model.X_tree[2]
        S = joint.motion_subspace(q2)
        expected = articulated_inertia(model, q)[1]
        got = handle_inertia(model.inertia[1], model.inertia[2], S, Xup)
        _compare(got, expected, f"I^A of the handle, child joint {joint!r} (S is 6x{S.shape[1]})")


def check_joint_acceleration(joint_acceleration: Callable) -> None:
    """07.2: ``joint_acceleration(IA, pA, S, tau, a_prime)`` is eq. 7.49's ``q̈_i``."""
    rng = np.random.default_rng(702)
    for code in ("R", "H", "C", "S"):
        model = builders.random_tree(rng, 1, joints=(code,))  # one body: I^A = I, p^A = p
        q = model.random_configuration(rng)
        qd, tau = rng.standard_normal(model.nv), rng.standard_normal(model.nv)
        X_J, S, v_J, c_J = model.joints[1].jcalc(q, qd)
        Xup = X_J @ model.X_tree[1]
        v = v_J  # the base does not move
        I = model.inertia[1]
        pA = -crm(v).T @ (I @ v)  # v ×* I v
        a_prime = Xup @ (-model.a_grav) + c_J + crm(v) @ v_J
        expected = aba(model, q, qd, tau)
        got = joint_acceleration(I, pA, S, tau, a_prime)
        _compare(got, expected, f"q̈ of a {model.joints[1]!r} joint")


def check_euler_step(euler_step: Callable) -> None:
    """07.3: ``euler_step(model, q, qd, h)`` advances a batch by one semi-implicit Euler step."""
    rng = np.random.default_rng(703)
    model = builders.random_tree(rng, 4, joints=("R", "S"), floating=True)
    q = model.random_configuration(rng, (5,))
    qd = rng.standard_normal((5, model.nv))
    h = 0.01
    qd_new = qd + h * aba(model, q, qd, np.zeros(model.nv))
    q_new = model.integrate(q, qd_new, h)
    out = euler_step(model, q, qd, h)
    if not (isinstance(out, tuple) and len(out) == 2):
        raise AssertionError("euler_step must return a pair (q_new, qd_new)")
    _compare(out[1], qd_new, "new velocities (q̇ + h q̈, with q̈ from one batched aba call)")
    _compare(
        out[0],
        q_new,
        "new positions: move with the *new* velocity, through model.integrate (quaternions!)",
    )


#: Exercise 07.4: Example 7.1's box and cylinder (kg, kg m²), and the push on the box (N).
SLOT_M1, SLOT_I1, SLOT_M2, SLOT_I2 = 3.0, 0.4, 1.5, 0.1
PUSH = (6.0, 6.0, 0.0)


def slot_model() -> Model:
    """Example 7.1 as notebook 07 builds it: a free box; a cylinder slides in y, spins about x."""
    slot = Model(gravity=[0.0, 0.0, 0.0])
    box = slot.add_body(0, joints.Free(), np.eye(6), np.diag([SLOT_I1] * 3 + [SLOT_M1] * 3))
    slider = slot.add_body(box, joints.Prismatic("y"), np.eye(6), np.zeros((6, 6)))
    slot.add_body(slider, joints.Revolute("x"), np.eye(6), np.diag([SLOT_I2] * 3 + [SLOT_M2] * 3))
    return slot


def check_slot_push(value) -> None:
    """07.4: the box's acceleration ``(a_x, a_y)`` (m/s²) under :data:`PUSH` at its centre."""
    slot = slot_model()
    f_ext = np.zeros((slot.NB + 1, 6))
    f_ext[1, 3:] = PUSH  # a force through the box's centre, at the world origin
    zero = np.zeros(slot.nv)
    expected = aba(slot, slot.neutral_configuration(), zero, zero, f_ext)[3:5]
    check_number(
        value,
        expected,
        what="the box's acceleration (a_x, a_y) in m/s²",
        reread="§1 of this notebook (Example 7.1: which pushes move the cylinder along); "
        "Featherstone §7.1",
        rtol=1e-2,
    )


#: Exercise 07.5: the quadruped's pose (leg joints: hip, thigh, knee, repeated; rad), the knee.
LEG_POSE, KNEE_BODY, KNEE_TORQUE = (0.0, 0.8, -1.6), 4, 1.0


def quadruped():
    """The quadruped of notebook 07 (Solo-12, or the stand-in), loaded as the notebook does."""
    return example_robot("solo12.urdf", builders.quadruped, quiet=True, floating=True)


def quadruped_pose(model) -> np.ndarray:
    """The pose of section 3: the trunk at the neutral pose, the legs bent by :data:`LEG_POSE`."""
    q = model.neutral_configuration()
    q[7:] = np.resize(LEG_POSE, model.nq - 7)
    return q


def check_knee_kick(value) -> None:
    """07.5: ``|ω̇|`` of the trunk (rad/s²) at rest when the knee of body 4 applies 1 N m."""
    model = quadruped()
    tau = np.zeros(model.nv)
    tau[model.v_index[KNEE_BODY]] = KNEE_TORQUE
    qdd = aba(model, quadruped_pose(model), np.zeros(model.nv), tau)
    check_number(
        value,
        np.linalg.norm(qdd[:3]),
        what="the trunk's angular acceleration |ω̇| in rad/s²",
        reread="§3 of this notebook (the algorithm, and the quadruped in free fall); "
        "Featherstone §7.3",
        rtol=1e-2,
    )


CHECKS = {
    "07.1": check_handle_inertia,
    "07.2": check_joint_acceleration,
    "07.3": check_euler_step,
    "07.4": check_slot_push,
    "07.5": check_knee_kick,
}
