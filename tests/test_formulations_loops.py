"""Closed loops in the three formulations: maximal.from_model with its loops, REDMAX's loop
constraints (reduced.loop_point_constraints) and RedmaxSystem on a model with loop joints.

The reference is Featherstone's loop method (``loop_forward_dynamics``, §8.3–8.5), which builds
its constraints from the loop joints' own subspaces; the maximal system and the REDMAX point
constraints are built another way (joint rows on body twists, Sueda §1.10; point rows on the
pins, Sueda §2.8), so agreement checks both.
"""

import warnings

import numpy as np
import pytest

import spatial as sp
from spatial import builders as B
from spatial import joints as J
from spatial import maximal, reduced
from spatial.dynamics import loops
from spatial.systems import RedmaxSystem, TreeSystem
from spatial.vectors import xlt

LENGTHS = (0.3, 1.0, 0.8, 0.9)
PIN = J.Composite(J.Prismatic("z"), J.Spherical())  # forbids only the two in-plane translations


def _four_bar_state(y=0.8, yd=1.3):
    model = B.four_bar(*LENGTHS)
    q, G, _ = loops.four_bar_closure(*LENGTHS).jacobians(np.array([y]), np.array([yd]))
    return model, q, G @ np.array([yd])


def _grounded_four_bar():
    """The four-bar as a chain crank–coupler–rocker whose loop joint pins the rocker's end to
    the ground (predecessor 0), closed where ``four_bar_closure`` closes ``builders.four_bar``."""
    l1, l2, l3, l0 = LENGTHS
    model = sp.Model(gravity=[0.0, -9.81, 0.0])
    for parent, at, length in ((0, 0.0, l1), (1, l1, l2), (2, l2, l3)):
        rod = sp.mcI(1.0, [length / 2, 0, 0], np.diag([1e-3, length**2 / 12, length**2 / 12]))
        model.add_body(parent, J.Revolute("z"), xlt([at, 0.0, 0.0]), rod)
    model.add_loop_joint(0, 3, J.Revolute("z"), xlt([l0, 0.0, 0.0]), xlt([l3, 0.0, 0.0]), "D")
    theta, rel, phi3 = loops.four_bar_closure(*LENGTHS).gamma(np.array([1.0]))
    q = np.array([theta, rel, phi3 + np.pi - (theta + rel)])  # rocker from C towards D
    assert np.abs(loops.loop_position_errors(model, q)).max() < 1e-10
    return model, q


# ----------------------------------------------------------------------------- maximal


def test_from_model_refuses_the_loops_unless_asked_to_keep_them():
    model, q, qd = _four_bar_state()
    T, _ = maximal.maximal_state(model, q, qd)
    refusal = r"maximal.from_model computes the dynamics .*\('pin C'\).*spanning_tree.*loops=True"
    with pytest.raises(ValueError, match=refusal):
        maximal.from_model(model)  # the default would drop the loop joint
    tree_only = maximal.from_model(model.spanning_tree())  # the open tree, asked for
    assert len(tree_only.joints) == model.NB and tree_only.m == 15
    closed = maximal.from_model(model, loops=True)
    assert [jc.name for jc in closed.joints][-1] == "pin C" and closed.m == 20
    G = maximal.constraint_jacobian(closed, T)
    assert np.linalg.matrix_rank(G) == 17  # the hinge's three out-of-plane rows are redundant
    assert np.abs(maximal.constraint_error(closed, T)).max() < 1e-12
    # the planar pin writes only the two independent rows
    pinned = maximal.from_model(model, loops=True, loop_joint=PIN)
    G = maximal.constraint_jacobian(pinned, T)
    assert G.shape == (17, 18) and np.linalg.matrix_rank(G) == 17
    # the loop joint joins the right points: moving the rocker off its pin opens it by that much
    # (the error is the in-plane part of an SE(3) logarithm: the gap, up to the pin's turn)
    T_open = T.copy()
    T_open[2, :3, 3] += [0.0, 1e-3, 0.0]
    gap = np.linalg.norm(maximal.constraint_error(pinned, T_open)[-2:])
    assert gap == pytest.approx(1e-3, rel=0.05)


def test_redundant_closing_rows_need_regularization_and_the_pin_does_not():
    model, q, qd = _four_bar_state()
    T, phi = maximal.maximal_state(model, q, qd)
    with pytest.raises(ValueError, match="regularization"):
        maximal.kkt_step(maximal.from_model(model, loops=True), T, phi, 1e-3)
    maximal.kkt_step(maximal.from_model(model, loops=True), T, phi, 1e-3, regularization=1e-9)
    maximal.kkt_step(maximal.from_model(model, loops=True, loop_joint=PIN), T, phi, 1e-3)


def test_the_closed_maximal_four_bar_follows_the_tree_to_first_order():
    model, q, qd = _four_bar_state()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tree = sp.simulate(model, q, qd, 1e-3, duration=0.1, stabilization=(10.0, 10.0))
    system = maximal.from_model(model, loops=True, loop_joint=PIN)
    T0, phi0 = maximal.maximal_state(model, q, qd)
    gaps = []
    for h in (2e-3, 1e-3):
        run = sp.simulate(system, T0, phi0, h, duration=0.1, baumgarte=0.2 / h)
        end = maximal.reduced_state(model, system, run.q[-1], run.v[-1], q0=tree.q[-1])[0]
        gaps.append(np.abs(end - tree.q[-1]).max())
    assert gaps[1] < 0.6 * gaps[0] and gaps[1] < 5e-3  # first order: the gap halves with h


