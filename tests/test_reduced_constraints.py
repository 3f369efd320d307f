"""Constraints, hybrid dynamics and inequalities in REDMAX (Sueda §2.8–2.9).

Oracles independent of :mod:`spatial.reduced.constraints`: Featherstone's loop method
(``loop_forward_dynamics``, ch. 8) and hybrid dynamics (``hybrid_dynamics``, ch. 9); central
finite differences of the constraint matrices along the motion; a falling block's closed-form
contact force ``m g``; a high-order ODE integrator for the drift test.
"""

import numpy as np
import pytest
from scipy.integrate import solve_ivp

import spatial as sp
from spatial import builders
from spatial.dynamics import hybrid_dynamics, loop_forward_dynamics
from spatial.dynamics import loops as L
from spatial.inertia import cuboid_inertia
from spatial.joints import Prismatic
from spatial.reduced import (
    JointConstraint,
    JointLimit,
    PointConstraint,
    PointContact,
    constrained_forward_dynamics,
    constrained_step,
    constraint_rows,
    hinge_directions,
    maximal_constraint_jacobian,
)
from spatial.solvers import LCPError

LENGTHS = (0.3, 1.0, 0.8, 0.9)  # the builder's defaults: crank, coupler, rocker, ground
PIN = PointConstraint(2, (1.0, 0.0, 0.0), 3, (0.8, 0.0, 0.0), axis=(0.0, 0.0, 1.0))
BALL = PointConstraint(2, (1.0, 0.0, 0.0), 3, (0.8, 0.0, 0.0))


def rel_err(a, b) -> float:
    return float(np.abs(np.asarray(a) - b).max() / (1.0 + np.abs(b).max()))


def four_bar_state(y=0.8, yd=1.3, branch=1):
    """The four-bar's spanning tree (REDMAX closes the loop with ``PIN``) at a closed state."""
    closure = L.four_bar_closure(*LENGTHS, branch=branch)
    q, G, _ = closure.jacobians(np.array([y]), np.array([yd]))
    return builders.four_bar(*LENGTHS).spanning_tree(), q, G @ np.array([yd])


def block_on_prismatic(mass=2.0, g=9.81):
    model = sp.Model(gravity=[0.0, 0.0, -g])
    model.add_body(0, Prismatic("z"), np.eye(6), cuboid_inertia(mass, 0.2, 0.2, 0.2))
    return model


# ----------------------------------------------------------------------------- eq. 2.94


def test_hinge_directions_are_an_orthonormal_frame_with_the_axis():
    rng = np.random.default_rng(0)
    for a in rng.standard_normal((5, 3)):
        V = hinge_directions(a)
        frame = np.vstack([V, a / np.linalg.norm(a)])
        assert np.allclose(frame @ frame.T, np.eye(3), atol=1e-14)
        assert np.isclose(np.linalg.det(frame), 1.0)
    with pytest.raises(ValueError, match="nonzero"):
        hinge_directions([0.0, 0.0, 0.0])


# ----------------------------------------------------------------------------- four-bar


@pytest.mark.parametrize("y, yd, branch", [(0.8, 1.3, 1), (-2.0, -0.7, -1), (2.5, 3.0, 1)])
def test_four_bar_by_redmax_kkt_equals_featherstone_loop_method(y, yd, branch):
    model, q, qd = four_bar_state(y, yd, branch)
    tau = np.array([0.3, -0.2, 0.5])
    sol = constrained_forward_dynamics(model, q, qd, tau, [PIN])
    qdd_ref, _ = loop_forward_dynamics(builders.four_bar(*LENGTHS), q, qd, tau)
    assert rel_err(sol.qdd, qdd_ref) <= 1e-10
    # the constraint force -Gᵀλ is what the loop joint exerts: M q̈ = f_r - Gᵀλ
    rows = constraint_rows(model, q, qd, [PIN])
    assert np.allclose(rows.G @ sol.qdd, -rows.Gdot_qd, atol=1e-10)


def test_two_hinge_directions_are_independent_three_are_not():
    model, q, qd = four_bar_state()
    assert np.linalg.matrix_rank(constraint_rows(model, q, qd, [PIN]).G) == 2
    G3 = constraint_rows(model, q, qd, [BALL]).G
    assert G3.shape[0] == 3 and np.linalg.matrix_rank(G3) == 2
    with pytest.raises(ValueError, match="rank 2"):
        constrained_forward_dynamics(model, q, qd, None, [BALL])


