"""Linkages drawn from body poses, with marker points (spatial.viz.linkages), against the pins'
known positions: Jansen's leg (its joint positions in closed form) and the crank-slider.

The drawing of a configuration ``q`` is tested in tests/test_viz_frames_linkages.py; here the
same drawing is given the body poses instead, as any formulation (tree, REDMAX, maximal) has
them, and marks a point such as the foot."""

import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import spatial as sp  # noqa: E402
from spatial import builders as B  # noqa: E402
from spatial.dynamics import loops  # noqa: E402

FRAME = re.compile(r"frames\[(\d+)\] = \"data:image/png;base64,")


def _jansen(step=0.0):
    model = B.jansen_leg()
    q = loops.newton_closure(model, [0], model.neutral_configuration()).gamma(np.array([step]))
    return model, q


def _foot_marker(model):
    """The foot point in the foot body's coordinates (from the closed form at q = 0)."""
    T = sp.body_poses(model, model.neutral_configuration())[7]
    return 7, T[:3, :3].T @ (np.r_[B.jansen_points(0.0)["foot"], 0.0] - T[:3, 3])


def _rows(points):
    """The distinct rows of an (..., 3) array, rounded, as a set of tuples."""
    return {tuple(np.round(p, 9)) for p in points.reshape(-1, 3)}


def test_the_jansen_drawing_passes_through_every_pin_and_the_foot():
    model, q = _jansen(0.4)
    P = B.jansen_points(0.4)
    T = sp.body_poses(model, q)[1:]
    lk = sp.viz.linkage(model, poses=T, markers=[_foot_marker(model)])
    pins = {k: tuple(np.round([*P[k], 0.0], 9)) for k in P}
    assert {pins[k] for k in ("A", "top", "back", "knee", "ankle", "foot")} <= _rows(lk.segments)
    assert _rows(lk.ground) == {pins["O"], pins["B"]}
    np.testing.assert_allclose(lk.markers[0, :2], P["foot"], atol=1e-10)
    # five bars and two plates (the triangle b-d-e and the foot g-h-i with its marked corner)
    assert lk.segments.shape == (5 + 2 * 3, 2, 3)
    corners = [
        {pins[k] for k in ("B", "top", "back")},
        {pins[k] for k in ("knee", "ankle", "foot")},
    ]
    for triangle in corners:
        sides = [s for s in lk.segments if _rows(s) <= triangle]
        assert len(sides) == 3 and _rows(np.array(sides)) == triangle  # closed
    # seven tree joints, then both ends of each of the three loop joints, which meet
    assert lk.pins.shape == (7 + 2 * 3, 3)
    np.testing.assert_allclose(lk.pins[7::2], lk.pins[8::2], atol=1e-9)
    # without the marker the foot is the bar knee-ankle
    assert sp.viz.linkage(model, q).segments.shape == (6 + 3, 2, 3)


def test_poses_and_configuration_give_the_same_drawing():
    model, q = _jansen(1.1)
    marker = [_foot_marker(model)]
    by_q = sp.viz.linkage(model, q, markers=marker)
    by_poses = sp.viz.linkage(model, poses=sp.body_poses(model, q)[1:], markers=marker)
    for name in ("segments", "pins", "sliders", "ground", "markers"):
        np.testing.assert_allclose(getattr(by_poses, name), getattr(by_q, name), atol=1e-12)
    # so do the poses of a REDMAX system of the same leg
    system = sp.systems.RedmaxSystem(model)
    np.testing.assert_allclose(
        sp.viz.linkage(model, poses=system.poses(q), markers=marker).segments, by_q.segments
    )


def test_a_slider_and_a_batch_of_poses_keep_their_shape():
    model = B.crank_slider()
    q = loops.crank_slider_closure().gamma(np.array([[0.3], [1.2]]))
    T = sp.body_poses(model, q)[..., 1:, :, :]
    lk = sp.viz.linkage(model, poses=T, markers=[(2, [0.5, 0.0, 0.0])])
    assert lk.sliders.shape == (2, 1, 3)
    np.testing.assert_allclose(lk.sliders[:, 0, 0], q[:, 2])  # the slider sits at x = q₃
    assert lk.markers.shape == (2, 1, 3) and lk.segments.shape[0] == 2


