"""Drawings of closed-chain linkages (spatial.viz.linkages) against the pins' known positions."""

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
    return model, sp.body_poses(model, q)[1:]


def _foot_marker(model):
    """The foot point in the foot body's coordinates (from the closed form at q = 0)."""
    T = sp.body_poses(model, model.neutral_configuration())[7]
    return 7, T[:3, :3].T @ (np.r_[B.jansen_points(0.0)["foot"], 0.0] - T[:3, 3])


def _rows(points):
    """The distinct finite rows of a (k, 3) array, rounded, as a set of tuples."""
    finite = points[np.all(np.isfinite(points), -1)]
    return {tuple(np.round(p, 9)) for p in finite}


def test_the_jansen_outline_passes_through_every_pin_and_the_foot():
    model, T = _jansen(0.4)
    P = B.jansen_points(0.4)
    out = sp.viz.linkage_outline(model, T, markers=[_foot_marker(model)])
    pins = {k: tuple(np.round([*P[k], 0.0], 9)) for k in P}
    assert {pins[k] for k in ("A", "top", "back", "knee", "ankle", "foot")} <= _rows(out.links)
    assert _rows(out.ground) == {pins["O"], pins["B"]}
    np.testing.assert_allclose(out.markers[0, :2], P["foot"], atol=1e-10)
    # seven bodies, each a polyline closed off by a NaN row; the two triangles are closed
    assert np.isnan(out.links).all(-1).sum() == model.NB
    pieces = [
        p[~np.isnan(p).all(-1)]
        for p in np.split(out.links, np.flatnonzero(np.isnan(out.links).all(-1)))
    ]
    pieces = [p for p in pieces if len(p)]
    closed = [p for p in pieces if len(p) == 4 and np.allclose(p[0], p[-1])]
    assert len(pieces) == model.NB and len(closed) == 2
    # ten pins: seven tree joints and the three loop joints
    assert out.pins.shape == (10, 3) and out.blocks.shape == (0, 3)


def test_a_slider_is_a_block_and_a_batch_of_poses_keeps_its_shape():
    model = B.crank_slider()
    closure = loops.crank_slider_closure()
    q = closure.gamma(np.array([[0.3], [1.2]]))
    T = sp.body_poses(model, q)[..., 1:, :, :]
    out = sp.viz.linkage_outline(model, T, markers=[(2, [0.5, 0.0, 0.0])])
    assert out.blocks.shape == (2, 1, 3)
    np.testing.assert_allclose(out.blocks[:, 0, 0], q[:, 2])  # the slider sits at x = q₃
    assert out.markers.shape == (2, 1, 3) and out.links.shape[0] == 2


def test_draw_and_animate_give_artists_and_an_offline_player():
    model, T = _jansen()
    fig, ax = plt.subplots()
    artists = sp.viz.draw_linkage(ax, model, T, markers=[_foot_marker(model)], label="leg")
    assert len(artists) == 5 and ax.get_legend_handles_labels()[1] == ["leg"]
    plt.close(fig)
    motion = np.stack([_jansen(s)[1] for s in (0.0, 0.1, 0.2)])
    html = sp.viz.animate_linkage(
        model, [motion, motion], labels=["a", "b"], markers=[_foot_marker(model)],
        times=[0.0, 0.1, 0.2], figsize=(2, 2),
    )  # fmt: skip
    frames = FRAME.findall(html.data)
    assert [int(k) for k in frames] == [0, 1, 2]
    assert not re.search(r"https?://", html.data)


def test_bad_arguments_are_named():
    model, T = _jansen()
    with pytest.raises(ValueError, match="poses must have shape"):
        sp.viz.linkage_outline(model, T[:3])
    with pytest.raises(ValueError, match="marker"):
        sp.viz.linkage_outline(model, T, markers=[(9, [0, 0, 0])])
    with pytest.raises(ValueError, match="marker"):
        sp.viz.linkage_outline(model, T, markers=[3])
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="plane"):
        sp.viz.draw_linkage(ax, model, T, plane="xw")
    with pytest.raises(ValueError, match="one set of poses"):
        sp.viz.draw_linkage(ax, model, T[None])
    plt.close(fig)
    with pytest.raises(ValueError, match="same T frames"):
        sp.viz.animate_linkage(model, [np.stack([T, T]), np.stack([T])])
    with pytest.raises(ValueError, match="one label per motion"):
        sp.viz.animate_linkage(model, np.stack([T, T]), labels=["a", "b"])
