"""Checkers for the exercises of notebook 09, "Hybrid dynamics, floating bases, gears, equivalence".

* 09.1 hybrid dynamics from ``H`` and ``C`` by reordering the equation of motion (eqs. 9.1–9.2);
* 09.2 the floating base's acceleration from the top rows of eq. 9.13 (cf. eq. 9.24);
* 09.3 Table 9.7's ``I_Δ`` for a revolute joint about z, and that it leaves ``rnea`` unchanged;
* 09.4 the spatial momentum about a fixed point carried to the centre of mass (Example 9.3);
* 09.5 (predict) what tripling the gear ratio does to the rotor's diagonal term and to the
  coupling the reflected-inertia shortcut misses (eqs. 9.27–9.28);
* 09.6 (model) how far a floating astronaut's torso turns while one shoulder turns half a
  revolution, at zero momentum (Example 9.4).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import builders
from ..dynamics import (
    apply_inertia_delta,
    bias_force,
    centroidal_momentum,
    crba,
    crba_with_rotors,
    floating_coefficients,
    floating_inverse_dynamics,
    floating_jacobian,
    gear_matrix,
    hybrid_dynamics,
    reflected_inertia,
    revolute_delta,
    rnea,
)
from ..kinematics import momentum
from ..rotations import quat_to_rotvec
from . import assert_close, check_number

__all__ = ["CHECKS"]


def check_hybrid_solve(hybrid_solve: Callable) -> None:
    """09.1: ``hybrid_solve(H, C, tau_known, qdd_known, accel_known)`` returns ``(q̈, τ)``."""
    rng = np.random.default_rng(901)
    for _ in range(3):
        model = builders.random_tree(rng, 6, joints=("R", "P"))  # 1-DoF joints: one var each
        q = model.random_configuration(rng)
        qd, qdd_known, tau_known = rng.standard_normal((3, model.nv))
        accel_known = rng.uniform(size=model.NB) < 0.5
        qdd, tau = hybrid_dynamics(model, q, qd, qdd_known, tau_known, accel_known)
        H, C = crba(model, q), bias_force(model, q, qd)
        out = hybrid_solve(H, C, tau_known, qdd_known, accel_known)
        if not (isinstance(out, tuple) and len(out) == 2):
            raise AssertionError("hybrid_solve must return a pair (qdd, tau)")
        what = f"with accel_known = {accel_known.astype(int)}"
        assert_close(out[0], qdd, f"q̈ {what}")
        assert_close(out[1], tau, f"τ {what}")


def check_base_acceleration(base_acceleration: Callable) -> None:
    """09.2: ``base_acceleration(I0c, F, p0c, qdd)`` is ``a_0`` with ``I0c a_0 + F q̈ + p0c = 0``."""
    rng = np.random.default_rng(902)
    for model in (builders.humanoid(floating=True), builders.random_tree(rng, 5, floating=True)):
        q = model.random_configuration(rng)
        qd = rng.standard_normal(model.nv)
        qdd = rng.standard_normal(model.nv - 6)
        I0c, F, _, p0c, _ = floating_coefficients(model, q, qd)
        a0, _ = floating_inverse_dynamics(model, q, qd, qdd)
        assert_close(base_acceleration(I0c, F, p0c, qdd), a0, "base acceleration a_0")


def check_revolute_delta(delta_z: Callable) -> None:
    """09.3: ``delta_z(m, h, I)`` is Table 9.7's revolute ``I_Δ`` (axis z, ``h = m c_z``)."""
    rng = np.random.default_rng(903)
    for m, h, I in [(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0), (2.0, -0.3, 0.7)]:
        assert_close(delta_z(m, h, I), revolute_delta(m, h, I), f"I_Δ for m={m}, h={h}, I={I}")
    model = builders.random_tree(rng, 4, joints=("Rz",))
    q = model.random_configuration(rng)
    qd, qdd = rng.standard_normal((2, model.nv))
    moved = apply_inertia_delta(model, 3, delta_z(1.5, 0.4, 0.9))
    assert_close(rnea(moved, q, qd, qdd), rnea(model, q, qd, qdd), "rnea after moving I_Δ")


