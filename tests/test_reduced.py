"""Tests of REDMAX in reduced coordinates (Sueda part 2, §2.1–2.3).

Oracles, all independent of :mod:`spatial.reduced`: Featherstone's ``crba``, ``bias_force`` and
``aba``; ``body_jacobian``, ``body_velocities`` and ``body_accelerations`` of
:mod:`spatial.kinematics`; central finite differences of ``J_mr`` along the motion (positions
moved with ``model.integrate``); Euler's equations of a free body written out by hand.
"""

import subprocess
import sys

import numpy as np
import pytest

import spatial as sp
from spatial import builders
from spatial.dynamics import aba, bias_force, crba
from spatial.joints import Joint, Revolute
from spatial.kinematics import body_accelerations, body_jacobian, body_velocities
from spatial.reduced import (
    maximal_bias,
    maximal_mass_matrix,
    redmax_force,
    redmax_forward_dynamics,
    redmax_jacobian,
    redmax_jacobian_dot,
    redmax_mass_matrix,
)

TOL = 1e-10  # relative tolerance for identities between formulations

# nq != nv (S, FREE, PL), q-dependent S (SY, RP), and reversed joints of every kind
MIXED = ("R", "P", "H", "C", "S", "SY", "FREE", "PL", "F", "RP", "~RP", "~H", "~SY", "~PL", "~S")


def rel_err(a, b) -> float:
    return float(np.abs(np.asarray(a) - b).max() / (1.0 + np.abs(b).max()))


def random_state(model, rng, batch=()):
    q = model.random_configuration(rng, batch)
    qd = rng.standard_normal(batch + (model.nv,))
    tau = rng.standard_normal(batch + (model.nv,))
    return q, qd, tau


def random_f_ext(model, rng, batch=()):
    f = rng.standard_normal(batch + (model.NB + 1, 6))
    f[..., 0, :] = 0.0
    return f


def welded_tree(rng):
    """A robot whose root body is welded to the world (Fixed joint), ready for floating_base."""
    from spatial.joints import Fixed, RackPinion, Reversed, SphericalYPR

    model = sp.Model()
    model.add_body(0, Fixed(), builders.random_transform(rng), builders.random_inertia(rng))
    for i, joint in enumerate((Revolute("x"), SphericalYPR(), Reversed(RackPinion(0.5))), 2):
        parent = int(rng.integers(1, i))
        model.add_body(parent, joint, builders.random_transform(rng), builders.random_inertia(rng))
    return model


def trees(rng):
    """Random trees: revolute-only, mixed, a floating base three ways, a chain, Sueda's joints."""
    mixed = builders.random_tree(rng, 7, joints=MIXED)
    return [
        builders.random_tree(rng, 8, joints=("R",)),
        mixed,
        builders.random_tree(rng, 8, joints=MIXED, floating=True),
        builders.floating_base(mixed, inertia=builders.random_inertia(rng)),
        builders.floating_base(welded_tree(rng)),
        builders.random_tree(rng, 6, joints=MIXED, branching=0.0),
        builders.random_tree(rng, 7, joints=("U", "SE", "SX", "PT", "T", "F2", "R")),  # Sueda's zoo
    ]


@pytest.fixture
def models(rng):
    return trees(rng)


# ----------------------------------------------------------------------------- equations of motion


def test_mass_matrix_equals_crba(rng, models):
    for model in models:
        q, _, _ = random_state(model, rng)
        assert rel_err(redmax_mass_matrix(model, q), crba(model, q)) < TOL


def test_force_equals_tau_minus_bias_force(rng, models):
    for model in models:
        q, qd, tau = random_state(model, rng)
        f_ext = random_f_ext(model, rng)
        C = bias_force(model, q, qd, f_ext)
        assert rel_err(redmax_force(model, q, qd, tau, f_ext), tau - C) < TOL
        assert rel_err(redmax_force(model, q, qd), -bias_force(model, q, qd)) < TOL


def test_forward_dynamics_equals_aba(rng, models):
    for model in models:
        q, qd, tau = random_state(model, rng)
        f_ext = random_f_ext(model, rng)
        expected = aba(model, q, qd, tau, f_ext)
        assert rel_err(redmax_forward_dynamics(model, q, qd, tau, f_ext), expected) < TOL
        assert rel_err(redmax_forward_dynamics(model, q, qd, tau), aba(model, q, qd, tau)) < TOL


# ----------------------------------------------------------------------------- the Jacobian


def test_jacobian_row_blocks_are_body_jacobians(rng, models):
    for model in models:
        q, _, _ = random_state(model, rng)
        J = redmax_jacobian(model, q)
        assert J.shape == (6 * model.NB, model.nv)
        for i in range(1, model.NB + 1):
            block = J[6 * (i - 1) : 6 * i]
            assert rel_err(block, body_jacobian(model, q, i, frame="body")) < TOL


