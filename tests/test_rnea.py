"""Tests of spatial.dynamics.rnea (Featherstone ch. 5, Tables 5.1–5.2).

Known values come from Lagrangian equations of motion derived by hand for pendulums; the
spatial algorithm is checked against the 3D-vector original (Table 5.2), against Jacobian
transposes for external forces, against the potential energy for gravity, against the rate of
change of momentum for the base reaction, and against renumbered copies of the same tree.
"""

import numpy as np
import pytest

import spatial as sp
from spatial.builders import (
    double_pendulum,
    gu_chain,
    random_tree,
    renumber,
    simple_pendulum,
)
from spatial.dynamics import bias_force, joint_forces, rnea, rnea_3d

ALL_JOINTS = ("R", "P", "H", "C", "PL", "SY", "S", "FREE", "RP", "F", "~RP", "~H", "~PL", "~S")
TOL = 1e-10


def assert_close(got, expected, tol=TOL):
    """Max-norm error relative to the size of ``expected`` (at least 1)."""
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    err = np.abs(got - expected).max(initial=0.0)
    assert err <= tol * max(1.0, np.abs(expected).max(initial=0.0)), err


@pytest.fixture(params=[0, 1, 2])
def tree(request):
    """A random branched tree with every joint type (floating for param 2) and a random state."""
    rng = np.random.default_rng(500 + request.param)
    model = random_tree(rng, 8, joints=ALL_JOINTS, branching=0.6, floating=request.param == 2)
    q = model.random_configuration(rng)
    return model, q, rng.standard_normal(model.nv), rng.standard_normal(model.nv), rng


def random_f_ext(rng, model, shape=()):
    f = rng.standard_normal(tuple(shape) + (model.NB + 1, 6))
    f[..., 0, :] = 0.0
    return f


# ----------------------------------------------------------------------------- closed forms


def test_simple_pendulum_lagrangian():
    """τ = m l² q̈ + m g l sin q for a point mass on a massless rod (q = 0 hangs down)."""
    l, m, g = 0.8, 1.7, 9.81
    model = simple_pendulum(length=l, mass=m, g=g)
    rng = np.random.default_rng(1)
    q, qd, qdd = rng.uniform(-3, 3, size=(3, 5, 1))
    expected = m * l**2 * qdd + m * g * l * np.sin(q)
    assert_close(rnea(model, q, qd, qdd), expected)
    assert_close(rnea_3d(model, q, qd, qdd), expected)


def test_double_pendulum_lagrangian():
    """The textbook double-pendulum equations (angle q₂ relative to link 1), derived by hand.

    With θ₁ = q₁, θ₂ = q₁ + q₂ and bobs at l₁(sin θ₁, -cos θ₁) and that plus
    l₂(sin θ₂, -cos θ₂), the Lagrangian T - V gives
    H = [[m₁l₁² + m₂(l₁² + l₂² + 2l₁l₂ cos q₂), m₂(l₂² + l₁l₂ cos q₂)], [·, m₂l₂²]],
    velocity terms h(2q̇₁q̇₂ + q̇₂²) and -h q̇₁² with h = -m₂l₁l₂ sin q₂, and gravity
    (m₁ + m₂) g l₁ sin θ₁ + m₂ g l₂ sin θ₂ and m₂ g l₂ sin θ₂.
    """
    (l1, l2), (m1, m2), g = (0.7, 1.3), (1.5, 0.8), 9.81
    model = double_pendulum((l1, l2), (m1, m2), g)
    rng = np.random.default_rng(2)
    for _ in range(5):
        (q1, q2), (qd1, qd2), (qdd1, qdd2) = rng.uniform(-3, 3, size=(3, 2))
        c2, h = np.cos(q2), -m2 * l1 * l2 * np.sin(q2)
        H11 = m1 * l1**2 + m2 * (l1**2 + l2**2 + 2 * l1 * l2 * c2)
        H12, H22 = m2 * (l2**2 + l1 * l2 * c2), m2 * l2**2
        s1, s12 = np.sin(q1), np.sin(q1 + q2)
        tau1 = H11 * qdd1 + H12 * qdd2 + h * (2 * qd1 * qd2 + qd2**2)
        tau1 += (m1 + m2) * g * l1 * s1 + m2 * g * l2 * s12
        tau2 = H12 * qdd1 + H22 * qdd2 - h * qd1**2 + m2 * g * l2 * s12
        state = ([q1, q2], [qd1, qd2], [qdd1, qdd2])
        assert_close(rnea(model, *state), [tau1, tau2])
        assert_close(rnea_3d(model, *state), [tau1, tau2])


def test_horizontal_pendulum_held_at_its_tip_needs_no_torque():
    """Held horizontal (q = π/2, bob at (l, 0, 0)), a pendulum needs m g l; lifted at the tip, 0."""
    l, m, g = 1.2, 0.9, 9.81
    model = simple_pendulum(length=l, mass=m, g=g)
    assert_close(rnea(model, [np.pi / 2], [0.0], [0.0]), [m * g * l])
    f_ext = np.zeros((2, 6))
    f_ext[1] = sp.point_force([0.0, m * g, 0.0], [l, 0.0, 0.0])  # lift m g at the tip
    assert_close(rnea(model, [np.pi / 2], [0.0], [0.0], f_ext), [0.0])
    # and the joint then carries nothing at all
    assert_close(joint_forces(model, [np.pi / 2], [0.0], [0.0], f_ext), np.zeros((2, 6)))


