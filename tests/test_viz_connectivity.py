"""Tests of spatial.viz.connectivity: connectivity and expanded graphs (Featherstone §4.1, 6.4)."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

from spatial import builders, joints
from spatial.viz.connectivity import draw_connectivity, joint_label


@pytest.fixture
def ax():
    fig, ax = plt.subplots()
    yield ax
    plt.close(fig)


def test_layout_puts_the_base_at_the_bottom_and_children_above(ax):
    model = builders.humanoid(floating=True)
    pos = draw_connectivity(ax, model, names=True)
    assert sorted(pos) == list(range(model.NB + 1))
    assert pos[0][1] == 0.0 and min(y for _, y in pos.values()) == 0.0
    for i in range(1, model.NB + 1):
        assert pos[i][1] == pos[model.parent[i]][1] + 1  # one level above its parent
    leaves = [i for i in range(1, model.NB + 1) if not model.children(i)]
    assert len({pos[i][0] for i in leaves}) == len(leaves)  # leaves never overlap
    labels = {t.get_text() for t in ax.texts}
    assert {"1: 6-DoF", "2: Rz", "l_foot"} <= labels


def test_chain_is_a_vertical_line(ax):
    pos = draw_connectivity(ax, builders.planar_chain(4))
    assert {x for x, _ in pos.values()} == {0.0}
    assert [pos[i][1] for i in range(5)] == [0.0, 1.0, 2.0, 3.0, 4.0]


def test_expanded_graph_has_one_arc_per_velocity_variable(ax):
    """Table 6.4's example: joint 2 with 3 DoF; λ = (0,1,1,2,2,3) → λ' = (0,1,2,3,1,4,4,5)."""
    model = builders.random_tree(np.random.default_rng(0), 1, joints=("R",))
    for parent, joint in [(1, "S"), (1, "R"), (2, "R"), (2, "R"), (3, "R")]:
        j = joints.SphericalYPR() if joint == "S" else joints.Revolute("z")
        model.add_body(parent, j, np.eye(6), model.inertia[1])
    pos = draw_connectivity(ax, model, expanded=True)
    assert len(pos) == model.nv + 1 == 9
    assert ax.get_title().endswith("(0, 1, 2, 3, 1, 4, 4, 5)")
    assert "3 (J2)" in {t.get_text() for t in ax.texts}


def test_joint_labels():
    assert joint_label(joints.Revolute("y")) == "Ry"
    assert joint_label(joints.Prismatic([0.6, 0.8, 0.0])) == "P"
    assert joint_label(joints.Reversed(joints.RackPinion(0.2))) == "rack"
    assert joint_label(joints.Free()) == "6-DoF"


def test_reversed_joint_arrow_points_to_the_parent(ax):
    """Polarity (§4.1.3): arrows go from predecessor to successor."""
    model = builders.random_tree(np.random.default_rng(1), 3, joints=("R",))
    model.add_body(2, joints.Reversed(joints.RackPinion(0.2)), np.eye(6), model.inertia[1])
    pos = draw_connectivity(ax, model)
    arcs = {(tuple(a.xyann), tuple(a.xy)) for a in ax.texts if hasattr(a, "xyann")}
    assert len(arcs) == model.NB
    for i in range(1, 4):  # forward joints: parent → child
        assert (pos[model.parent[i]], pos[i]) in arcs
    assert (pos[4], pos[2]) in arcs  # the reversed joint: child → parent


def test_not_a_model_raises(ax):
    with pytest.raises(ValueError, match="model must be a spatial.Model"):
        draw_connectivity(ax, [0, 1, 2])


def test_loop_joints_are_dashed_chords(ax):
    """A four-bar linkage: three tree joints and one chord numbered N_B + 1 (§4.1.1–4.1.2)."""
    model = builders.random_tree(np.random.default_rng(2), 3, joints=("Rz",), branching=0.0)
    model.add_loop_joint(3, 0, joints.Revolute("z"), np.eye(6), np.eye(6))
    pos = draw_connectivity(ax, model)
    arrows = [a for a in ax.texts if hasattr(a, "xyann")]
    dashed = [line for line in ax.lines if line.get_linestyle() == "--"]
    assert len(arrows) == 4 and len(dashed) == 1
    assert tuple(dashed[0].get_xydata()[0]) == pos[3]  # the chord leaves its predecessor …
    heads = [tuple(a.xy) for a in arrows if tuple(a.xyann) not in pos.values()]
    assert heads == [pos[0]]  # … and its arrowhead points at the successor
    assert "4: Rz" in {t.get_text() for t in ax.texts}
