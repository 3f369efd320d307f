"""Tests of the branch colouring of trees and of their H (spatial.viz.sparsity)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.colors as mcolors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import spatial as sp  # noqa: E402
from spatial import builders  # noqa: E402


@pytest.fixture
def ax():
    fig, ax = plt.subplots()
    yield ax
    plt.close(fig)


def test_branches_of_a_binary_tree_a_chain_and_the_humanoid():
    tree = builders.branched_tree(7, branching_factor=2.0)  # 1 -> {2, 3}, 2 -> {4, 5}, 3 -> {6, 7}
    assert list(sp.viz.branches(tree)) == [0, 0, 1, 2, 1, 1, 2, 2]
    assert not sp.viz.branches(builders.branched_tree(5)).any()  # a chain is all trunk
    # the humanoid's torso carries head, two arms (3 bodies) and two legs (4 bodies)
    assert (
        list(sp.viz.branches(builders.humanoid()))
        == [0, 0, 1] + [2] * 3 + [3] * 3 + [4] * 4 + [5] * 4
    )
    # several bodies on the base: each is a branch, the trunk is the base alone
    model = sp.Model()
    for _ in range(2):
        model.add_body(0, sp.joints.Revolute("z"), np.eye(6), np.eye(6))
    assert list(sp.viz.branches(model)) == [0, 1, 2]


def test_spread_configuration_fans_siblings_symmetrically():
    tree = builders.branched_tree(7, branching_factor=2.0)
    q = sp.viz.spread_configuration(tree, spread=0.6, bend=0.1, root=1.0)
    assert np.allclose(q, [1.0, -0.3, 0.3, -0.3, 0.3, -0.3, 0.3])
    chain = sp.viz.spread_configuration(builders.branched_tree(3), bend=0.1, root=0.5)
    assert np.allclose(chain, [0.5, 0.1, 0.1])
    with pytest.raises(ValueError, match="one-variable joints"):
        sp.viz.spread_configuration(builders.humanoid(floating=True))


def test_draw_branches_colours_each_link_by_its_branch(ax):
    tree = builders.branched_tree(7, branching_factor=2.0)
    sp.viz.draw_branches(ax, tree, sp.viz.spread_configuration(tree))
    colors = {mcolors.to_hex(line.get_color()) for line in ax.lines}
    assert colors == {mcolors.to_hex(c) for c in (sp.viz.TRUNK_COLOR, "C0", "C1")}
    # per colour a polyline of links (NaN breaks between segments), joints and centres of mass
    assert len(ax.lines) == 3 * 3
    links = [line.get_xydata() for line in ax.lines[::3]]
    segments = sp.viz.skeleton(tree, np.zeros(7)).segments.shape[0]
    assert sum(len(xy) // 3 for xy in links) == segments
    # the trunk is body 1 alone: its link, from joint 1 to the attachments of bodies 2 and 3
    trunk = ax.lines[0].get_xydata()
    assert mcolors.to_hex(ax.lines[0].get_color()) == mcolors.to_hex(sp.viz.TRUNK_COLOR)
    assert len(trunk) == 3 * 3  # attachment -> joint 1, joint 1 -> joint 2, joint 1 -> joint 3


def test_draw_sparsity_leaves_the_blocks_between_branches_white(ax):
    tree = builders.branched_tree(7, branching_factor=2.0)
    H = sp.crba(tree, tree.random_configuration(np.random.default_rng(0)))
    image = sp.viz.draw_sparsity(ax, tree, H).get_array()
    white, blue, orange = np.ones(3), mcolors.to_rgb("C0"), mcolors.to_rgb("C1")
    grey = mcolors.to_rgb(sp.viz.TRUNK_COLOR)
    assert np.allclose(image[0, 0], grey) and np.allclose(image[3, 0], grey)  # trunk row/column
    assert np.allclose(image[1, 3], blue) and np.allclose(image[6, 2], orange)  # 2-4, 3-7
    assert np.allclose(image[1, 2], white) and np.allclose(image[3, 6], white)  # 2-3, 4-7
    assert np.allclose(image[3, 4], white)  # siblings 4 and 5 in one branch: still zero
    assert ax.get_title() == f"non-zeros (7x7), density {np.count_nonzero(H) / 49:.2f}"


def test_bad_input_is_named(ax):
    tree = builders.branched_tree(3)
    with pytest.raises(ValueError, match="model must be a spatial.Model"):
        sp.viz.branches("tree")
    with pytest.raises(ValueError, match="H must have shape"):
        sp.viz.draw_sparsity(ax, tree, np.eye(4))
    with pytest.raises(ValueError, match="tol"):
        sp.viz.draw_sparsity(ax, tree, np.eye(3), tol=0.0)
    with pytest.raises(ValueError, match="q must"):
        sp.viz.draw_branches(ax, tree, np.zeros((2, 3)))
    with pytest.raises(ValueError, match="plane"):
        sp.viz.draw_branches(ax, tree, np.zeros(3), plane="ab")