# ----------------------------------------------------------------------------- Table 5.2


@pytest.mark.parametrize("n", [1, 3, 7])
def test_rnea_3d_equals_rnea_on_gu_chains(n):
    """Table 5.2 (3D vectors, classical accelerations) == Table 5.1 on GU(n), with gravity."""
    rng = np.random.default_rng(10 + n)
    model = gu_chain(n, rng)
    q, qd, qdd = rng.standard_normal((3, 4, n))
    assert_close(rnea_3d(model, q, qd, qdd), rnea(model, q, qd, qdd))


def test_rnea_3d_on_a_branched_revolute_tree_with_massless_body():
    rng = np.random.default_rng(11)
    model = random_tree(rng, 7, joints=("R", "Rx"), branching=0.8)
    model.add_body(3, sp.joints.Revolute("y"), sp.xlt([0.1, 0.2, 0.3]), np.zeros((6, 6)))
    q, qd, qdd = rng.standard_normal((3, model.nv))
    assert_close(rnea_3d(model, q, qd, qdd), rnea(model, q, qd, qdd))


def test_rnea_3d_rejects_other_joints():
    model = random_tree(np.random.default_rng(12), 3, joints=("R",))
    model.add_body(2, sp.joints.Prismatic("x"), np.eye(6), sp.mcI(1.0, np.zeros(3), np.eye(3)))
    with pytest.raises(ValueError, match="revolute joints only; joint 4"):
        rnea_3d(model, np.zeros(4), np.zeros(4), np.zeros(4))


# ----------------------------------------------------------------------------- physics


def test_gravity_terms_are_the_gradient_of_the_potential_energy(tree):
    """rnea(q, 0, 0) · δ = dV/dt along q(t) = integrate(q, δ, t) (Featherstone eq. 3.1)."""
    model, q, _, _, rng = tree
    tau_g = rnea(model, q, np.zeros(model.nv), np.zeros(model.nv))
    h = 1e-6
    for delta in rng.standard_normal((3, model.nv)):
        V_plus = sp.potential_energy(model, model.integrate(q, delta, h))
        V_minus = sp.potential_energy(model, model.integrate(q, delta, -h))
        assert_close((V_plus - V_minus) / (2 * h), tau_g @ delta, tol=1e-7)


def test_external_forces_act_through_jacobian_transposes(tree):
    """A force f_i on body i (base coordinates) changes τ by -J_iᵀ f_i (virtual work)."""
    model, q, qd, qdd, rng = tree
    f_ext = random_f_ext(rng, model)
    expected = rnea(model, q, qd, qdd)
    for i in range(1, model.NB + 1):
        expected = expected - sp.body_jacobian(model, q, i, frame="world").T @ f_ext[i]
    assert_close(rnea(model, q, qd, qdd, f_ext), expected)
    assert_close(bias_force(model, q, qd, f_ext), rnea(model, q, qd, np.zeros(model.nv), f_ext))


def test_zero_motion_and_zero_gravity_give_zero_torque(tree):
    model, q, _, _, _ = tree
    model.gravity = np.zeros(3)
    zero = np.zeros(model.nv)
    assert_close(rnea(model, q, zero, zero), zero, tol=0.0)
    assert_close(bias_force(model, q, zero), zero, tol=0.0)


def test_velocity_terms_are_quadratic(tree):
    """Without gravity and q̈, C(q, s q̇) = s² C(q, q̇) and C(q, -q̇) = C(q, q̇)."""
    model, q, qd, _, _ = tree
    model.gravity = np.zeros(3)
    C = bias_force(model, q, qd)
    assert_close(bias_force(model, q, 2.5 * qd), 6.25 * C)
    assert_close(bias_force(model, q, -qd), C)


def test_joint_forces_project_to_tau(tree):
    model, q, qd, qdd, rng = tree
    f_ext = random_f_ext(rng, model)
    f = joint_forces(model, q, qd, qdd, f_ext)
    tau = rnea(model, q, qd, qdd, f_ext)
    for i in range(1, model.NB + 1):
        S = model.joints[i].motion_subspace(q[model.q_index[i]])
        assert_close(S.T @ f[i], tau[model.v_index[i]])


def test_base_reaction_is_rate_of_momentum_minus_weight():
    """Row 0 of joint_forces = d/dt (total momentum) - gravitational wrench, all in base coords."""
    rng = np.random.default_rng(13)
    model = random_tree(rng, 6, joints=("R", "P", "H"), branching=0.7)
    q, qd, qdd = rng.standard_normal((3, model.nv))
    h = 1e-5

    def momentum(t):  # along q(t) = q + qd t + qdd t²/2 (α = q̇ for these joints)
        return sp.momentum(model, q + qd * t + 0.5 * qdd * t**2, qd + qdd * t)

    h_dot = (momentum(h) - momentum(-h)) / (2 * h)
    com, mass = sp.center_of_mass(model, q)
    weight = np.concatenate([np.cross(com, mass * model.gravity), mass * model.gravity])
    assert_close(joint_forces(model, q, qd, qdd)[0], h_dot - weight, tol=1e-8)