def test_reduced_state_of_a_closed_system_returns_the_tree_variables():
    model, q, qd = _four_bar_state()
    system = maximal.from_model(model, loops=True, loop_joint=PIN)
    T, phi = maximal.maximal_state(model, q, qd)
    q_back, qd_back = maximal.reduced_state(model, system, T, phi, q0=q + 0.01)
    np.testing.assert_allclose(q_back, q, atol=1e-10)
    np.testing.assert_allclose(qd_back, qd, atol=1e-10)


def test_from_model_arguments_are_checked():
    model = B.four_bar()
    with pytest.raises(ValueError, match="loops must be True or False"):
        maximal.from_model(model, loops="yes")
    with pytest.raises(ValueError, match="needs loops=True"):
        maximal.from_model(model, loop_joint=PIN)


# ----------------------------------------------------------------------------- REDMAX


def test_loop_point_constraints_of_the_four_bar_are_notebook_15s_pin():
    model, q, qd = _four_bar_state()
    (pin,) = reduced.loop_point_constraints(model)
    by_hand = reduced.PointConstraint(2, (1.0, 0, 0), 3, (0.8, 0, 0), axis=(0, 0, 1))
    a = reduced.constraint_rows(model, q, qd, [pin])
    b = reduced.constraint_rows(model, q, qd, [by_hand])
    np.testing.assert_allclose(a.G, b.G, atol=1e-14)
    np.testing.assert_allclose(a.Gdot_qd, b.Gdot_qd, atol=1e-14)


@pytest.mark.parametrize("case", ["jansen", "grounded", "ladder"])
def test_loop_point_constraints_give_featherstones_accelerations(case):
    if case == "jansen":
        model = B.jansen_leg()
        closure = loops.newton_closure(model, [0], model.neutral_configuration())
        q, G, _ = closure.jacobians(np.array([0.3]), np.array([2.0]))
        qd = G @ np.array([2.0])
    elif case == "grounded":
        model, q = _grounded_four_bar()
        qd = np.zeros(model.nv)
    else:  # ball joints: three rows each
        model = B.ladder(2)
        q, qd = model.neutral_configuration(), np.zeros(model.nv)
    items = reduced.loop_point_constraints(model)
    rows = reduced.constraint_rows(model, q, qd, items)
    per_loop = 3 if case == "ladder" else 2
    assert rows.G.shape[0] == per_loop * model.NL == np.linalg.matrix_rank(rows.G)
    assert np.abs(rows.error).max() < 1e-10
    tau = np.linspace(-0.5, 0.5, model.nv)
    got = reduced.constrained_forward_dynamics(model.spanning_tree(), q, qd, tau, items).qdd
    want, _ = loops.loop_forward_dynamics(model, q, qd, tau)
    np.testing.assert_allclose(got, want, atol=1e-9 * (1 + np.abs(want).max()))
    if case == "grounded":
        assert items[0].body_a == 3 and items[0].body_b == 0  # the world is never body_a


def test_loop_point_constraints_refuse_other_loop_joints():
    model = sp.Model()
    model.add_body(0, J.Revolute("z"), np.eye(6), sp.mcI(1.0, [0.5, 0, 0], 0.1 * np.eye(3)))
    model.add_loop_joint(0, 1, J.Prismatic("x"), np.eye(6), np.eye(6))
    with pytest.raises(ValueError, match="only revolute and ball"):
        reduced.loop_point_constraints(model)
    # RedmaxSystem cannot close it, and refuses the model as the tree functions do
    with pytest.raises(ValueError, match=r"RedmaxSystem computes the dynamics.*only revolute"):
        RedmaxSystem(model)
    with pytest.raises(ValueError, match="spatial.Model"):
        reduced.loop_point_constraints("four bar")


def test_redmax_system_closes_the_loops_and_follows_the_tree():
    model, q, qd = _four_bar_state()
    system = RedmaxSystem(model)
    assert len(system.constraints) == 1
    # its tree functions get the spanning tree: the same as asking for it with the loop's rows
    (pin,) = reduced.loop_point_constraints(model)
    explicit = RedmaxSystem(model.spanning_tree(), constraints=[pin])
    np.testing.assert_array_equal(system.mass_matrix(q), explicit.mass_matrix(q))
    np.testing.assert_allclose(system.mass_matrix(q), sp.crba(model.spanning_tree(), q), atol=1e-12)
    np.testing.assert_array_equal(
        system.accelerations(0.0, q, qd), explicit.accelerations(0.0, q, qd)
    )
    assert len(RedmaxSystem(model, constraints=[pin]).constraints) == 2  # more rows, after
    gains = (10.0, 10.0)
    a = sp.simulate(TreeSystem(model), q, qd, 5e-3, duration=0.5, stabilization=gains)
    b = sp.simulate(system, q, qd, 5e-3, duration=0.5, stabilization=gains)
    drift = np.abs(loops.loop_position_errors(model, b.q)).max()
    assert drift < 1e-6
    # the same equations on the loops; off them (by the drift) the two Baumgarte terms measure
    # the error differently (five rows of δ, Table 8.1, against the pin's two), so the two
    # trajectories part by no more than a few times the drift
    assert np.abs(a.q - b.q).max() < 1e-7
    # without loop joints and constraints it is plain REDMAX, which takes no gains
    with pytest.raises(ValueError, match="stabilization applies only"):
        RedmaxSystem(B.double_pendulum()).accelerations(
            0.0, [0.1, 0.2], [0, 0], stabilization=gains
        )