def check_centroidal_from_world(centroidal_from_world: Callable) -> None:
    """09.4: ``centroidal_from_world(h_O, c)`` is ``[L_O - c × p; p]``, the momentum about ``c``."""
    rng = np.random.default_rng(904)
    for model in (builders.humanoid(floating=True), builders.random_tree(rng, 5, floating=True)):
        for _ in range(2):
            q = model.random_configuration(rng)
            qd = 3.0 * rng.standard_normal(model.nv)
            cen = centroidal_momentum(model, q, qd)
            got = centroidal_from_world(momentum(model, q, qd), cen.com)
            assert_close(got, cen.momentum, "momentum about the centre of mass h_G")


def _rotor_terms(rho: float, rotor_inertia: float = 2e-5) -> tuple[float, float]:
    """What the rotors add to the shoulder's inertia and the coupling the shortcut misses."""
    exact = builders.geared_arm(rotor_inertia=rotor_inertia)
    welded = builders.geared_arm(rotor_inertia=rotor_inertia, rotors=False)
    y = np.array([0.4, -0.8])  # the pose of section 4 (the terms do not depend on it)
    G = gear_matrix(4, {1: (0, rho), 3: (2, rho)})
    Hy = G.T @ crba(exact, G @ y) @ G  # eq. 9.26's G^T H G
    shortcut = crba_with_rotors(welded, y, reflected_inertia(rotor_inertia, [rho, rho]))
    return Hy[0, 0] - crba(welded, y)[0, 0], Hy[0, 1] - shortcut[0, 1]


def check_gear_factors(answer) -> None:
    """09.5: ``[growth of the rotor's diagonal term, growth of the missed coupling]``, ρ ×3."""
    low, high = _rotor_terms(50.0), _rotor_terms(150.0)
    check_number(
        answer,
        [high[0] / low[0], high[1] / low[1]],
        what="the two growth factors when ρ goes from 50 to 150",
        reread="§4 of this notebook (eq. 9.27 and the widget) and Featherstone §9.6",
        rtol=1e-2,
    )


#: exercise 09.6: the right shoulder turns by this angle (rad), the astronaut floating at rest
HALF_TURN = np.pi


def floating_turn_angle(steps: int = 100) -> float:
    """Torso rotation (degrees) after the right shoulder of ``humanoid(floating=True)`` turns
    by :data:`HALF_TURN` at zero momentum, every other joint still (midpoint rule in the
    shoulder angle, positions through ``model.integrate``)."""
    model = builders.humanoid(floating=True)
    model.gravity = np.zeros(3)
    rate = np.eye(model.nv - 6)[model.v_index[model.body("r_shoulder")].start - 6]

    def velocity(q):  # [v_0; q̇] per unit shoulder rate: the base recoils (Example 9.4)
        return np.r_[floating_jacobian(model, q, "torso") @ rate, rate]

    q, h = model.neutral_configuration(), HALF_TURN / steps
    for _ in range(steps):
        q = model.integrate(q, velocity(model.integrate(q, velocity(q), h / 2)), h)
    return float(np.degrees(np.linalg.norm(quat_to_rotvec(q[:4]))))


def check_torso_turn(answer) -> None:
    """09.6: the torso's rotation angle in degrees, within 2 %."""
    check_number(
        answer,
        floating_turn_angle(),
        what="the torso's rotation angle in degrees",
        reread="§3 of this notebook (the floating-base Jacobian and the one-revolution turn) "
        "and Featherstone Example 9.4",
        rtol=2e-2,
    )


CHECKS = {
    "09.1": check_hybrid_solve,
    "09.2": check_base_acceleration,
    "09.3": check_revolute_delta,
    "09.4": check_centroidal_from_world,
    "09.5": check_gear_factors,
    "09.6": check_torso_turn,
}