def test_static_base_reaction_carries_the_weight():
    model = sp.builders.humanoid()
    q = model.random_configuration(np.random.default_rng(14))
    f0 = joint_forces(model, q, np.zeros(model.nv), np.zeros(model.nv))[0]
    com, mass = sp.center_of_mass(model, q)
    assert_close(f0[3:], -mass * model.gravity)
    assert_close(f0[:3], np.cross(com, -mass * model.gravity))


# ----------------------------------------------------------------------------- structure


def test_renumbering_permutes_the_result(tree):
    """A different regular numbering of the same tree gives the same torques, permuted."""
    model, q, qd, qdd, rng = tree
    f_ext = random_f_ext(rng, model)
    order = _regular(model, range(model.NB, 0, -1))
    new, q_perm, v_perm = renumber(model, order)
    f_new = np.concatenate([f_ext[:1], f_ext[order]])
    tau = rnea(model, q, qd, qdd, f_ext)
    assert_close(rnea(new, q[q_perm], qd[v_perm], qdd[v_perm], f_new), tau[v_perm])


def _regular(model, preferred):
    """A regular numbering taking the first body of ``preferred`` whose parent is numbered."""
    done, order = {0}, []
    while len(order) < model.NB:
        i = next(i for i in preferred if i not in done and model.parent[i] in done)
        done.add(i)
        order.append(i)
    assert order != list(range(1, model.NB + 1))
    return order


def test_batched_equals_looped(tree):
    model, _, _, _, rng = tree
    q = model.random_configuration(rng, (2, 3))
    qd = rng.standard_normal((3, model.nv))  # broadcasts against (2, 3)
    qdd = rng.standard_normal((2, 1, model.nv))
    f_ext = random_f_ext(rng, model, (2, 3))
    tau = rnea(model, q, qd, qdd, f_ext)
    f = joint_forces(model, q, qd, qdd, f_ext)
    assert tau.shape == (2, 3, model.nv) and f.shape == (2, 3, model.NB + 1, 6)
    for a in range(2):
        for b in range(3):
            state = (q[a, b], qd[b], qdd[a, 0], f_ext[a, b])
            assert_close(tau[a, b], rnea(model, *state))
            assert_close(f[a, b], joint_forces(model, *state))


def test_bad_input_raises():
    model = random_tree(np.random.default_rng(15), 3, joints=("R", "P"))
    z = np.zeros(3)
    with pytest.raises(ValueError, match="q must have shape"):
        rnea(model, np.zeros(2), z, z)
    with pytest.raises(ValueError, match="qdd must have shape"):
        rnea(model, z, z, np.zeros(4))
    with pytest.raises(ValueError, match="qd contains non-finite"):
        bias_force(model, z, [0.0, np.nan, 0.0])
    with pytest.raises(ValueError, match="f_ext must have shape"):
        rnea(model, z, z, z, np.zeros((3, 6)))
    f_ext = np.zeros((4, 6))
    f_ext[0, 2] = 1.0
    with pytest.raises(ValueError, match="row 0 is the fixed base"):
        rnea(model, z, z, z, f_ext)
    with pytest.raises(ValueError, match="batch shapes do not broadcast"):
        rnea(model, np.zeros((2, 3)), np.zeros((3, 3)), z)
    with pytest.raises(ValueError, match="batch shapes do not broadcast"):
        rnea(model, np.zeros((3, 3)), z, z, np.zeros((2, 4, 6)))
    with pytest.raises(ValueError, match="q of joint"):
        rnea(sp.builders.humanoid(floating=True), np.zeros(22), np.zeros(21), np.zeros(21))


# ----------------------------------------------------------------------------- loop joints


def test_rnea_refuses_loop_joints_and_answers_for_the_spanning_tree_on_request(
    four_bar_and_open_tree,
):
    """A model with a loop joint is refused (naming the joint and pointing at the ch. 8
    functions); the open tree's τ, asked for with spanning_tree(), is a hand-built tree's."""
    model, open_tree, q, qd, qdd = four_bar_and_open_tree
    refusal = r"rnea computes .* loop joint \('pin C'\).*loop_forward_dynamics.*spanning_tree\(\)"
    with pytest.raises(ValueError, match=refusal):
        rnea(model, q, qd, qdd)
    for refused in (
        lambda m: bias_force(m, q, qd),
        lambda m: joint_forces(m, q, qd, qdd),
        lambda m: rnea_3d(m, q, qd, qdd),
    ):
        with pytest.raises(ValueError, match="'pin C'"):
            refused(model)
    tree = model.spanning_tree()
    np.testing.assert_allclose(rnea(tree, q, qd, qdd), rnea(open_tree, q, qd, qdd), rtol=1e-13)
    np.testing.assert_allclose(rnea_3d(tree, q, qd, qdd), rnea(open_tree, q, qd, qdd), rtol=1e-12)