def test_stabilized_four_bar_drifts_less_than_1e_8_over_two_seconds():
    model, q, qd = four_bar_state()

    def rhs(t, x):
        sol = constrained_forward_dynamics(model, x[:3], x[3:], None, [PIN], stabilization=(20, 20))
        return np.concatenate([x[3:], sol.qdd])

    run = solve_ivp(
        rhs,
        (0.0, 2.0),
        np.concatenate([q, qd]),
        method="DOP853",
        rtol=1e-9,
        atol=1e-9,
        t_eval=np.linspace(0.0, 2.0, 81),
    )
    assert run.success
    drift = max(np.abs(constraint_rows(model, x[:3], x[3:], [PIN]).error).max() for x in run.y.T)
    assert drift <= 1e-8
    assert np.ptp(run.y[0]) > 1.0  # the crank really moved


# ----------------------------------------------------------------------------- Ġ


def spatial_tree(seed=3):
    rng = np.random.default_rng(seed)
    model = builders.random_tree(rng, 6, joints=("R", "P", "S", "H"))
    return model, model.random_configuration(rng), rng.standard_normal(model.nv), rng


@pytest.mark.parametrize(
    "item",
    [
        PointConstraint(3, (0.1, 0.2, -0.3), 5, (0.4, 0.0, 0.1), axis=(0.3, -1.0, 0.5)),
        PointConstraint(4, (0.1, 0.2, -0.3), 0, (1.0, 0.0, 0.1)),
        PointContact(6, (0.2, 0.1, 0.0), normal=(0.0, 0.6, 0.8), height=-1.0),
    ],
)
def test_gdot_is_the_time_derivative_of_g(item):
    model, q, qd, _ = spatial_tree()
    eps = 1e-6
    qp, qm = model.integrate(q, qd, eps), model.integrate(q, qd, -eps)
    G_m, Gd_m = maximal_constraint_jacobian(model, q, qd, item)
    fd = (
        maximal_constraint_jacobian(model, qp, qd, item)[0]
        - maximal_constraint_jacobian(model, qm, qd, item)[0]
    ) / (2 * eps)
    assert rel_err(Gd_m, fd) <= 1e-7
    rows = constraint_rows(model, q, qd, [item])
    fd_r = constraint_rows(model, qp, qd, [item]).G - constraint_rows(model, qm, qd, [item]).G
    assert rel_err(rows.Gdot_qd, fd_r @ qd / (2 * eps)) <= 1e-7
    assert rel_err(rows.G, G_m @ sp.reduced.redmax_jacobian(model, q)) <= 1e-12
    # the position error changes at the rate of the constraint velocity where it is closed
    # in the constrained directions only for the world-fixed directions (contact, ball)
    if item.__class__ is PointContact or item.axis is None:
        de = (
            constraint_rows(model, qp, qd, [item]).error
            - constraint_rows(model, qm, qd, [item]).error
        ) / (2 * eps)
        assert rel_err(rows.G @ qd, de) <= 1e-7


# ----------------------------------------------------------------------------- hybrid dynamics


@pytest.mark.parametrize("seed", range(3))
def test_prescribed_rows_equal_featherstone_hybrid_dynamics(seed):
    rng = np.random.default_rng(seed)
    model = builders.random_tree(rng, 7, joints=("R", "P", "H", "S"))
    q = model.random_configuration(rng)
    qd, qdd_known, tau_known = rng.standard_normal((3, model.nv))
    mask = rng.uniform(size=model.NB) < 0.5
    qdd_ref, tau_ref = hybrid_dynamics(model, q, qd, qdd_known, tau_known, mask)
    sol = constrained_forward_dynamics(
        model, q, qd, tau_known, prescribed=mask, qdd_prescribed=qdd_known
    )
    assert rel_err(sol.qdd, qdd_ref) <= 1e-10
    assert rel_err(sol.tau, tau_ref) <= 1e-10


