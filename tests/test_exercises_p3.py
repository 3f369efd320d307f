"""Project P3's mechanisms and milestone checkers (spatial.exercises.p3), and project ids in
``spatial.nb.check``: the checkers pass a right answer and reject the typical mistakes with a
hint that names the section to reread, never the answer."""

import numpy as np
import pytest

import spatial as sp
from spatial import joints as J
from spatial import maximal, reduced
from spatial.dynamics import bias_force, crba, loops
from spatial.exercises import p3

# ----------------------------------------------------------------------------- right answers


def tree_accelerations(model, q, qd, stabilization):
    tree = model.spanning_tree()  # H and C of the open tree, asked for explicitly
    H, C = crba(tree, q), bias_force(tree, q, qd)
    K, k = loops.loop_constraints(model, q, qd, stabilization)
    m = K.shape[0]
    A = np.block([[H, K.T], [K, np.zeros((m, m))]])
    return np.linalg.lstsq(A, np.concatenate([-C, k]), rcond=None)[0][: model.nv]


def maximal_system(model):
    pin = J.Composite(J.Prismatic("z"), J.Spherical())
    return maximal.from_model(model, loops=True, loop_joint=pin)


def point_constraints(model):
    out = []
    for loop in model.loop_joints:
        E_p, r_p = sp.unplux(loop.X_p)
        r_s = sp.unplux(loop.X_s)[1]
        axis = tuple(E_p.T @ loop.joint.axis)
        out.append(
            reduced.PointConstraint(loop.predecessor, tuple(r_p), loop.successor, tuple(r_s), axis)
        )
    return out


def kkt_sizes(model):
    tree_rows = sum(6 - loop.joint.nv for loop in model.loop_joints)
    joint_rows = sum(6 - model.joints[i].nv for i in range(1, model.NB + 1))
    return {
        "tree": (model.nv, tree_rows),
        "maximal": (6 * model.NB, joint_rows + 2 * model.NL),
        "redmax": (model.nv, 2 * model.NL),
    }


@pytest.fixture
def strict(monkeypatch):
    monkeypatch.setenv("SPATIAL_NB_STRICT", "1")


@pytest.mark.parametrize(
    "exercise, answer",
    [
        ("P3.1", tree_accelerations),
        ("P3.2", maximal_system),
        ("P3.3", point_constraints),
        ("P3.4", kkt_sizes),
    ],
)
def test_right_answers_pass(strict, exercise, answer):
    assert sp.nb.check(exercise, answer)


# ----------------------------------------------------------------------------- mistakes


def tree_only(model, q, qd, stabilization):
    return sp.aba(model.spanning_tree(), q, qd, np.zeros(model.nv))


def without_baumgarte(model, q, qd, stabilization):
    return tree_accelerations(model, q, qd, None)


def plain_solve(model, q, qd, stabilization):
    tree = model.spanning_tree()  # H and C of the open tree, asked for explicitly
    H, C = crba(tree, q), bias_force(tree, q, qd)
    K, k = loops.loop_constraints(model, q, qd, stabilization)
    m = K.shape[0]
    A = np.block([[H, K.T], [K, np.zeros((m, m))]])
    return np.linalg.solve(A, np.concatenate([-C, k]))[: model.nv]


def open_loops(model):
    return maximal.from_model(model.spanning_tree())


def hinges_as_modelled(model):
    return maximal.from_model(model, loops=True)


def balls(model):
    return [
        reduced.PointConstraint(c.body_a, c.point_a, c.body_b, c.point_b)
        for c in point_constraints(model)
    ]


def body_origins(model):  # forgets where on the bodies the pins are
    return [reduced.PointConstraint(c.body_a, (0, 0, 0), c.body_b, (0, 0, 0), c.axis)
            for c in point_constraints(model)]  # fmt: skip


def hinge_rows_counted_as_two(model):
    sizes = kkt_sizes(model)
    sizes["tree"] = (model.nv, 2 * model.NL)
    return sizes