def test_twists_are_body_velocities(rng, models):
    for model in models:
        q, qd, _ = random_state(model, rng)
        phi = redmax_jacobian(model, q) @ qd
        v = body_velocities(model, q, qd, frame="body")[1:].reshape(-1)
        assert rel_err(phi, v) < TOL


def test_jacobian_dot_is_a_central_difference_along_the_motion(rng, models):
    h = 1e-5
    for model in models:
        q, qd, _ = random_state(model, rng)
        Jd = redmax_jacobian_dot(model, q, qd)
        J_plus = redmax_jacobian(model, model.integrate(q, qd, h))
        J_minus = redmax_jacobian(model, model.integrate(q, qd, -h))
        fd = (J_plus - J_minus) / (2 * h)
        assert rel_err(Jd, fd) < 1e-7


@pytest.mark.parametrize(
    "code",
    [c for c in MIXED if c != "F"]
    + ["~R", "~P", "~C", "~FREE", "U", "SE", "SX", "PT", "T", "F2", "F3", "~F3"],
)
def test_jacobian_dot_of_each_joint_type(rng, code):
    """Every joint's ``Ṡ`` (constant, q-dependent, reversed, quaternion) in a short chain."""
    model = builders.random_tree(rng, 3, joints=(code,))
    q, qd, _ = random_state(model, rng, (2,))
    h = 1e-5
    fd = (
        redmax_jacobian(model, model.integrate(q, qd, h))
        - redmax_jacobian(model, model.integrate(q, qd, -h))
    ) / (2 * h)
    assert rel_err(redmax_jacobian_dot(model, q, qd), fd) < 1e-7
    tau = rng.standard_normal(model.nv)
    assert rel_err(redmax_force(model, q, qd, tau), tau - bias_force(model, q, qd)) < TOL


def test_jacobian_dot_times_qdot_is_the_velocity_product_acceleration(rng, models):
    """``J̇ q̇`` = body accelerations at ``q̈ = 0`` (Featherstone eq. 5.7, no gravity)."""
    for model in models:
        q, qd, _ = random_state(model, rng)
        a = body_accelerations(model, q, qd, np.zeros(model.nv), frame="body")[1:].reshape(-1)
        assert rel_err(redmax_jacobian_dot(model, q, qd) @ qd, a) < TOL


def test_jacobian_of_a_two_link_planar_arm_by_hand():
    """Two revolute z joints, link length l: body 2 sees ``ω = q̇₁ + q̇₂`` and body 1's turn."""
    l, th2 = 1.5, 0.7
    model = sp.Model()
    model.add_body(0, Revolute("z"), np.eye(6), sp.mcI(1.0, [0.5, 0, 0], np.eye(3)))
    model.add_body(1, Revolute("z"), sp.xlt([l, 0, 0]), sp.mcI(1.0, [0.5, 0, 0], np.eye(3)))
    J = redmax_jacobian(model, [0.3, th2])
    # body 2's origin moves at l q̇₁ along body 1's y axis, which is at angle -θ₂ in body 2
    expected_col1 = [0, 0, 1, l * np.sin(th2), l * np.cos(th2), 0]
    np.testing.assert_allclose(J[6:, 0], expected_col1, atol=1e-14)
    np.testing.assert_allclose(J[6:, 1], [0, 0, 1, 0, 0, 0], atol=1e-14)
    np.testing.assert_allclose(J[:6, 1], 0.0, atol=0)


# ----------------------------------------------------------------------------- maximal terms


def test_maximal_mass_matrix_is_block_diagonal_of_the_inertias(rng, models):
    for model in models:
        M = maximal_mass_matrix(model)
        assert M.shape == (6 * model.NB, 6 * model.NB)
        for i in range(1, model.NB + 1):
            for j in range(1, model.NB + 1):
                block = M[6 * (i - 1) : 6 * i, 6 * (j - 1) : 6 * j]
                expected = model.inertia[i] if i == j else np.zeros((6, 6))
                np.testing.assert_array_equal(block, expected)


def test_maximal_bias_of_a_free_body_is_euler_plus_weight(rng):
    """A free body with its centre of mass at the origin: Euler's equations by hand."""
    m, Ic = 2.5, np.diag([0.3, 0.5, 0.7])
    model = sp.Model(gravity=[0.0, 0.0, -9.81])
    model.add_body(0, sp.joints.Free(), np.eye(6), sp.mcI(m, np.zeros(3), Ic))
    q = model.random_configuration(rng)
    qd = rng.standard_normal(6)
    w, v = qd[:3], qd[3:]
    R = sp.rotations.quat_to_matrix(q[:4])  # body-to-world rotation
    g_body = R.T @ model.gravity
    expected = np.concatenate([-np.cross(w, Ic @ w), -m * np.cross(w, v) + m * g_body])
    np.testing.assert_allclose(maximal_bias(model, q, qd), expected, rtol=1e-12, atol=1e-12)
    # and M_m φ̇ = f_m is what the articulated-body algorithm integrates for a free body
    phidot = np.linalg.solve(maximal_mass_matrix(model), maximal_bias(model, q, qd))
    assert rel_err(phidot, aba(model, q, qd, np.zeros(6))) < TOL


