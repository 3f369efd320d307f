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