def test_reduced_constraint_couples_two_joints():
    """Two joints of a chain forced to turn together (eq. 2.100) equal the hyper-reduced chain."""
    model = builders.planar_chain(3)
    q, qd = np.array([0.3, 0.2, 0.2]), np.array([0.5, -0.1, -0.1])
    tie = JointConstraint(np.array([[0.0, 1.0, -1.0]]))
    sol = constrained_forward_dynamics(model, q, qd, np.zeros(3), [tie])
    Jr = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 1.0]])
    qdd_hr = sp.reduced.hyper_reduced_forward_dynamics(model, Jr, q[:2], qd[:2])
    assert rel_err(sol.qdd, Jr @ qdd_hr) <= 1e-10


# ----------------------------------------------------------------------------- inequalities


def test_resting_contact_carries_the_weight_and_lets_go_when_pulled():
    model = block_on_prismatic(mass=2.0)
    floor = PointContact(1, (0.0, 0.0, 0.0))
    rest = constrained_forward_dynamics(model, [0.0], [0.0], [0.0], inequalities=[floor])
    assert abs(rest.qdd[0]) <= 1e-12
    assert np.isclose(rest.mu[0], 2.0 * 9.81)  # the floor pushes up with m g
    lift = constrained_forward_dynamics(model, [0.0], [0.0], [30.0], inequalities=[floor])
    assert np.isclose(lift.qdd[0], 30.0 / 2.0 - 9.81) and lift.mu[0] == pytest.approx(0.0)


def test_joint_limit_stops_a_pendulum():
    model = builders.simple_pendulum()
    # released horizontally (q̈ = -g/l < 0) against a lower limit at the current angle
    limit = JointLimit(0, lower=np.pi / 2)
    sol = constrained_forward_dynamics(model, [np.pi / 2], [0.0], [0.0], inequalities=[limit])
    assert abs(sol.qdd[0]) <= 1e-12 and sol.mu[0] > 0
    free = constrained_forward_dynamics(
        model, [np.pi / 2], [0.0], [0.0], inequalities=[JointLimit(0, upper=np.pi / 2)]
    )
    assert np.isclose(free.qdd[0], -9.81) and free.mu[0] == pytest.approx(0.0)


def test_block_falls_and_rests_on_the_floor_by_velocity_steps():
    model = block_on_prismatic()
    floor = PointContact(1, (0.0, 0.0, 0.0))
    q, qd, h = np.array([0.05]), np.array([0.0]), 0.01
    for _ in range(30):
        q, sol = constrained_step(model, q, qd, h, inequalities=[floor], stabilization=0.5)
        qd = sol.qdd
        assert q[0] >= -1e-12  # never through the floor
    assert abs(q[0]) <= 1e-12 and abs(qd[0]) <= 1e-12
    assert np.isclose(sol.mu[0], 2.0 * 9.81 * h)  # impulse of the weight over one step


def test_velocity_level_four_bar_meets_its_constraint():
    model, q, qd = four_bar_state()
    q1, sol = constrained_step(model, q, qd, 1e-3, None, [PIN], stabilization=1.0)
    rows = constraint_rows(model, q, sol.qdd, [PIN])
    assert np.allclose(rows.G @ sol.qdd, -rows.error / 1e-3, atol=1e-10)


def test_velocity_level_prescribed_rows_follow_eq_2_107():
    rng = np.random.default_rng(4)
    model = builders.random_tree(rng, 4, joints=("R",))
    q, qd, qdd_p = model.random_configuration(rng), *rng.standard_normal((2, model.nv))
    mask = np.array([True, False, True, False])
    _, sol = constrained_step(model, q, qd, 0.01, prescribed=mask, qdd_prescribed=qdd_p)
    assert np.allclose(sol.qdd[[0, 2]], qd[[0, 2]] + 0.01 * qdd_p[[0, 2]], atol=1e-12)


# ----------------------------------------------------------------------------- bad input