def test_maximal_bias_carries_the_external_force_into_body_coordinates(rng, models):
    model = models[1]
    q, qd, _ = random_state(model, rng)
    f_ext = random_f_ext(model, rng)
    df = maximal_bias(model, q, qd, f_ext) - maximal_bias(model, q, qd)
    X0 = sp.forward_kinematics(model, q)  # ^iX_0; forces go with ^iX_0* = ^iX_0⁻ᵀ
    for i in range(1, model.NB + 1):
        expected = np.linalg.solve(X0[i].T, f_ext[i])
        assert rel_err(df[6 * (i - 1) : 6 * i], expected) < TOL


# ----------------------------------------------------------------------------- batches


def test_batched_inputs_equal_loops(rng, models):
    batch = (2, 3)
    for model in models[:3]:
        q, qd, tau = random_state(model, rng, batch)
        f_ext = random_f_ext(model, rng, batch)
        results = {
            "J": redmax_jacobian(model, q),
            "Jd": redmax_jacobian_dot(model, q, qd),
            "fm": maximal_bias(model, q, qd, f_ext),
            "M": redmax_mass_matrix(model, q),
            "f": redmax_force(model, q, qd, tau, f_ext),
            "qdd": redmax_forward_dynamics(model, q, qd, tau, f_ext),
        }
        for idx in np.ndindex(*batch):
            one = (q[idx], qd[idx], tau[idx], f_ext[idx])
            loops = {
                "J": redmax_jacobian(model, one[0]),
                "Jd": redmax_jacobian_dot(model, one[0], one[1]),
                "fm": maximal_bias(model, one[0], one[1], one[3]),
                "M": redmax_mass_matrix(model, one[0]),
                "f": redmax_force(model, *one),
                "qdd": redmax_forward_dynamics(model, *one),
            }
            for key, value in loops.items():
                np.testing.assert_allclose(results[key][idx], value, rtol=1e-12, atol=1e-12)


def test_batch_of_states_broadcasts_against_a_single_torque(rng, models):
    model = models[1]
    q, qd, _ = random_state(model, rng, (4,))
    tau = rng.standard_normal(model.nv)
    expected = aba(model, q, qd, tau)
    assert rel_err(redmax_forward_dynamics(model, q, qd, tau), expected) < TOL


# ----------------------------------------------------------------------------- bad input


def test_wrong_sizes_raise_clear_errors(rng, models):
    model = models[1]
    q, qd, tau = random_state(model, rng)
    with pytest.raises(ValueError, match="q must have shape"):
        redmax_jacobian(model, q[:-1])
    with pytest.raises(ValueError, match="qd must have shape"):
        redmax_jacobian_dot(model, q, qd[:-1])
    with pytest.raises(ValueError, match="tau must have shape"):
        redmax_forward_dynamics(model, q, qd, tau[:-1])
    with pytest.raises(ValueError, match="f_ext must have shape"):
        redmax_force(model, q, qd, tau, np.zeros((model.NB, 6)))
    with pytest.raises(ValueError, match="row 0 is the fixed base"):
        maximal_bias(model, q, qd, np.ones((model.NB + 1, 6)))
    with pytest.raises(ValueError, match="not finite|finite"):
        redmax_mass_matrix(model, np.full(model.nq, np.nan))


def test_batch_shapes_that_do_not_broadcast_raise(rng, models):
    model = models[0]
    q, _, _ = random_state(model, rng, (2,))
    _, qd, tau = random_state(model, rng, (3,))
    for call in (
        lambda: redmax_jacobian_dot(model, q, qd),
        lambda: maximal_bias(model, q, qd),
        lambda: redmax_force(model, q, qd, tau),
        lambda: redmax_forward_dynamics(model, q, qd, tau),
    ):
        with pytest.raises(ValueError, match="broadcast"):
            call()


def test_a_joint_moving_no_mass_makes_the_forward_dynamics_raise():
    model = sp.Model()
    model.add_body(0, Revolute("z"), np.eye(6), np.zeros((6, 6)))
    with pytest.raises(ValueError, match="reduced mass matrix M_r is singular"):
        redmax_forward_dynamics(model, [0.1], [0.2], [0.0])


