"""Tests of the stick-figure drawings and animations (spatial.viz.models)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import spatial as sp  # noqa: E402
from spatial import builders  # noqa: E402
from spatial.joints import Prismatic, Revolute  # noqa: E402

TOL = 1e-12


def bobs(theta1, theta2, l1=1.0, l2=0.7):
    """Closed-form bob positions of the double pendulum (angles from straight down, about z)."""
    p1 = np.array([l1 * np.sin(theta1), -l1 * np.cos(theta1), 0.0])
    p2 = p1 + np.array([l2 * np.sin(theta1 + theta2), -l2 * np.cos(theta1 + theta2), 0.0])
    return p1, p2


def test_skeleton_of_a_double_pendulum():
    model = builders.double_pendulum(lengths=(1.0, 0.7))
    sk = sp.viz.skeleton(model, [0.7, -1.2])
    p1, p2 = bobs(0.7, -1.2)
    assert np.allclose(sk.coms[1], p1, atol=TOL) and np.allclose(sk.coms[2], p2, atol=TOL)
    assert np.all(np.isnan(sk.coms[0]))
    assert np.allclose(sk.joints[1], 0.0, atol=TOL) and np.allclose(sk.joints[2], p1, atol=TOL)
    # links: two joint-to-joint attachments (zero length for revolute joints), the upper arm
    # from joint 1 to joint 2's attachment and the lower arm from joint 2 to the leaf's bob
    assert sk.segments.shape == (4, 2, 3)
    lengths = np.linalg.norm(sk.segments[:, 1] - sk.segments[:, 0], axis=-1)
    assert np.allclose(sorted(lengths), [0.0, 0.0, 0.7, 1.0], atol=TOL)


def test_skeleton_batched_equals_looped(rng):
    model = builders.random_tree(rng, 6, joints=("R", "P", "S", "FREE"))
    q = model.random_configuration(rng, (2, 3))
    sk = sp.viz.skeleton(model, q)
    for j in np.ndindex(2, 3):
        one = sp.viz.skeleton(model, q[j])
        for name in ("segments", "joints", "coms"):
            assert np.allclose(getattr(sk, name)[j], getattr(one, name), atol=TOL, equal_nan=True)


def test_sliding_joint_and_massless_body():
    model = sp.Model()
    cart = model.add_body(0, Prismatic("x"), sp.xlt([0.0, 1.0, 0.0]), np.zeros((6, 6)))
    model.add_body(cart, Revolute("z"), np.eye(6), sp.point_mass_inertia(2.0, [0.0, -0.5, 0.0]))
    sk = sp.viz.skeleton(model, [0.3, 0.0])
    assert np.all(np.isnan(sk.coms[1]))  # massless: no centre of mass
    assert np.allclose(sk.segments[0], [[0.0, 1.0, 0.0], [0.3, 1.0, 0.0]], atol=TOL)  # slide


def test_draw_model_in_2d_and_3d():
    model = builders.double_pendulum(lengths=(1.0, 0.7))
    p1, p2 = bobs(0.3, 0.4)
    fig, ax = plt.subplots()
    links, joints, coms = sp.viz.draw_model(ax, model, [0.3, 0.4])
    x, y = coms.get_data()
    assert np.allclose(x, [p1[0], p2[0]]) and np.allclose(y, [p1[1], p2[1]])
    x, y = links.get_data()
    assert np.isclose(np.nanmax(y) - np.nanmin(y), -p2[1])
    _, _, coms_xz = sp.viz.draw_model(ax, model, [[0.3, 0.4], [0.0, 0.0]], plane="xz", alpha=0.2)
    assert len(coms_xz.get_data()[0]) == 4 and np.allclose(coms_xz.get_data()[1], 0.0)
    plt.close(fig)
    fig = plt.figure()
    ax3 = fig.add_subplot(projection="3d")
    _, _, coms3 = sp.viz.draw_model(ax3, model, [0.3, 0.4])
    xs, ys, zs = coms3.get_data_3d()
    assert np.allclose(xs, [p1[0], p2[0]]) and np.allclose(zs, 0.0)
    plt.close(fig)


def test_animate_returns_html():
    model = builders.double_pendulum()
    qs = np.stack([np.linspace(0.0, 1.0, 30), np.linspace(0.5, -0.5, 30)], -1)
    html = sp.viz.animate(model, qs, times=np.linspace(0, 1, 30), trace=2, max_frames=4)
    assert "<script" in html.data and html.data.count("frames[") >= 4
    fan = np.stack([qs, qs + 0.1], 1)  # two copies at once, in 3D
    assert "<script" in sp.viz.animate(model, fan, three_d=True, trace=2, max_frames=2).data
    assert not plt.get_fignums()  # the figure is closed


def test_errors():
    model = builders.double_pendulum()
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="plane must be one of"):
        sp.viz.draw_model(ax, model, [0.0, 0.0], plane="xw")
    plt.close(fig)
    with pytest.raises(ValueError, match="q must have shape"):
        sp.viz.skeleton(model, [0.0])
    qs = np.zeros((5, 2))
    with pytest.raises(ValueError, match="qs must have shape"):
        sp.viz.animate(model, [0.0, 0.0])
    with pytest.raises(ValueError, match="times must have shape"):
        sp.viz.animate(model, qs, times=np.zeros(4))
    with pytest.raises(ValueError, match="trace must be a body number"):
        sp.viz.animate(model, qs, trace=3)
    with pytest.raises(ValueError, match="max_frames must be"):
        sp.viz.animate(model, qs, max_frames=0)
    with pytest.raises(ValueError, match="plane must be one of"):
        sp.viz.animate(model, qs, plane="ab")


def test_animate_keeps_the_axis_labels_inside_the_figure(monkeypatch):
    outside = []

    def measure(animation):  # stands in for the player: measures the labels of the figure
        fig = animation._fig
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        box = fig.bbox
        for label in (fig.axes[0].xaxis.label, fig.axes[0].yaxis.label):
            e = label.get_window_extent(renderer)
            if e.x0 < box.x0 or e.x1 > box.x1 or e.y0 < box.y0 or e.y1 > box.y1:
                outside.append(label.get_text())
        return "<script></script>"

    monkeypatch.setattr(sp.viz.models, "animation_html", measure)
    model = builders.double_pendulum()
    qs = np.linspace([0.0, 0.0], [1.0, -1.0], 5)
    sp.viz.animate(model, qs, times=np.linspace(0, 1, 5), title="swing", max_frames=2)
    assert outside == []