def test_bad_constraints_raise_clear_errors():
    model, q, qd = four_bar_state()
    with pytest.raises(TypeError, match="constraints must be"):
        constrained_forward_dynamics(model, q, qd, None, [PointContact(1, (0, 0, 0))])
    with pytest.raises(ValueError, match="not 0 … NB"):
        constrained_forward_dynamics(model, q, qd, None, [PointConstraint(7, (0, 0, 0))])
    with pytest.raises(ValueError, match="two different bodies"):
        constraint_rows(model, q, qd, [PointConstraint(2, (0, 0, 0), 2, (1, 0, 0))])
    with pytest.raises(ValueError, match="unit vector"):
        constraint_rows(model, q, qd, [PointContact(1, (0, 0, 0), normal=(0, 0, 2))])
    with pytest.raises(ValueError, match="shape \\(k, nv=3\\)"):
        constraint_rows(model, q, qd, [JointConstraint(np.ones((1, 2)))])
    with pytest.raises(ValueError, match="lower .* exceeds upper"):
        constraint_rows(model, q, qd, [JointLimit(0, lower=1.0, upper=0.0)])
    with pytest.raises(ValueError, match="boolean array of shape"):
        constrained_forward_dynamics(model, q, qd, prescribed=[1, 0, 0], qdd_prescribed=qd)
    with pytest.raises(ValueError, match="need qdd_prescribed"):
        constrained_forward_dynamics(model, q, qd, prescribed=np.array([True, False, False]))
    with pytest.raises(ValueError, match="stabilization"):
        constrained_forward_dynamics(model, q, qd, None, [PIN], stabilization=(-1, 0))
    with pytest.raises(ValueError, match="γ must be in"):
        constrained_step(model, q, qd, 0.01, None, [PIN], stabilization=2.0)
    with pytest.raises(ValueError, match="one state"):
        constrained_forward_dynamics(model, np.stack([q, q]), np.stack([qd, qd]), None, [PIN])


def test_inconsistent_constraints_raise():
    model = builders.planar_chain(3)
    rows = JointConstraint(np.array([[1.0, 0.0, 0.0], [2.0, 0.0, 0.0]]))
    with pytest.raises(ValueError, match="redundant or inconsistent"):
        constrained_forward_dynamics(model, np.zeros(3), np.zeros(3), None, [rows])


def test_non_converging_qp_raises():
    """A horizontal chain lying on the floor at its three link ends: one PGS sweep is not
    enough for the coupled contacts."""
    model = builders.planar_chain(3)
    q = np.array([np.pi / 2, 0.0, 0.0])  # links along +x; gravity along -y
    floor = [PointContact(i, (0.0, -1.0, 0.0), normal=(0.0, 1.0, 0.0)) for i in (1, 2, 3)]
    kwargs = dict(inequalities=floor, method="pgs")
    with pytest.raises(LCPError, match="PGS|iteration|converge"):
        constrained_forward_dynamics(
            model, q, np.zeros(3), np.zeros(3), **kwargs, solver_options={"max_iter": 1}
        )
    rest = constrained_forward_dynamics(model, q, np.zeros(3), np.zeros(3), **kwargs)
    # converged: at rest, the floor carries all the weight but the half of link 1 on the pivot
    assert np.allclose(rest.qdd, 0.0, atol=1e-6)
    assert rest.mu.sum() == pytest.approx(2.5 * 9.81, rel=1e-6)


def test_multipliers_of_a_mixed_problem_balance_the_equation_of_motion():
    """Bilateral rows and contacts together: M q̈ = f_r - Ḡᵀλ + C̄ᵀμ with μ ≥ 0."""
    model = builders.planar_chain(3)
    q, qd = np.array([np.pi / 2, 0.0, 0.0]), np.zeros(3)
    tie = JointConstraint(np.array([[0.0, 1.0, -1.0]]))
    floor = [PointContact(3, (0.0, -1.0, 0.0), normal=(0.0, 1.0, 0.0))]
    sol = constrained_forward_dynamics(model, q, qd, None, [tie], inequalities=floor)
    M = sp.reduced.redmax_mass_matrix(model, q)
    f = sp.reduced.redmax_force(model, q, qd)
    C = constraint_rows(model, q, qd, floor).G
    assert np.allclose(M @ sol.qdd, f - tie.rows.T @ sol.lam + C.T @ sol.mu, atol=1e-10)
    assert sol.mu[0] > 0 and np.isclose(sol.qdd[1], sol.qdd[2])
    with pytest.raises(ValueError, match="method"):
        constrained_forward_dynamics(model, q, qd, None, [tie], inequalities=floor, method="x")


