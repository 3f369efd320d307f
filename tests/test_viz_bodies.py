"""Tests of spatial.viz.bodies: one rigid body drawn and animated (notebooks 01-03)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import spatial as sp  # noqa: E402
from spatial.viz import bodies  # noqa: E402

TOL = 1e-12


@pytest.fixture
def ax3d():
    fig = plt.figure()
    ax = fig.add_subplot(projection="3d")
    yield ax
    plt.close(fig)


@pytest.fixture
def ax2d():
    fig, ax = plt.subplots()
    yield ax
    plt.close(fig)


def _pose(rotvec, p):
    return sp.frame(sp.exp_so3(rotvec), p)


def test_box_edges_are_the_twelve_edges_of_the_posed_box():
    size = np.array([1.0, 0.6, 0.2])
    T = _pose([0.3, -0.2, 0.9], [1.0, 2.0, -0.5])
    edges = sp.viz.box_edges(size, T)
    assert edges.shape == (12, 2, 3)
    lengths = np.linalg.norm(edges[:, 1] - edges[:, 0], axis=-1)
    assert np.allclose(sorted(lengths), np.repeat(sorted(size), 4), atol=TOL)
    # every corner is the pose applied to (±lx/2, ±ly/2, ±lz/2), and the centre is T's origin
    body = (edges.reshape(-1, 3) - T[:3, 3]) @ T[:3, :3]
    assert np.allclose(np.abs(body), size / 2, atol=TOL)
    assert np.allclose(edges.reshape(-1, 3).mean(0), T[:3, 3], atol=TOL)


def test_box_edges_batched_equals_looped():
    T = sp.exp_se3(np.random.default_rng(1).normal(size=(4, 6)))
    batched = sp.viz.box_edges([1.0, 2.0, 3.0], T)
    assert batched.shape == (4, 12, 2, 3)
    for k in range(4):
        assert np.allclose(batched[k], sp.viz.box_edges([1.0, 2.0, 3.0], T[k]), atol=TOL)


@pytest.mark.parametrize(
    "size, T, match",
    [
        ([1.0, 0.0, 1.0], None, "size must be positive"),
        ([1.0, 1.0], None, r"size must have shape \(\.\.\., 3\)"),
        ([1.0, 1.0, 1.0], 2 * np.eye(4), "not a rigid frame|not orthonormal"),
    ],
)
def test_box_edges_rejects_bad_input(size, T, match):
    with pytest.raises(ValueError, match=match):
        sp.viz.box_edges(size, T)


def test_draw_box_and_frame_in_3d(ax3d):
    T = _pose([0.0, 0.0, np.pi / 2], [1.0, 0.0, 0.0])
    line = sp.viz.draw_box(ax3d, [1.0, 1.0, 1.0], T)
    xs, ys, zs = line.get_data_3d()
    assert np.isnan(xs).sum() == 12 and len(xs) == 36  # 12 segments separated by NaN breaks
    artists = sp.viz.draw_frame(ax3d, T, scale=0.5, label="B")
    assert len(artists) == 6  # three arrows and three labels
    labels = [t.get_text() for t in ax3d.texts]
    assert labels == ["$x_{B}$", "$y_{B}$", "$z_{B}$"]
    # the x label sits beyond the tip of the turned x axis, which points along world y
    x_label = ax3d.texts[0]
    assert np.allclose([*x_label.get_position(), x_label._z], [1.0, 0.575, 0.0], atol=TOL)


def test_draw_frame_in_2d_draws_x_and_y(ax2d):
    T = _pose([0.0, 0.0, 0.5], [1.5, 0.8, 0.0])
    artists = sp.viz.draw_frame(ax2d, T, scale=0.8, label="B", color="C1")
    assert len(artists) == 4
    assert [t.get_text() for t in ax2d.texts if t.get_text()] == ["$x_{B}$", "$y_{B}$"]
    with pytest.raises(ValueError, match="scale must be > 0"):
        sp.viz.draw_frame(ax2d, T, scale=0.0)
    with pytest.raises(ValueError, match="one frame"):
        sp.viz.draw_frame(ax2d, np.stack([T, T]))


def test_style_3d_sets_a_cube_with_units_and_few_ticks(ax3d):
    sp.viz.style_3d(ax3d, 2.0, centre=[1.0, 0.0, -1.0], nticks=5)
    assert ax3d.get_xlim() == (-1.0, 3.0) and ax3d.get_zlim() == (-3.0, 1.0)
    assert ax3d.get_xlabel() == "x (m)" and ax3d.get_zlabel() == "z (m)"
    ticks = [t for t in ax3d.get_xticks() if -1.0 <= t <= 3.0]
    assert 3 <= len(ticks) <= 5
    with pytest.raises(ValueError, match="nticks"):
        sp.viz.style_3d(ax3d, 1.0, nticks=1)


def test_inertia_ellipsoid_follows_the_principal_axes(ax3d):
    I_C = np.diag([4.0, 9.0, 12.25])
    I = sp.mcI(2.0, [0.1, 0.2, 0.3], I_C)
    out = sp.viz.draw_inertia_ellipsoid(ax3d, I, scale=0.6)
    assert np.allclose(out["centre"], [0.1, 0.2, 0.3], atol=TOL)
    assert np.allclose(out["moments"], [4.0, 9.0, 12.25], atol=1e-12)
    assert np.allclose(out["semi_axes"], [0.6, 0.4, 1.2 / 3.5], atol=TOL)  # ∝ 1/√d, longest = scale
    assert ax3d.get_legend() is not None


def test_screw_field_axis_points_move_along_the_axis(ax3d):
    v = np.array([0.0, 0.0, 2.0, 0.0, 1.0, 0.5])  # axis along z through (-0.5, 0, 0), pitch 0.25
    vel = sp.viz.draw_screw_field(ax3d, v, [-0.5, 0.0, 0.0], [0.0, 0.0, 1.0], grid=2)
    assert np.allclose(vel, [[0.0, 0.0, 0.5]] * 3, atol=TOL)
    assert ax3d.get_xlabel() == "x (m)"
    with pytest.raises(ValueError, match="grid"):
        sp.viz.draw_screw_field(ax3d, v, [0.0, 0.0, 0.0], [0.0, 0.0, 1.0], grid=1)


def test_planar_field_is_the_rigid_body_field_with_its_centre(ax2d):
    v = np.array([0.8, 0.4, -0.6])
    pts = np.array([[0.0, 0.0], [1.0, 2.0], [0.75, 0.5]])
    vel = sp.viz.draw_planar_field(ax2d, v, pts, frames=[((0.0, 0.0), 0.0, "A", "C0")])
    # v_P = v_O + ω ẑ × p, written out
    expected = v[1:] + v[0] * np.stack([-pts[:, 1], pts[:, 0]], -1)
    assert np.allclose(vel, expected, atol=TOL)
    assert np.allclose(vel[2], 0.0, atol=TOL)  # (0.75, 0.5) is the instantaneous centre
    star = [line for line in ax2d.lines if line.get_marker() == "*"][0]
    assert np.allclose(np.ravel(star.get_xydata()), [0.75, 0.5], atol=TOL)


def test_animate_rigid_body_makes_an_offline_player():
    t = np.linspace(0.0, 1.0, 30)
    poses = sp.exp_se3(t[:, None] * np.array([0.0, 0.0, 2.0, 0.5, 0.0, 0.1]))
    html = sp.viz.animate_rigid_body(
        poses,
        [0.4, 0.2, 0.1],
        times=t,
        body_axes="y",
        trail=[0.2, 0.1, 0.05],
        lines=[(np.array([[0, 0, -1.0], [0, 0, 1.0]]), dict(color="C3", label="axis"))],
        max_frames=5,
    )
    assert "fa fa-" not in html.data and html.data.count("data:image/png") == 5
    assert plt.get_fignums() == []


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(times=np.zeros(3)), "times must have shape"),
        (dict(body_axes="w"), "body_axes"),
        (dict(max_frames=0), "max_frames"),
    ],
)
def test_animate_rigid_body_rejects_bad_input(kwargs, match):
    poses = np.broadcast_to(np.eye(4), (4, 4, 4))
    with pytest.raises(ValueError, match=match):
        bodies.animate_rigid_body(poses, [1.0, 1.0, 1.0], **kwargs)
    with pytest.raises(ValueError, match=r"poses must have shape \(T, 4, 4\)"):
        bodies.animate_rigid_body(np.eye(4), [1.0, 1.0, 1.0])
