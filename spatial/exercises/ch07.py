"""Checkers for the exercises of notebook 07, "Articulated bodies: ABA".

07.1  the articulated inertia of a handle with one child body (Featherstone eqs. 7.19, 7.47);
07.2  one joint's acceleration from its articulated body (eqs. 7.30, 7.49);
07.3  one semi-implicit Euler step for a batch of states with ``aba`` and ``model.integrate``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import builders
from ..dynamics import aba, articulated_inertia
from ..vectors import crm

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


CHECKS = {
    "07.1": check_handle_inertia,
    "07.2": check_joint_acceleration,
    "07.3": check_euler_step,
}