def test_solver_backed_names_load_lazily_and_unknown_names_raise():
    import spatial.reduced as R

    for name in R._LAZY:
        assert name in R.__all__ and name in dir(R) and getattr(R, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        R.no_such_name  # noqa: B018


def test_more_bad_input_raises_clear_errors():
    model, q, qd = four_bar_state()
    with pytest.raises(ValueError, match="JointLimit index 5"):
        constraint_rows(model, q, qd, [JointLimit(5, lower=0.0)])
    with pytest.raises(ValueError, match="constraint point"):
        constraint_rows(model, q, qd, [PointConstraint(2, (1.0, 0.0), 3, (0.8, 0.0, 0.0))])
    with pytest.raises(ValueError, match="nonzero"):
        constraint_rows(model, q, qd, [PointConstraint(2, (1, 0, 0), 3, (1, 0, 0), axis=(0, 0, 0))])
    with pytest.raises(ValueError, match="pair"):
        constrained_forward_dynamics(model, q, qd, None, [PIN], stabilization=5.0)
    with pytest.raises(ValueError, match="h"):
        constrained_step(model, q, qd, 0.0, None, [PIN])
    quaternion = builders.random_tree(np.random.default_rng(0), 2, joints=("S",))
    with pytest.raises(ValueError, match="nq = nv"):
        constraint_rows(
            quaternion, quaternion.neutral_configuration(), np.zeros(6), [JointLimit(0, lower=0.0)]
        )


def test_loop_force_of_the_hinge_rows_is_featherstones_loop_joint_force():
    """-G_mᵀλ on the rocker, carried to base coordinates, is the loop joint's force (eq. 8.30),
    and with it as an external force the RNEA joint forces are the BISP joint reactions."""
    from spatial.dynamics import joint_forces
    from spatial.dynamics.loops import loop_joint_forces

    model, q, qd = four_bar_state()
    tau = np.array([0.3, -0.2, 0.5])
    sol = constrained_forward_dynamics(model, q, qd, tau, [PIN])
    G_m, _ = maximal_constraint_jacobian(model, q, qd, PIN)
    wrench = -(G_m.T @ sol.lam).reshape(model.NB, 6)  # on each body, body coordinates
    T = sp.body_poses(model, q)
    to_base = [np.linalg.inv(sp.Ad(T[i])).T for i in range(1, model.NB + 1)]
    f_ext = np.zeros((model.NB + 1, 6))
    for i in range(1, model.NB + 1):
        f_ext[i] = to_base[i - 1] @ wrench[i - 1]
    loop_model = builders.four_bar(*LENGTHS)  # Featherstone's: the tree and its loop joint
    qdd_f, lam_f = loop_forward_dynamics(loop_model, q, qd, tau)
    f_loop = loop_joint_forces(loop_model, q, lam_f)[0]  # on the successor (rocker, body 3)
    assert rel_err(f_ext[3], f_loop) <= 1e-9 and rel_err(f_ext[2], -f_loop) <= 1e-9
    ref = joint_forces(model, q, qd, sol.qdd, f_ext)[1:]
    got = sp.reduced.joint_reaction_forces(model, q, qd, sol.qdd, f_ext)
    assert rel_err(got, ref) <= 1e-10


def test_constraint_items_with_non_integer_indices_or_nan_bounds_are_refused():
    model = builders.double_pendulum()
    q, qd = np.array([0.1, 0.2]), np.zeros(2)
    with pytest.raises(ValueError, match="body of PointContact.* must be an integer, got 1.5"):
        constraint_rows(model, q, qd, [PointContact(1.5, (0.0, 0.0, 0.0))])  # int() truncated
    with pytest.raises(ValueError, match="JointLimit index must be an integer, got the bool"):
        constrained_forward_dynamics(model, q, qd, inequalities=[JointLimit(True, -1.0, 1.0)])
    with pytest.raises(ValueError, match="JointLimit lower contains non-finite"):
        constrained_forward_dynamics(model, q, qd, inequalities=[JointLimit(0, np.nan, 1.0)])
    with pytest.raises(ValueError, match="contact height contains non-finite"):
        constraint_rows(model, q, qd, [PointContact(1, (0.0, 0.0, 0.0), height=np.nan)])
    with pytest.raises(ValueError, match="^JointConstraint rows must be real"):
        constraint_rows(model, q, qd, [JointConstraint(np.ones((1, 2)) + 0j)])
