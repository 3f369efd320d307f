"""Tests of the floating-base algorithms (Featherstone §9.3–9.5, Tables 9.4–9.6, Ex. 9.3–9.4).

Oracles: the fixed-base algorithms applied to the same tree with a Free root joint (the Free
joint's ``S = 1`` makes its velocity and acceleration variables the base's spatial velocity and
acceleration, §9.3), momentum and kinetic energy summed body by body, conservation of momentum
along a simulated trajectory, and Newton's law for the centroidal momentum.
"""

import numpy as np
import pytest

import spatial as sp
from spatial import builders
from spatial.dynamics import aba, bias_force, crba, rnea
from spatial.dynamics.floating import (
    centroidal_momentum,
    centroidal_momentum_matrix,
    floating_aba,
    floating_coefficients,
    floating_forward_dynamics,
    floating_inverse_dynamics,
    floating_jacobian,
    floating_momentum,
)
from spatial.vectors import apply_force, xlt

TOL = 1e-10
JOINTS = ("R", "P", "H", "C", "S", "SY", "PL", "F", "RP", "~RP")


def rel_err(a, b) -> float:
    return float(np.abs(np.asarray(a) - b).max() / (1.0 + np.abs(b).max()))


def models(rng):
    return [
        builders.random_tree(rng, 10, joints=JOINTS, floating=True),
        builders.random_tree(rng, 6, joints=("R",), floating=True, branching=0.0),
        builders.humanoid(floating=True),
        builders.floating_base(builders.arm7(), inertia=sp.cuboid_inertia(5.0, 0.3, 0.3, 0.2)),
    ]


def random_state(model, rng, batch=(3,), forces=True):
    q = model.random_configuration(rng, batch)
    qd = rng.standard_normal(batch + (model.nv,))
    tau = rng.standard_normal(batch + (model.nv - 6,))
    f_ext = None
    if forces:
        f_ext = rng.standard_normal(batch + (model.NB + 1, 6))
        f_ext[..., 0, :] = 0.0
    return q, qd, tau, f_ext


def with_base(x):
    """Prepend six zeros (the unactuated base) to joint-space arrays."""
    return np.concatenate([np.zeros(x.shape[:-1] + (6,)), x], -1)


# ----------------------------------------------------------------------------- Tables 9.4–9.6


def test_floating_aba_matches_fixed_base_aba(rng):
    for model in models(rng):
        q, qd, tau, f_ext = random_state(model, rng)
        expected = aba(model, q, qd, with_base(tau), f_ext)
        a0, qdd = floating_aba(model, q, qd, tau, f_ext)
        assert rel_err(a0, expected[..., :6]) < TOL
        assert rel_err(qdd, expected[..., 6:]) < TOL


def test_coefficients_are_the_fixed_base_H_and_C(rng):
    """Eq. 9.11 = eq. 9.13: the blocks of the Free-root model's H and C."""
    for model in models(rng):
        q, qd, _, f_ext = random_state(model, rng)
        I0c, F, H, p0c, C = floating_coefficients(model, q, qd, f_ext)
        H_full, C_full = crba(model, q), bias_force(model, q, qd, f_ext)
        assert rel_err(I0c, H_full[..., :6, :6]) < TOL
        assert rel_err(F, H_full[..., :6, 6:]) < TOL
        assert rel_err(H, H_full[..., 6:, 6:]) < TOL
        assert rel_err(p0c, C_full[..., :6]) < TOL
        assert rel_err(C, C_full[..., 6:]) < TOL


def test_composite_inertia_is_the_sum_of_body_inertias(rng):
    """I_0^c = Σ_i ^iX_1ᵀ I_i ^iX_1, summed body by body here."""
    model = builders.humanoid(floating=True)
    q = model.random_configuration(rng)
    X0 = sp.forward_kinematics(model, q)
    X_i1 = [X0[i] @ sp.xinv(X0[1]) for i in range(model.NB + 1)]
    expected = sum(X_i1[i].T @ model.inertia[i] @ X_i1[i] for i in range(1, model.NB + 1))
    I0c = floating_coefficients(model, q, np.zeros(model.nv)).I0c
    assert rel_err(I0c, expected) < TOL