def test_draw_and_animate_poses_with_a_marker_and_several_motions():
    model, q = _jansen()
    T = sp.body_poses(model, q)[1:]
    fig, ax = plt.subplots()
    artists = sp.viz.draw_linkage(ax, model, poses=T, markers=[_foot_marker(model)], label="leg")
    assert len(artists) == 5 and ax.get_legend_handles_labels()[1] == ["leg"]
    assert artists[4].get_marker() == "*"  # links, pins, sliders, ground, then the marker
    plt.close(fig)
    qs = np.stack([_jansen(s)[1] for s in (0.0, 0.1, 0.2)])
    motion = sp.body_poses(model, qs)[:, 1:]
    html = sp.viz.animate_linkage(
        model, poses=[motion, motion], labels=["a", "b"], markers=[_foot_marker(model)],
        times=[0.0, 0.1, 0.2], figsize=(2, 2),
    )  # fmt: skip
    assert [int(k) for k in FRAME.findall(html.data)] == [0, 1, 2]
    assert not re.search(r"https?://", html.data)
    html = sp.viz.animate_linkage(model, qs, markers=[_foot_marker(model)], figsize=(2, 2))
    assert len(FRAME.findall(html.data)) == 3


def test_bad_arguments_are_named():
    model, q = _jansen()
    T = sp.body_poses(model, q)[1:]
    with pytest.raises(ValueError, match="poses must be finite, of shape"):
        sp.viz.linkage(model, poses=T[:3])
    with pytest.raises(ValueError, match="not both"):
        sp.viz.linkage(model, q, poses=T)
    with pytest.raises(ValueError, match="not both"):
        sp.viz.linkage(model)
    with pytest.raises(ValueError, match=r"markers\[0\]'s body must be an integer in \[1, 7\]"):
        sp.viz.linkage(model, q, markers=[(9, [0, 0, 0])])
    with pytest.raises(ValueError, match=r"markers\[0\] must be a pair"):
        sp.viz.linkage(model, q, markers=[3])
    with pytest.raises(ValueError, match=r"markers\[0\]'s point"):
        sp.viz.linkage(model, q, markers=[(2, [0, 0])])
    with pytest.raises(ValueError, match="model must be a spatial.Model"):
        sp.viz.linkage("leg", q)
    motion = sp.body_poses(model, np.stack([q, q]))[:, 1:]
    with pytest.raises(ValueError, match="same T frames"):
        sp.viz.animate_linkage(model, poses=[motion, motion[:1]])
    with pytest.raises(ValueError, match="one label per motion"):
        sp.viz.animate_linkage(model, poses=motion, labels=["a", "b"])


def test_overlaid_motions_stay_distinguishable_and_frames_follow_dpi(monkeypatch):
    import base64
    import struct

    model, q = _jansen()
    motion = sp.body_poses(model, np.stack([q, q]))[:, 1:]
    closed = []
    monkeypatch.setattr(plt, "close", lambda fig=None: closed.append(fig))
    html = sp.viz.animate_linkage(
        model, poses=[motion, motion, motion], labels=["a", "b", "c"], figsize=(4, 3), dpi=50,
    )  # fmt: skip
    png = re.search(r'frames\[0\] = "data:image/png;base64,([^"]+)"', html.data).group(1)
    width, height = struct.unpack(">II", base64.b64decode(png.replace("\\n", ""))[16:24])
    assert (width, height) == (200, 150)  # figsize × dpi
    (ax,) = closed[0].axes
    links = [line for line in ax.get_lines() if line.get_label() in ("a", "b", "c")]
    assert [line.get_linestyle() for line in links] == ["-", "--", ":"]
    assert {line.get_color() for line in links} == {"C0", "C1", "C2"}
    assert all(line.get_alpha() == 1.0 for line in links)
    legend = ax.get_legend()
    assert legend is not None and legend.get_bbox_to_anchor().x0 > ax.bbox.x1 - 1  # outside
    with pytest.raises(ValueError, match="dpi"):
        sp.viz.animate_linkage(model, poses=motion, dpi=0)