@pytest.mark.parametrize(
    "exercise, answer, hint",
    [
        ("P3.1", tree_only, "§8.3–8.5"),
        ("P3.1", without_baumgarte, "eqs. 8.21–8.22"),
        ("P3.1", plain_solve, "eq. 8.41"),
        ("P3.2", open_loops, "loops=True"),
        ("P3.2", hinges_as_modelled, "eq. 2.94"),
        ("P3.3", balls, "eq. 2.94"),
        ("P3.3", body_origins, "§4.2"),
        ("P3.4", hinge_rows_counted_as_two, "eq. 8.1"),
    ],
)
def test_typical_mistakes_get_a_hint_to_the_section(strict, exercise, answer, hint):
    with pytest.raises(AssertionError, match=hint.replace(".", r"\.")):
        sp.nb.check(exercise, answer)


def test_a_stub_is_not_attempted(capsys):
    def stub(model):
        raise NotImplementedError

    assert not sp.nb.check("P3.2", stub)
    assert "P3.2: not attempted yet" in capsys.readouterr().out


# ----------------------------------------------------------------------------- ids, mechanisms


def test_project_ids_find_their_checkers_and_bad_ids_are_refused():
    assert sp.nb.checker("P3.4") is p3.CHECKS["P3.4"]
    assert sp.nb.checker("08.1").__module__ == "spatial.exercises.ch08"
    with pytest.raises(KeyError, match=r"no module spatial\.exercises\.p9"):
        sp.nb.checker("P9.1")
    with pytest.raises(KeyError, match="P3.9"):
        sp.nb.checker("P3.9")
    for bad in ("P3", "p3.1", "P33.1", "PP.1", 3.1):
        with pytest.raises(ValueError, match="'P3.1' \\(project"):
            sp.nb.checker(bad)


@pytest.mark.parametrize("name", p3.MECHANISMS)
def test_mechanisms_start_closed_and_moving_with_the_marker_on_its_body(name):
    mech = p3.mechanism(name, crank_speed=4.0)
    model = mech.model
    assert np.abs(loops.loop_position_errors(model, mech.q0)).max() < 1e-10
    K, _ = loops.loop_constraints(model, mech.q0, mech.qd0)
    assert np.abs(K @ mech.qd0).max() < 1e-10 and mech.qd0[0] == pytest.approx(4.0)
    marker = mech.marker(sp.body_poses(model, mech.q0)[1:])
    if name == "jansen":
        np.testing.assert_allclose(marker[:2], sp.builders.jansen_points(0.0)["foot"])
    else:  # the middle of the rod, between the crank's end and the slider
        crank_end = 0.3 * np.array([np.cos(1.0), np.sin(1.0)])
        np.testing.assert_allclose(marker[:2], 0.5 * (crank_end + [mech.q0[2], 0.0]))


def test_mechanism_arguments_are_checked():
    with pytest.raises(ValueError, match="name must be one of"):
        p3.mechanism("klann")
    with pytest.raises(ValueError, match="crank_speed"):
        p3.mechanism("jansen", crank_speed=np.inf)


@pytest.mark.parametrize("name", p3.MECHANISMS)
def test_a_crank_turn_stays_closed_and_comes_back_to_the_start(name):
    mech = p3.mechanism(name)
    angles, q, G = mech.crank_turn(25)
    assert angles[-1] - angles[0] == pytest.approx(2 * np.pi) and q.shape == (25, mech.model.nq)
    assert np.abs(loops.loop_position_errors(mech.model, q)).max() < 1e-10
    back = q[-1] - mech.q0
    back[0] -= 2 * np.pi  # the crank made one turn, everything else is where it started
    assert np.abs((back + np.pi) % (2 * np.pi) - np.pi).max() < 1e-8
    K = np.stack([loops.loop_constraints(mech.model, qk, np.zeros(mech.model.nv))[0] for qk in q])
    assert np.abs(K @ G).max() < 1e-9  # G spans the motions the loops allow
    with pytest.raises(ValueError, match="n must be"):
        mech.crank_turn(1)