def test_floating_forward_dynamics_matches_aba(rng):
    for model in models(rng):
        q, qd, tau, f_ext = random_state(model, rng)
        expected = aba(model, q, qd, with_base(tau), f_ext)
        a0, qdd = floating_forward_dynamics(model, q, qd, tau, f_ext)
        assert rel_err(a0, expected[..., :6]) < 1e-9
        assert rel_err(qdd, expected[..., 6:]) < 1e-9


def test_floating_inverse_dynamics_is_consistent_with_forward_dynamics(rng):
    for model in models(rng):
        q, qd, _, f_ext = random_state(model, rng)
        qdd = rng.standard_normal(q.shape[:-1] + (model.nv - 6,))
        a0, tau = floating_inverse_dynamics(model, q, qd, qdd, f_ext)
        back = aba(model, q, qd, with_base(tau), f_ext)
        assert rel_err(back[..., :6], a0) < 1e-9
        assert rel_err(back[..., 6:], qdd) < 1e-9
        # and the base needs no force: rnea on the full state gives [0; τ]
        full = rnea(model, q, qd, np.concatenate([a0, qdd], -1), f_ext)
        assert rel_err(full, with_base(tau)) < 1e-9


def test_gravity_alone_accelerates_a_still_system_uniformly(rng):
    """At rest with τ = 0, every body falls with a_g: a_0 = ^1X_0 a_g and q̈ = 0."""
    model = builders.humanoid(floating=True)
    q = model.random_configuration(rng)
    a0, qdd = floating_aba(model, q, np.zeros(model.nv), np.zeros(model.nv - 6))
    X_10 = sp.forward_kinematics(model, q)[1]
    np.testing.assert_allclose(qdd, 0.0, atol=1e-12)
    np.testing.assert_allclose(a0, X_10 @ model.a_grav, atol=1e-12)


def test_batched_equals_looped(rng):
    model = builders.random_tree(rng, 7, joints=JOINTS, floating=True)
    q, qd, tau, f_ext = random_state(model, rng, (2, 2))
    results = [
        floating_aba(model, q, qd, tau, f_ext),
        floating_inverse_dynamics(model, q, qd, tau, f_ext),
        floating_coefficients(model, q, qd, f_ext),
    ]
    for idx in np.ndindex(2, 2):
        single = [
            floating_aba(model, q[idx], qd[idx], tau[idx], f_ext[idx]),
            floating_inverse_dynamics(model, q[idx], qd[idx], tau[idx], f_ext[idx]),
            floating_coefficients(model, q[idx], qd[idx], f_ext[idx]),
        ]
        for batched, looped in zip(results, single, strict=True):
            for x, y in zip(batched, looped, strict=True):
                assert rel_err(x[idx], y) < 1e-12


# ----------------------------------------------------------------------------- Examples 9.3–9.4


def test_momentum_and_kinetic_energy(rng):
    """Example 9.3: Σ I_i v_i = I_0^c v_0 + F q̇ and T = ½ [v_0; q̇]ᵀ [[I0c, F], [Fᵀ, H]] [v_0; q̇]."""
    for model in models(rng):
        q, qd, _, _ = random_state(model, rng, (2,), forces=False)
        h = floating_momentum(model, q, qd)
        X0 = sp.forward_kinematics(model, q)
        v = sp.body_velocities(model, q, qd)
        by_body = 0.0
        for i in range(1, model.NB + 1):  # Σ ^1X_i* I_i v_i, with ^1X_i* = (^iX_1)ᵀ
            X_i1 = X0[..., i, :, :] @ sp.xinv(X0[..., 1, :, :])
            by_body = by_body + apply_force(sp.xinv(X_i1), v[..., i, :] @ model.inertia[i].T)
        assert rel_err(h, by_body) < TOL
        # in world coordinates it is kinematics.momentum
        assert rel_err(apply_force(sp.xinv(X0[..., 1, :, :]), h), sp.momentum(model, q, qd)) < TOL
        I0c, F, H, _, _ = floating_coefficients(model, q, qd)
        M = np.concatenate(
            [np.concatenate([I0c, F], -1), np.concatenate([F.swapaxes(-1, -2), H], -1)], -2
        )
        T = 0.5 * np.einsum("...i,...ij,...j->...", qd, M, qd)
        assert rel_err(T, sp.kinetic_energy(model, q, qd)) < TOL


