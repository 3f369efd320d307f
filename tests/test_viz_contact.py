"""Side views of contact scenes (spatial.viz.contact): what is drawn is where the scene says."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import spatial as sp  # noqa: E402
from spatial import contact as ct  # noqa: E402


def _xy(artist):
    return np.column_stack(artist.get_data())


def test_ball_is_a_circle_of_its_radius_around_its_centre():
    ball = ct.bouncing_ball(0.5, height=0.3)
    fig, ax = plt.subplots()
    floor, rim, spoke = sp.viz.draw_scene(ax, ball.scene, ball.q0)
    centre = ball.q0[0, :3, 3]
    np.testing.assert_allclose(np.linalg.norm(_xy(rim) - centre[[0, 2]], axis=1), 0.1, rtol=1e-12)
    np.testing.assert_allclose(_xy(floor)[:, 1], 0.0, atol=1e-12)  # the floor z = 0
    np.testing.assert_allclose(_xy(spoke)[0], centre[[0, 2]])
    plt.close(fig)


def test_box_silhouette_spans_its_extents_and_contacts_point_along_normals():
    box = ct.sliding_box(mu=0.3, speed=0.0, half_extents=(0.2, 0.1, 0.05), system="free")
    fig, ax = plt.subplots()
    artists = sp.viz.draw_scene(ax, box.scene, box.q0)
    ring = artists[-1].get_xy()
    centre = box.q0[0, :3, 3]
    np.testing.assert_allclose(ring.min(axis=0), centre[[0, 2]] - [0.2, 0.05], atol=1e-12)
    np.testing.assert_allclose(ring.max(axis=0), centre[[0, 2]] + [0.2, 0.05], atol=1e-12)
    touching = box.scene.detect(box.q0)
    touching = touching.select(np.abs(touching.gap) < 1e-12)
    marks, *arrows = sp.viz.draw_contacts(ax, touching, forces=[1.0, 0.0, 2.0, 0.5], scale=0.2)
    assert len(arrows) == 3  # the contact without force gets no arrow
    tip = np.array(arrows[1].xy)  # the largest force: an arrow 0.2 m along the normal
    np.testing.assert_allclose(tip, touching.point[2, [0, 2]] + [0.0, 0.2], atol=1e-12)
    plt.close(fig)


def test_tree_scenes_draw_the_stick_figure_and_animations_play():
    pendulum = ct.double_pendulum_floor(floor=1.5, restitution=0.3, mu=0.3, h=4e-3)
    fig, ax = plt.subplots()
    artists = sp.viz.draw_scene(ax, pendulum.scene, pendulum.q0, plane="xy")
    assert len(artists) >= 3 + 2 * 2  # links, joints, coms; two bobs (rim and spoke)
    plt.close(fig)
    html = sp.viz.animate_scene(
        pendulum.scene, [pendulum.q0, pendulum.q0], times=[0.0, 0.1], plane="xy", max_frames=2
    )
    assert "<script" in html.data


def test_bad_arguments_are_named():
    ball = ct.bouncing_ball(0.5)
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="plane"):
        sp.viz.draw_scene(ax, ball.scene, ball.q0, plane="xw")
    with pytest.raises(ValueError, match="span"):
        sp.viz.draw_scene(ax, ball.scene, ball.q0, span=-1.0)
    with pytest.raises(ValueError, match="forces"):
        sp.viz.draw_contacts(ax, ball.scene.detect(ball.q0), forces=[1.0, 2.0])
    with pytest.raises(ValueError, match="qs"):
        sp.viz.animate_scene(ball.scene, [])
    with pytest.raises(ValueError, match="times"):
        sp.viz.animate_scene(ball.scene, [ball.q0], times=[0.0, 1.0])
    plt.close(fig)