class _AngleRateJoint(Revolute):
    """A made-up joint whose S depends on q while its velocity variables are not q̇."""

    def motion_subspace(self, q):
        return np.cos(q)[..., None, :] * super().motion_subspace(q)

    def bias(self, q, qd):
        return np.zeros(q.shape[:-1] + (6,))

    def q_dot(self, q, qd):
        return 2.0 * qd


def test_s_dot_of_an_unsupported_joint_is_refused():
    model = sp.Model()
    model.add_body(0, _AngleRateJoint("z"), np.eye(6), sp.mcI(1.0, [1.0, 0, 0], np.eye(3)))
    with pytest.raises(NotImplementedError, match="velocity variables are not q̇"):
        redmax_jacobian_dot(model, [0.1], [0.2])
    assert isinstance(model.joints[1], Joint)


def test_reduced_is_part_of_the_light_import():
    """``spatial.systems`` offers REDMAX as a system, so ``import spatial`` loads it: it needs
    nothing beyond NumPy (no SciPy, which ``test_package`` checks for the whole import)."""
    code = "import sys, spatial; print('spatial.reduced' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
    assert "reduced" in dir(sp) and sp.reduced.redmax_jacobian is redmax_jacobian


def test_jacobian_dot_of_spline_joints():
    """Spline joints (Sueda §2.4.12–2.4.13): ``Ṡ`` from their ``c_J``, checked like the others."""
    from test_joints import SPLINE_CURVE, SPLINE_SURFACE

    rng = np.random.default_rng(11)
    model = sp.Model()
    for parent, joint in ((0, SPLINE_CURVE), (1, SPLINE_SURFACE), (1, Revolute("x"))):
        model.add_body(parent, joint, builders.random_transform(rng), builders.random_inertia(rng))
    q, qd, _ = random_state(model, rng, (2,))
    h = 1e-5
    fd = (
        redmax_jacobian(model, model.integrate(q, qd, h))
        - redmax_jacobian(model, model.integrate(q, qd, -h))
    ) / (2 * h)
    assert rel_err(redmax_jacobian_dot(model, q, qd), fd) < 1e-7
    tau = rng.standard_normal(model.nv)
    assert rel_err(redmax_forward_dynamics(model, q, qd, tau), sp.aba(model, q, qd, tau)) < TOL


def test_forward_dynamics_uses_jdot_times_qdot_from_the_forward_pass(rng):
    """``f_r`` takes ``J̇_mr q̇`` from an O(n) forward pass (never forming ``J̇_mr``); it equals
    Alg. 2's ``J̇_mr`` times ``q̇``, also on a tree with a quaternion ``free_3d()`` root."""
    model = sp.Model()
    for parent, joint in ((0, sp.joints.free_3d()), (1, Revolute("x")), (1, sp.joints.Universal())):
        model.add_body(parent, joint, builders.random_transform(rng), builders.random_inertia(rng))
    q, qd, tau = random_state(model, rng, (3,))
    assert rel_err(redmax_forward_dynamics(model, q, qd, tau), aba(model, q, qd, tau)) < TOL
    assert rel_err(redmax_force(model, q, qd, tau), tau - bias_force(model, q, qd)) < TOL
    accelerations = body_accelerations(model, q, qd, np.zeros_like(qd))[..., 1:, :]
    Jd_qd = (redmax_jacobian_dot(model, q, qd) @ qd[..., None])[..., 0]
    assert rel_err(Jd_qd, accelerations.reshape(3, -1)) < TOL


# ----------------------------------------------------------------------------- loop joints


def test_redmax_refuses_loop_joints_and_answers_for_the_spanning_tree_on_request(
    four_bar_and_open_tree,
):
    """REDMAX refuses a model with a loop joint (naming it and pointing at the loop methods and
    REDMAX constraints); on spanning_tree() it gives the hand-built tree's ABA answer."""
    model, open_tree, q, qd, tau = four_bar_and_open_tree
    refusal = (
        r"redmax_forward_dynamics computes .* loop joint \('pin C'\).*loop_forward_dynamics"
        r".*constrained_forward_dynamics.*spanning_tree\(\)"
    )
    with pytest.raises(ValueError, match=refusal):
        redmax_forward_dynamics(model, q, qd, tau)
    with pytest.raises(ValueError, match=r"redmax_mass_matrix .*'pin C'"):
        redmax_mass_matrix(model, q)
    with pytest.raises(ValueError, match=r"redmax_force .*'pin C'"):
        redmax_force(model, q, qd, tau)
    got = redmax_forward_dynamics(model.spanning_tree(), q, qd, tau)
    assert rel_err(got, aba(open_tree, q, qd, tau)) < TOL
    # kinematics of the tree stays well defined on the loop model
    np.testing.assert_array_equal(redmax_jacobian(model, q), redmax_jacobian(open_tree, q))