def lie_rk4_step(model, q, v, dt):
    """One step of the commutator-free Lie-group RK4 (Celledoni, Marthinsen & Owren 2003).

    Positions move only through ``model.integrate`` (the exponential map of each joint, so
    quaternions stay unit); velocities follow classical RK4.  Fourth order also for the Free
    joint, whose velocity variables are body-frame twists.
    """

    def f(q_, v_):
        return dt * v_, dt * aba(model, q_, v_, np.zeros(model.nv))

    F1q, F1v = f(q, v)
    q2 = model.integrate(q, F1q, 0.5)
    F2q, F2v = f(q2, v + 0.5 * F1v)
    F3q, F3v = f(model.integrate(q, F2q, 0.5), v + 0.5 * F2v)
    F4q, F4v = f(model.integrate(q2, F3q - 0.5 * F1q, 1.0), v + F3v)
    q_new = model.integrate(q, (3 * F1q + 2 * F2q + 2 * F3q - F4q) / 12, 1.0)
    q_new = model.integrate(q_new, (-F1q + 2 * F2q + 2 * F3q + 3 * F4q) / 12, 1.0)
    return q_new, v + (F1v + 2 * F2v + 2 * F3v + F4v) / 6


def tumble(dt, steps, rng):
    """A floating humanoid tumbling in zero gravity: world momentum, CoM, times and mass."""
    model = builders.humanoid(floating=True)
    model.gravity = np.zeros(3)
    q = model.neutral_configuration()
    q[7:] = rng.uniform(-0.5, 0.5, model.nq - 7)
    v = rng.standard_normal(model.nv)
    h, com = [], []
    for _ in range(steps + 1):
        centroidal = centroidal_momentum(model, q, v)
        h.append(sp.momentum(model, q, v))
        com.append(centroidal.com)
        q, v = lie_rk4_step(model, q, v, dt)
    return np.array(h), np.array(com), dt * np.arange(steps + 1), centroidal.mass


def test_momentum_conserved_and_com_moves_straight_in_zero_gravity():
    rng = np.random.default_rng(9)
    h, com, t, mass = tumble(0.005, 40, rng)
    scale = np.abs(h).max()
    assert np.abs(h - h[0]).max() < 1e-8 * scale  # conserved to integration error
    assert np.abs(h[0]).max() > 1.0  # and not trivially zero
    straight = com[0] + np.outer(t, h[0, 3:] / mass)
    assert np.abs(com - straight).max() < 1e-8 * (1 + np.abs(com).max())


def test_momentum_drift_shrinks_with_the_step():
    """The residual drift is integration error: halving dt divides it by ≈ 16 (4th order)."""
    drift = []
    for dt, steps in ((0.04, 5), (0.02, 10)):
        h, _, _, _ = tumble(dt, steps, np.random.default_rng(9))
        drift.append(np.abs(h[-1] - h[0]).max())
    assert drift[1] < drift[0] / 12


def test_centroidal_quantities(rng):
    for model in models(rng):
        q, qd, _, _ = random_state(model, rng, (2,), forces=False)
        cen = centroidal_momentum(model, q, qd)
        com, mass = sp.center_of_mass(model, q)
        assert cen.mass == pytest.approx(mass, rel=1e-14)
        assert rel_err(cen.com, com) < TOL
        # the centroidal momentum is the world momentum carried to the CoM
        assert rel_err(cen.momentum, apply_force(xlt(com), sp.momentum(model, q, qd))) < TOL
        assert rel_err(cen.momentum[..., 3:], mass * cen.com_velocity) < TOL
        # the composite inertia about the CoM has no first moment: [[I_G, 0], [0, m 1]]
        assert np.abs(cen.inertia[..., :3, 3:]).max() < 1e-10 * np.abs(cen.inertia).max()
        assert np.abs(cen.inertia[..., 3:, 3:] - mass * np.eye(3)).max() < 1e-12 * mass


