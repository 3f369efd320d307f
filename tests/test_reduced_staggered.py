"""Staggered projections and BISP (Sueda §2.11, Algs. 7–8).

Oracles: Featherstone's RNEA joint forces (``joint_forces``); the closed-form stopping distance
``v²/(2 μ g)`` of a sliding block; the package's ``box_friction`` solver on the same contact
problem; a plain REDMAX step (``redmax_step``); the closed-form deceleration ``μ m g r / I`` of
a wheel on a frictional pin.
"""

import numpy as np
import pytest

import spatial as sp
from spatial import builders
from spatial.dynamics import joint_forces
from spatial.inertia import cuboid_inertia, cylinder_inertia
from spatial.joints import Prismatic, Revolute
from spatial.reduced import (
    JointFriction,
    PointContact,
    bisp_step,
    constraint_rows,
    joint_reaction_forces,
    redmax_step,
    revolute_friction,
    staggered_step,
)
from spatial.solvers import LCPError, box_friction

G = 9.81


def sliding_block(mass=2.0):
    """A block on two prismatic joints (x, then z): it slides along x on the floor z = 0."""
    model = sp.Model(gravity=[0.0, 0.0, -G])
    model.add_body(0, Prismatic("x"), np.eye(6), np.zeros((6, 6)))
    model.add_body(1, Prismatic("z"), np.eye(6), cuboid_inertia(mass, 0.2, 0.2, 0.2))
    return model


FLOOR = [PointContact(2, (0.0, 0.0, 0.0))]


def test_joint_reactions_equal_rnea_joint_forces():
    rng = np.random.default_rng(0)
    model = builders.random_tree(rng, 7, joints=("R", "P", "S", "H"))
    q = model.random_configuration(rng)
    qd, qdd = rng.standard_normal((2, model.nv))
    f = rng.standard_normal((model.NB + 1, 6))
    f[0] = 0.0
    ref = joint_forces(model, q, qd, qdd, f)[1:]
    got = joint_reaction_forces(model, q, qd, qdd, f)
    assert np.abs(got - ref).max() <= 1e-10 * (1 + np.abs(ref).max())


@pytest.mark.parametrize("mu, v0", [(0.5, 2.0), (0.2, 1.0)])
def test_sliding_block_stops_at_v2_over_2_mu_g(mu, v0):
    model, h = sliding_block(), 4e-3
    q, qd = np.zeros(2), np.array([v0, 0.0])
    for _ in range(int(1.5 * v0 / (mu * G) / h)):
        q, res = staggered_step(model, q, qd, h, FLOOR, mu)
        qd = res.qd
    assert abs(qd[0]) <= 1e-12 and abs(q[1]) <= 1e-12  # stopped, on the floor
    assert abs(q[0] - v0**2 / (2 * mu * G)) <= v0 * h  # within one step's travel


def test_staggered_projections_agree_with_box_friction_at_convergence():
    model, h, mu = sliding_block(), 1e-2, 0.3
    q, qd = np.zeros(2), np.array([0.05, -0.2])  # landing while sliding slowly: friction sticks
    _, res = staggered_step(model, q, qd, h, FLOOR, mu)
    M = sp.reduced.redmax_mass_matrix(model, q)
    f = sp.reduced.redmax_force(model, q, qd)
    rows = constraint_rows(model, q, qd, FLOOR + [PointContact(2, (0, 0, 0), (1.0, 0.0, 0.0))])
    W = rows.G @ np.linalg.solve(M, rows.G.T)
    u = rows.G @ (qd + h * np.linalg.solve(M, f))
    ref = box_friction(W, u, mu, tangent_dim=1, normal_impulse=res.alpha)
    assert np.allclose(ref.normal, res.alpha, atol=1e-10)
    assert np.allclose(ref.tangent.ravel(), res.beta, atol=1e-10)
    assert np.allclose(res.qd, 0.0, atol=1e-12)  # it lands and sticks


def test_staggered_bad_input_and_non_convergence():
    model = sliding_block()
    with pytest.raises(ValueError, match="mu must be >= 0"):
        staggered_step(model, np.zeros(2), np.ones(2), 0.01, FLOOR, -0.1)
    with pytest.raises(LCPError, match="did not converge"):
        staggered_step(model, np.zeros(2), np.array([1.0, 0.0]), 0.01, FLOOR, 0.5, max_iter=1)
    with pytest.raises(TypeError, match="contacts must be"):
        staggered_step(model, np.zeros(2), np.ones(2), 0.01, [object()], 0.5)


def wheel(mass=3.0, radius=0.4):
    model = sp.Model(gravity=[0.0, -G, 0.0])
    model.add_body(0, Revolute("z"), np.eye(6), cylinder_inertia(mass, radius, 0.05))
    return model


