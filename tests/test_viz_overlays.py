"""Tests of the overlays on stick figures (spatial.viz.overlays): arrows and shaded poses."""

import matplotlib

matplotlib.use("Agg")

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


def test_arrows_are_vector_over_scale_long_and_fit_the_axes(ax):
    tails = np.array([[0.0, 0.0], [1.0, 0.0]])
    vectors = np.array([[300.0, 0.0], [0.0, -150.0]])  # 2 m and 1 m of arrow at scale 150
    q = sp.viz.draw_arrows(ax, tails, vectors, scale=150.0, label="force")
    assert np.allclose(q.U, vectors[:, 0]) and np.allclose(q.V, vectors[:, 1])
    assert q.scale == 150.0 and q.get_label() == "force"
    x0, x1 = ax.get_xlim()
    y0, y1 = ax.get_ylim()
    # the tips (2, 0) and (1, -1) lie inside the autoscaled limits; quiver alone leaves them out
    assert x0 <= 0.0 and x1 >= 2.0 and y0 <= -1.0 and y1 >= 0.0


def test_arrows_project_3d_points_onto_the_plane(ax):
    tails = np.array([[1.0, 2.0, 3.0]])
    vectors = np.array([[4.0, 5.0, 6.0]])
    q = sp.viz.draw_arrows(ax, tails, vectors, plane="xz")
    assert np.allclose(q.X, [1.0]) and np.allclose(q.Y, [3.0])
    assert np.allclose(q.U, [4.0]) and np.allclose(q.V, [6.0])


def test_arrows_bad_input_is_named(ax):
    with pytest.raises(ValueError, match="scale"):
        sp.viz.draw_arrows(ax, [[0.0, 0.0]], [[1.0, 0.0]], scale=0.0)
    with pytest.raises(ValueError, match="same shape"):
        sp.viz.draw_arrows(ax, [[0.0, 0.0]], [[1.0, 0.0, 0.0]])
    with pytest.raises(ValueError, match="tails"):
        sp.viz.draw_arrows(ax, [[0.0, 0.0, 0.0, 0.0]], [[1.0, 0.0, 0.0, 0.0]])
    with pytest.raises(ValueError, match="vectors"):
        sp.viz.draw_arrows(ax, [[0.0, 0.0]], [[np.nan, 0.0]])
    with pytest.raises(ValueError, match="plane"):
        sp.viz.draw_arrows(ax, [[0.0, 0.0]], [[1.0, 0.0]], plane="xw")
    fig3d = plt.figure()
    try:
        with pytest.raises(ValueError, match="2D axes"):
            sp.viz.draw_arrows(fig3d.add_subplot(projection="3d"), [[0.0, 0.0]], [[1.0, 0.0]])
    finally:
        plt.close(fig3d)


def test_poses_are_shaded_from_light_to_dark(ax):
    model = builders.double_pendulum()
    qs = np.linspace([0.0, 0.0], [1.0, -1.0], 4)
    drawn = sp.viz.draw_poses(ax, model, qs, lightest=0.8, darkest=0.2)
    assert len(drawn) == 4
    greys = [matplotlib.colors.to_rgb(artists[0].get_color())[0] for artists in drawn]
    assert np.allclose(greys, [0.8, 0.6, 0.4, 0.2])
    # each pose is the stick figure of its configuration: the last pose's centres of mass
    coms = sp.viz.skeleton(model, qs[-1]).coms[1:, :2]
    assert np.allclose(np.column_stack(drawn[-1][2].get_data()), coms)


def test_poses_bad_input_is_named(ax):
    model = builders.double_pendulum()
    with pytest.raises(ValueError, match="qs"):
        sp.viz.draw_poses(ax, model, [0.0, 0.0])
    with pytest.raises(ValueError, match="lightest"):
        sp.viz.draw_poses(ax, model, [[0.0, 0.0]], lightest=1.5)


def test_animate_members_draws_each_member_in_its_colour(monkeypatch):
    drawn = {}

    def grab(animation):  # stands in for the player: look at the figure and its last frame
        fig = animation._fig
        animation._func(1)  # draw the last of the two frames
        ax = fig.axes[0]
        drawn["colors"] = [matplotlib.colors.to_hex(line.get_color()) for line in ax.lines]
        drawn["legend"] = [t.get_text() for t in ax.get_legend().get_texts()]
        drawn["title"] = ax.get_title()
        drawn["bobs"] = ax.lines[2].get_xydata(), ax.lines[5].get_xydata()
        return "<script></script>"

    monkeypatch.setattr(sp.viz.overlays, "animation_html", grab)  # bound at import
    model = builders.double_pendulum()
    qs = np.stack([np.linspace([0.0, 0.0], [1.0, -1.0], 3), np.zeros((3, 2))], axis=1)
    sp.viz.animate_members(
        model, qs, ["C0", "C3"], times=[0.0, 0.5, 1.0], labels=["a", "b"], max_frames=2, trace=2
    )
    assert drawn["colors"][:3] == [matplotlib.colors.to_hex("C0")] * 3
    assert drawn["colors"][3:6] == [matplotlib.colors.to_hex("C3")] * 3
    assert drawn["legend"] == ["a", "b"] and drawn["title"] == "t = 1.00 s"
    # the last frame shows each member's own state: member a at q = (1, -1), member b at rest
    coms_a = sp.viz.skeleton(model, [1.0, -1.0]).coms[1:, :2]
    coms_b = sp.viz.skeleton(model, [0.0, 0.0]).coms[1:, :2]
    assert np.allclose(drawn["bobs"][0], coms_a) and np.allclose(drawn["bobs"][1], coms_b)


def test_animate_members_bad_input_is_named():
    model = builders.double_pendulum()
    qs = np.zeros((3, 2, 2))
    with pytest.raises(ValueError, match="qs must have shape"):
        sp.viz.animate_members(model, np.zeros((3, 2)), ["C0", "C1"])
    with pytest.raises(ValueError, match="colors"):
        sp.viz.animate_members(model, qs, ["C0"])
    with pytest.raises(ValueError, match="labels"):
        sp.viz.animate_members(model, qs, ["C0", "C1"], labels=["a"])
    with pytest.raises(ValueError, match="times"):
        sp.viz.animate_members(model, qs, ["C0", "C1"], times=[0.0])
    with pytest.raises(ValueError, match="trace"):
        sp.viz.animate_members(model, qs, ["C0", "C1"], trace=3)