def test_centroidal_momentum_matrix_sums_the_body_momenta(rng):
    """h_G = A_G q̇ with h_G = Σ_i (I_i v_i about the CoM), body by body in world coordinates."""
    for model in models(rng):
        q, qd, _, _ = random_state(model, rng, (2,), forces=False)
        A = centroidal_momentum_matrix(model, q)
        assert A.shape == (2, 6, model.nv)
        X0 = sp.forward_kinematics(model, q)
        v = sp.body_velocities(model, q, qd, frame="world")
        h_O, mc, mass = 0.0, 0.0, 0.0
        for i in range(1, model.NB + 1):  # world inertia ^0X_i* I_i ^iX_0 times world velocity
            I_world = X0[..., i, :, :].swapaxes(-1, -2) @ model.inertia[i] @ X0[..., i, :, :]
            h_O = h_O + np.einsum("...ij,...j->...i", I_world, v[..., i, :])
            E, r = sp.unplux(X0[..., i, :, :])  # body origin r, axes E (world -> body)
            c_i = model.inertia[i][:3, 3:][[2, 0, 1], [1, 2, 0]] / model.inertia[i][3, 3]
            mc = mc + model.inertia[i][3, 3] * (r + np.einsum("...ji,j->...i", E, c_i))
            mass += model.inertia[i][3, 3]
        c = mc / mass
        L_G = h_O[..., :3] - np.cross(c, h_O[..., 3:])  # L_G = L_O - c × p
        expected = np.concatenate([L_G, h_O[..., 3:]], -1)
        assert rel_err(np.einsum("...ij,...j->...i", A, qd), expected) < TOL
    with pytest.raises(ValueError, match="floating"):
        centroidal_momentum_matrix(builders.arm7(), np.zeros(7))


def test_com_velocity_by_finite_differences(rng):
    model = builders.humanoid(floating=True)
    q, qd, _, _ = random_state(model, rng, (), forces=False)
    eps = 1e-6
    c_plus = sp.center_of_mass(model, model.integrate(q, qd, eps))[0]
    c_minus = sp.center_of_mass(model, model.integrate(q, qd, -eps))[0]
    fd = (c_plus - c_minus) / (2 * eps)
    assert rel_err(centroidal_momentum(model, q, qd).com_velocity, fd) < 1e-8


def test_centroidal_momentum_rate_is_the_external_force(rng):
    """d/dt h_G = [0; m g]: joint torques are internal, gravity acts at the CoM."""
    for model in (builders.humanoid(floating=True), models(rng)[0]):
        q, qd, tau, _ = random_state(model, rng, (), forces=False)
        a0, qdd = floating_aba(model, q, qd, tau)
        qdd_full = np.concatenate([a0, qdd])
        eps = 1e-5
        h = [
            centroidal_momentum(
                model, model.integrate(q, qd, s * eps), qd + s * eps * qdd_full
            ).momentum
            for s in (1, -1)
        ]
        rate = (h[0] - h[1]) / (2 * eps)
        mass = centroidal_momentum(model, q, qd).mass
        expected = np.concatenate([np.zeros(3), mass * model.gravity])
        assert np.abs(rate - expected).max() < 1e-6 * (1 + np.abs(expected).max())


def test_floating_jacobian_gives_the_velocity_change_at_constant_momentum(rng):
    """Example 9.4: δv_i = J_i^fl δq̇ when the base velocity absorbs the change of momentum."""
    model = builders.random_tree(rng, 8, joints=("R", "P", "S"), floating=True)
    q, qd, _, _ = random_state(model, rng, (2,), forces=False)
    dqd = rng.standard_normal((2, model.nv - 6))
    I0c, F, _, _, _ = floating_coefficients(model, q, qd)
    dv0 = -np.linalg.solve(I0c, (F @ dqd[..., None]))[..., 0]
    qd2 = qd + np.concatenate([dv0, dqd], -1)
    assert rel_err(floating_momentum(model, q, qd2), floating_momentum(model, q, qd)) < TOL
    X0 = sp.forward_kinematics(model, q)
    for i in range(1, model.NB + 1):
        X_1i = X0[..., 1, :, :] @ sp.xinv(X0[..., i, :, :])  # body i -> base coordinates
        v = [(X_1i @ sp.body_velocities(model, q, x)[..., i, :, None])[..., 0] for x in (qd, qd2)]
        Jfl = floating_jacobian(model, q, i)
        assert rel_err(v[1] - v[0], (Jfl @ dqd[..., None])[..., 0]) < TOL