def test_spinning_wheel_on_a_frictional_pin_decelerates_at_mu_m_g_r_over_i():
    m, R, r, mu, h = 3.0, 0.4, 0.02, 0.3, 0.01
    model = wheel(m, R)
    pin = [revolute_friction(1, mu, r)]
    q, qd = np.zeros(1), np.array([10.0])
    steps = 40
    for _ in range(steps):
        q, res = bisp_step(model, q, qd, h, pin)
        qd = res.qd
    decel = mu * m * G * r / (0.5 * m * R**2)
    assert qd[0] == pytest.approx(10.0 - steps * h * decel, abs=1e-9)
    assert np.linalg.norm(res.alpha) == pytest.approx(m * G * h, rel=1e-9)  # the weight


def test_bisp_with_zero_friction_is_a_plain_redmax_step():
    rng = np.random.default_rng(2)
    model = builders.random_tree(rng, 5, joints=("R",))
    q, qd = model.random_configuration(rng), rng.standard_normal(model.nv)
    tau = rng.standard_normal(model.nv)
    pins = [
        revolute_friction(j, 0.0, 0.05, axis=model.joints[j].motion_subspace(q[j - 1])[:3, 0])
        for j in range(1, model.NB + 1)
    ]
    q1, res = bisp_step(model, q, qd, 0.01, pins, tau)
    q_ref, qd_ref = redmax_step(model, q, qd, 0.01, tau)
    assert np.allclose(res.qd, qd_ref, atol=1e-12) and np.allclose(q1, q_ref, atol=1e-12)


def test_bisp_bad_input():
    model = wheel()
    q, qd = np.zeros(1), np.ones(1)
    with pytest.raises(ValueError, match="mu must be >= 0"):
        revolute_friction(1, -0.1, 0.02)
    with pytest.raises(ValueError, match="given twice"):
        bisp_step(model, q, qd, 0.01, [revolute_friction(1, 0.1, 0.02)] * 2)
    with pytest.raises(ValueError, match="shapes \\(k, 6\\)"):
        bisp_step(model, q, qd, 0.01, [JointFriction(1, 0.1, np.ones((2, 5)), np.ones((2, 5)))])
    with pytest.raises(TypeError, match="JointFriction"):
        bisp_step(model, q, qd, 0.01, [None])


def test_bisp_with_a_loop_closure():
    """BISP with an external loop-closing constraint (Sueda §2.11.1): a four-bar with
    frictional ground pivots."""
    from spatial.dynamics import loops

    lengths = (0.3, 1.0, 0.8, 0.9)
    closure = loops.four_bar_closure(*lengths)
    q, Gy, _ = closure.jacobians(np.array([0.8]), np.array([1.3]))
    qd = Gy @ np.array([1.3])
    model = builders.four_bar(*lengths).spanning_tree()  # REDMAX closes the loop with `pin`
    pin = [sp.reduced.PointConstraint(2, (1.0, 0, 0), 3, (0.8, 0, 0), axis=(0, 0, 1))]
    h = 0.01
    # without friction: the constrained velocity step
    pivots0 = [revolute_friction(j, 0.0, 0.05) for j in (1, 3)]
    _, free = bisp_step(model, q, qd, h, pivots0, None, pin, stabilization=1.0)
    _, ref = sp.reduced.constrained_step(model, q, qd, h, None, pin, stabilization=1.0)
    assert np.allclose(free.qd, ref.qdd, atol=1e-12)
    # with friction the loop still holds and the linkage loses kinetic energy
    pivots = [revolute_friction(j, 0.5, 0.05) for j in (1, 3)]
    _, rub = bisp_step(model, q, qd, h, pivots, None, pin, stabilization=1.0)
    rows = constraint_rows(model, q, rub.qd, pin)
    assert np.allclose(rows.G @ rub.qd, -rows.error / h, atol=1e-10)
    M = sp.reduced.redmax_mass_matrix(model, q)
    assert rub.qd @ M @ rub.qd < free.qd @ M @ free.qd
    assert np.all(np.abs(rub.beta) > 0)  # both pivots rub


