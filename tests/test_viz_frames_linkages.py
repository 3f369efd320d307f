"""Tests of the drawings of frames (spatial.viz.frames) and of linkages (spatial.viz.linkages)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import spatial as sp  # noqa: E402
from spatial import builders  # noqa: E402
from spatial.dynamics import loops  # noqa: E402
from spatial.joints import PlanarTranslation, Prismatic, Revolute  # noqa: E402

TOL = 1e-12


def _ends(line):
    x, y, z = line.get_data_3d()
    return np.stack([x, y, z], -1)


def test_draw_triad_draws_the_columns_of_the_rotation():
    fig = plt.figure()
    ax = fig.add_subplot(projection="3d")
    T = np.eye(4)
    T[:3, :3], T[:3, 3] = sp.rotz(0.3)[:3, :3].T, [1.0, 2.0, 3.0]
    lines = sp.viz.draw_triad(ax, T, 0.5)
    for k, line in enumerate(lines):
        ends = _ends(line)
        assert np.allclose(ends[0], T[:3, 3], atol=TOL)
        assert np.allclose(ends[1], T[:3, 3] + 0.5 * T[:3, k], atol=TOL)
    with pytest.raises(ValueError, match="4x4"):
        sp.viz.draw_triad(ax, np.eye(3))
    with pytest.raises(ValueError, match="length must be > 0"):
        sp.viz.draw_triad(ax, np.eye(4), 0.0)
    plt.close(fig)


def test_draw_joint_motion_places_the_successor_frame():
    fig = plt.figure()
    ax = fig.add_subplot(projection="3d")
    # a quarter turn about z: F_s's x axis lies along F_p's y axis
    artists = sp.viz.draw_joint_motion(ax, Revolute("z"), [[np.pi / 2]], length=1.0, fade=False)
    x_axis = _ends(artists[-3])
    assert np.allclose(x_axis, [[0, 0, 0], [0, 1, 0]], atol=TOL)
    # a planar translation moves F_s's origin to a q1 + b q2 without turning it
    ax2 = fig.add_subplot(projection="3d")
    joint = PlanarTranslation("x", "z")
    artists = sp.viz.draw_joint_motion(ax2, joint, [[0.2, -0.5]], length=1.0)
    z_axis = _ends(artists[-1])
    assert np.allclose(z_axis, [[0.2, 0, -0.5], [0.2, 0, 0.5]], atol=TOL)
    with pytest.raises(ValueError, match=r"qs must have shape \(K, 2\)"):
        sp.viz.draw_joint_motion(ax2, joint, [0.1, 0.2, 0.3])
    plt.close(fig)


def test_draw_frames_draws_one_triad_per_body():
    model = builders.arm7()
    fig = plt.figure()
    ax = fig.add_subplot(projection="3d")
    q = np.linspace(-1, 1, 7)
    lines = sp.viz.draw_frames(ax, model, q, 0.1)
    assert len(lines) == 3 * model.NB
    T = sp.body_poses(model, q)
    assert np.allclose(_ends(lines[-1])[0], T[7][:3, 3], atol=TOL)
    with pytest.raises(ValueError, match="one configuration"):
        sp.viz.draw_frames(ax, model, np.zeros((2, 7)))
    plt.close(fig)


def test_cube_axes_gives_equal_scales_and_few_ticks():
    fig = plt.figure()
    ax = fig.add_subplot(projection="3d")
    sp.viz.cube_axes(ax, (0.0, 1.0, 0.5), 0.6, nticks=3)
    for lim, c in zip((ax.get_xlim(), ax.get_ylim(), ax.get_zlim()), (0.0, 1.0, 0.5), strict=True):
        assert np.allclose(lim, (c - 0.6, c + 0.6))
    assert 2 <= len(ax.get_xticks()) <= 4 and ax.get_zlabel() == "z (m)"
    with pytest.raises(ValueError, match="half must be > 0"):
        sp.viz.cube_axes(ax, (0, 0, 0), -1.0)
    with pytest.raises(ValueError, match="nticks"):
        sp.viz.cube_axes(ax, (0, 0, 0), 1.0, nticks=1)
    plt.close(fig)


def test_reach_box_holds_every_pose_of_the_arm(rng):
    model = builders.arm7()
    tool = np.array([0.0, 0.0, 0.08])
    center, half = sp.viz.reach_box(model, 7, tool, margin=0.0)
    # by hand: joint 1 at 0.15 m, then 0.19 + 0.21 + 0.19 + 0.21 + 0.19 + 0.08 and the tool
    assert np.allclose(center, [0, 0, 0.15]) and np.isclose(half, 1.15)
    q = rng.uniform(-np.pi, np.pi, (2000, 7))
    T = sp.body_poses(model, q)
    points = T[:, 7, :3, :3] @ tool + T[:, 7, :3, 3]
    assert np.all(np.abs(points - center) <= half + 1e-12)
    upright = sp.body_poses(model, np.zeros(7))[7] @ np.append(tool, 1.0)
    assert np.isclose(upright[2], center[2] + half)  # straight up, the tool touches the lid


def test_reach_box_rejects_what_it_cannot_bound():
    model = sp.Model()
    model.add_body(0, Prismatic("x"), np.eye(6), sp.point_mass_inertia(1.0, [0, 0, 0]))
    with pytest.raises(ValueError, match="translates"):
        sp.viz.reach_box(model, 1)
    arm = builders.arm7()
    with pytest.raises(ValueError, match="body must be a body number"):
        sp.viz.reach_box(arm, 8)
    with pytest.raises(ValueError, match="margin"):
        sp.viz.reach_box(arm, 7, margin=-1.0)


def test_linkage_of_a_closed_four_bar():
    lengths = dict(crank=0.3, coupler=1.0, rocker=0.8, ground=0.9)
    model = builders.four_bar(**lengths)
    q = loops.four_bar_closure(**lengths).gamma([0.7])
    lk = sp.viz.linkage(model, q)
    link = np.linalg.norm(lk.segments[:, 1] - lk.segments[:, 0], axis=-1)
    assert np.allclose(sorted(link), [0.3, 0.8, 1.0], atol=1e-12)
    assert np.allclose(lk.ground, [[0, 0, 0], [0.9, 0, 0]], atol=TOL)
    assert np.allclose(lk.pins[-1], lk.pins[-2], atol=1e-12)  # the loop is closed at pin C
    assert lk.sliders.shape == (0, 3) and lk.rails == []
    batch = sp.viz.linkage(model, np.stack([q, q]))
    assert batch.segments.shape == (2, 3, 2, 3) and batch.pins.shape == (2, 5, 3)


def test_linkage_of_the_crank_slider_has_a_rail_and_a_slider():
    model = builders.crank_slider(crank=0.3, rod=1.0, offset=0.1)
    q = loops.crank_slider_closure(crank=0.3, rod=1.0, offset=0.1).gamma([0.4])
    lk = sp.viz.linkage(model, q)
    assert np.allclose(lk.sliders, [[q[2], 0.1, 0.0]], atol=1e-12)
    ((body, start, axis),) = lk.rails
    assert body == 3 and np.allclose(start, [0, 0.1, 0]) and np.allclose(axis, [1, 0, 0])


def test_linkage_draws_a_piston_in_its_cylinder():
    model = builders.planar_loop_fig_8_3()
    y = np.array([0.9, -0.4])
    q = loops.fig_8_3_closure().gamma(y)
    lk = sp.viz.linkage(model, q)
    T = sp.body_poses(model, q)
    pivot, piston = T[2][:3, 3], T[3][:3, 3]  # the cylinder's pivot and the piston's end
    ends = lk.segments.reshape(-1, 2, 3)
    found = [np.allclose(e, [pivot, piston], atol=1e-12) for e in ends]
    assert any(found) and np.isclose(np.linalg.norm(piston - pivot), q[2])  # length d = q₃
    assert np.allclose(lk.sliders, [piston], atol=1e-12)


def test_draw_and_animate_linkage():
    model = builders.crank_slider()
    closure = loops.crank_slider_closure()
    qs = closure.gamma(np.linspace(0, 2 * np.pi, 12)[:, None])
    fig, ax = plt.subplots()
    artists = sp.viz.draw_linkage(ax, model, qs[0], label="crank-slider")
    assert len(artists) == 4 and artists[0].get_label() == "crank-slider"
    with pytest.raises(ValueError, match="plane"):
        sp.viz.draw_linkage(ax, model, qs[0], plane="xw")
    plt.close(fig)
    html = sp.viz.animate_linkage(model, qs, times=np.arange(12) * 0.1, max_frames=4)
    assert "<script" in html.data
    with pytest.raises(ValueError, match="qs must have shape"):
        sp.viz.animate_linkage(model, qs[0])
    with pytest.raises(ValueError, match="times must have shape"):
        sp.viz.animate_linkage(model, qs, times=[0.0, 1.0])


def test_bounding_cube_holds_the_points_and_skips_nans():
    points = np.array([[0.0, 0.0, 0.0], [1.0, 0.2, -0.4], [np.nan, 5.0, 5.0]])
    center, half = sp.viz.bounding_cube(points, margin=0.1)
    assert np.allclose(center, [0.5, 0.1, -0.2]) and np.isclose(half, 0.6)
    with pytest.raises(ValueError, match=r"shape \(\.\.\., 3\)"):
        sp.viz.bounding_cube(np.zeros((4, 2)))
    with pytest.raises(ValueError, match="no finite point"):
        sp.viz.bounding_cube(np.full((2, 3), np.nan))


def test_gear_outline_and_drive():
    outline = sp.viz.gear_outline((1.0, 2.0), 0.3, pitch=0.1)
    rho = np.linalg.norm(outline - [1.0, 2.0], axis=1)
    assert np.allclose(outline[0], outline[-1])  # closed
    assert np.isclose(rho.min(), 0.3 - 0.0125) and np.isclose(rho.max(), 0.3 + 0.0125)
    fig, ax = plt.subplots()
    out = sp.viz.draw_gear_drive(ax, 0.3, 0.1, angle=0.4)
    assert np.allclose(out["contact"], [-0.3, 0.0]) and {"force", "reaction"} <= set(out)
    assert "force" not in sp.viz.draw_gear_drive(ax, 0.3, 0.1, force=0.0)
    with pytest.raises(ValueError, match="pinion_radius must be > 0"):
        sp.viz.draw_gear_drive(ax, 0.3, 0.0)
    with pytest.raises(ValueError, match="force must be a number >= 0"):
        sp.viz.draw_gear_drive(ax, 0.3, 0.1, force=-1.0)
    plt.close(fig)