# ----------------------------------------------------------------------------- errors


def test_errors(rng):
    fixed = builders.random_tree(rng, 4, joints=("R",))
    q = fixed.random_configuration(rng)
    z = np.zeros(fixed.nv)
    for fn, args in (
        (floating_aba, (q, z, z)),
        (floating_forward_dynamics, (q, z, z)),
        (floating_inverse_dynamics, (q, z, z)),
        (floating_coefficients, (q, z)),
        (floating_momentum, (q, z)),
        (centroidal_momentum, (q, z)),
        (floating_jacobian, (q, 1)),
    ):
        with pytest.raises(ValueError, match="floating base"):
            fn(fixed, *args)
    # a Free joint at body 1 but a second root body: not a single floating system
    two_roots = builders.random_tree(rng, 3, joints=("R",), floating=True)
    two_roots.add_body(0, sp.joints.Revolute("z"), np.eye(6), two_roots.inertia[2])
    with pytest.raises(ValueError, match="floating base"):
        floating_aba(
            two_roots,
            two_roots.random_configuration(rng),
            np.zeros(two_roots.nv),
            np.zeros(two_roots.nv - 6),
        )
    model = builders.humanoid(floating=True)
    q, qd = model.random_configuration(rng), np.zeros(model.nv)
    with pytest.raises(ValueError, match=r"tau must have shape \(\.\.\., 15\)"):
        floating_aba(model, q, qd, np.zeros(model.nv))
    with pytest.raises(ValueError, match=r"qdd must have shape"):
        floating_inverse_dynamics(model, q, qd, np.zeros(3))
    with pytest.raises(ValueError, match="body 0 is the fixed world"):
        floating_jacobian(model, q, 0)
    massless = sp.Model()
    massless.add_body(0, sp.joints.Free(), np.eye(6), np.zeros((6, 6)))
    with pytest.raises(ValueError, match="zero total mass"):
        centroidal_momentum(massless, massless.neutral_configuration(), np.zeros(6))


@pytest.mark.parametrize("child_mass", [0.0, 1.0])
def test_a_massless_floating_system_is_reported_not_nan(child_mass):
    """A floating system without mass has no defined acceleration: ValueError, not NaN."""
    model = sp.Model()
    model.add_body(0, sp.joints.Free(), np.eye(6), np.zeros((6, 6)))
    cx = sp.skew([0.5, 0.0, 0.0])  # a point mass on the joint's x axis, or nothing
    point = child_mass * np.block([[cx @ cx.T, cx], [cx.T, np.eye(3)]])
    model.add_body(1, sp.joints.Revolute("z"), np.eye(6), point)
    q, qd = model.neutral_configuration(), np.zeros(model.nv)
    with pytest.raises(ValueError, match="articulated-body inertia .* is singular"):
        floating_aba(model, q, qd, [0.0])
    with pytest.raises(ValueError, match="composite inertia .* I_0\\^c, is singular"):
        floating_inverse_dynamics(model, q, qd, [0.0])


def test_exercise_09_4_checker_accepts_the_answer_and_rejects_a_sign_error():
    from spatial.exercises.ch09 import CHECKS

    CHECKS["09.4"](lambda h, c: np.concatenate([h[:3] - np.cross(c, h[3:]), h[3:]]))
    with pytest.raises(AssertionError):
        CHECKS["09.4"](lambda h, c: np.concatenate([h[:3] + np.cross(c, h[3:]), h[3:]]))