def test_more_staggered_and_bisp_errors():
    model = sliding_block()
    q, qd = np.zeros(2), np.array([1.0, 0.0])
    with pytest.raises(ValueError, match="γ must be in"):
        staggered_step(model, q, qd, 0.01, FLOOR, 0.5, stabilization=1.5)
    with pytest.raises(ValueError, match="max_iter"):
        staggered_step(model, q, qd, 0.01, FLOOR, 0.5, max_iter=0)
    with pytest.raises(ValueError, match="tol"):
        staggered_step(model, q, qd, 0.01, FLOOR, 0.5, tol=-1.0)
    w = wheel()
    with pytest.raises(ValueError, match="radius"):
        revolute_friction(1, 0.1, 0.0)
    with pytest.raises(ValueError, match="axis must be nonzero"):
        revolute_friction(1, 0.1, 0.02, axis=(0, 0, 0))
    bad_mu = JointFriction(1, -0.5, np.ones((1, 6)), np.ones((1, 6)))
    with pytest.raises(ValueError, match="mu of joint 1"):
        bisp_step(w, np.zeros(1), np.ones(1), 0.01, [bad_mu])
    with pytest.raises(LCPError, match="BISP did not converge"):
        bisp_step(w, np.zeros(1), np.ones(1), 0.01, [revolute_friction(1, 0.1, 0.02)], max_iter=1)
    with pytest.raises(ValueError, match="γ must be in"):
        bisp_step(w, np.zeros(1), np.ones(1), 0.01, [], stabilization=-0.1)


def test_bisp_with_external_frictional_contact_equals_staggered_projections():
    """No joint friction and one frictional floor contact: BISP is SP (Sueda §2.11.1)."""
    model, h, mu = sliding_block(), 4e-3, 0.4
    qa = qb = np.array([0.0, 0.02])
    qda = qdb = np.array([1.5, -0.3])  # lands while sliding, then slides and stops
    for _ in range(120):
        qa, ra = staggered_step(model, qa, qda, h, FLOOR, mu)
        qb, rb = bisp_step(model, qb, qdb, h, [], contacts=FLOOR, mu_contacts=mu)
        qda, qdb = ra.qd, rb.qd
        assert np.allclose(qb, qa, atol=1e-10) and np.allclose(qdb, qda, atol=1e-10)
    assert abs(qda[0]) < 1e-12 and abs(qa[1]) < 1e-12  # stopped on the floor
    with pytest.raises(ValueError, match="mu_contacts must be >= 0"):
        bisp_step(model, qa, qda, h, [], contacts=FLOOR, mu_contacts=-1.0)


def test_wheel_on_a_frictional_pin_and_a_floor():
    """Joint friction and external contact together: a wheel on a frictional pin whose (massless)
    vertical slider rests on the floor.  The pin carries the wheel's weight to the slider, so the
    wheel slows at μ m g r / I, and the floor's impulse is the weight."""
    m, R, r, mu, h = 3.0, 0.4, 0.02, 0.3, 0.01
    model = sp.Model(gravity=[0.0, -G, 0.0])
    model.add_body(0, Prismatic("y"), np.eye(6), np.zeros((6, 6)))
    model.add_body(1, Revolute("z"), np.eye(6), cylinder_inertia(m, R, 0.05))
    floor = [PointContact(1, (0.0, -R, 0.0), normal=(0.0, 1.0, 0.0), height=0.0)]
    q, qd = np.array([R, 0.0]), np.array([0.0, 5.0])
    _, res = bisp_step(model, q, qd, h, [revolute_friction(2, mu, r)], contacts=floor)
    decel = mu * m * G * r / (0.5 * m * R**2)
    assert res.qd[1] == pytest.approx(5.0 - h * decel, abs=1e-9) and abs(res.qd[0]) < 1e-12
    assert res.alpha[-1] == pytest.approx(m * G * h)


def test_indices_and_friction_coefficients_are_checked_exactly():
    model = wheel()
    q, qd = np.zeros(1), np.ones(1)
    with pytest.raises(ValueError, match="joint must be a positive integer, got 1.5"):
        revolute_friction(1.5, 0.1, 0.02)  # int(1.5) was joint 1
    bad = JointFriction(1.5, 0.1, np.zeros((2, 6)), np.zeros((1, 6)))
    with pytest.raises(ValueError, match="JointFriction joint must be an integer, got 1.5"):
        bisp_step(model, q, qd, 0.01, [bad])
    with pytest.raises(ValueError, match="^normals of joint 1 must be real"):
        bisp_step(
            model, q, qd, 0.01, [JointFriction(1, 0.1, np.zeros((2, 6)) + 0j, np.zeros((1, 6)))]
        )
    block = sliding_block()
    with pytest.raises(ValueError, match="max_iter must be a positive integer, got 2.5"):
        staggered_step(block, np.zeros(2), np.ones(2), 0.01, FLOOR, 0.1, max_iter=2.5)
    with pytest.raises(ValueError, match="^mu must be real"):
        staggered_step(block, np.zeros(2), np.ones(2), 0.01, FLOOR, 0.1 + 0j)
    with pytest.raises(ValueError, match="mu must be a scalar or a vector of length 1"):
        staggered_step(block, np.zeros(2), np.ones(2), 0.01, FLOOR, [0.1, 0.2])
