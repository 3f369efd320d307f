"""Tests of the spring, box and muscle drawings (spatial.viz.springs, spatial.viz.muscles)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import spatial as sp  # noqa: E402
from spatial import forces  # noqa: E402
from spatial.builders import elbow_arm26  # noqa: E402

springs, muscles = sp.viz.springs, sp.viz.muscles


def test_coil_runs_from_end_to_end_and_stays_within_its_width():
    a, b = np.array([0.0, 0.0]), np.array([3.0, 4.0])
    pts = springs.coil(a, b, turns=4, width=0.2)
    assert pts.shape == (2 * 4 + 3, 2)
    assert np.allclose(pts[0], a) and np.allclose(pts[-1], b)
    u = (b - a) / 5.0
    across = (pts - a) @ np.array([-u[1], u[0]])
    assert np.isclose(np.abs(across).max(), 0.2) and np.allclose(across[[0, 1, -2, -1]], 0.0)
    along = (pts - a) @ u
    assert np.all(np.diff(along) >= 0)  # it never doubles back along the line
    pts3 = springs.coil([0, 0, 1.0], [1.0, 0, 1.0], turns=2)
    assert np.allclose(pts3[:, 2], 1.0)  # a 3D coil zig-zags in the first two coordinates


def test_box_outline_of_a_turned_box():
    # a 2 x 1 x 0.5 box turned 90° about z: seen along z, a 1 x 2 rectangle about its centre
    T = sp.frame(sp.exp_so3([0.0, 0.0, np.pi / 2]), [1.0, 2.0, 3.0])
    out = springs.box_outline(T, [2.0, 1.0, 0.5])
    assert np.allclose(out[0], out[-1]) and len(out) == 5
    assert np.allclose(out.min(0), [0.5, 1.0]) and np.allclose(out.max(0), [1.5, 3.0])
    side = springs.box_outline(T, [2.0, 1.0, 0.5], plane="xz")
    assert np.allclose(side.min(0), [0.5, 2.75]) and np.allclose(side.max(0), [1.5, 3.25])
    # a tilted box: the outline is the convex hull of the projected corners (area check)
    R = sp.exp_so3([0.3, -0.4, 0.2])
    hull = springs.box_outline(sp.frame(R, np.zeros(3)), [1.0, 1.0, 1.0])
    x, y = hull[:, 0], hull[:, 1]
    area = 0.5 * np.sum(x[:-1] * y[1:] - x[1:] * y[:-1])
    # the projected area of a unit cube is the sum of |n_z| over its three face normals
    assert np.isclose(area, np.abs(R[2]).sum()) and area > 0  # counter-clockwise


def test_drawings_and_animation():
    fig, ax = plt.subplots()
    line = springs.draw_spring(ax, [0, 0, 0], [1, 1, 0], label="spring")
    patch = springs.draw_box(ax, np.eye(4), [0.4, 0.3, 0.2], color="C1")
    arrows = springs.draw_axes(ax, np.eye(4), 0.2)
    assert line.get_label() == "spring" and patch is not None and len(arrows) == 2  # z skipped
    plt.close(fig)
    T = sp.exp_se3(np.linspace(0, 1, 6)[:, None] * [0, 0, 0.5, 0.1, 0, 0])
    html = springs.animate_boxes({"a": T, "b": T[:3]}, [0.4, 0.3, 0.2], times=np.arange(6.0))
    assert "<script" in html.data and "fa-play" not in html.data


def test_bad_drawing_input_is_named():
    with pytest.raises(ValueError, match="turns"):
        springs.coil([0, 0], [1, 0], turns=0)
    with pytest.raises(ValueError, match="2D or 3D"):
        springs.coil([0, 0], [1, 0, 0])
    with pytest.raises(ValueError, match="size"):
        springs.box_outline(np.eye(4), [1.0, -1.0, 1.0])
    with pytest.raises(ValueError, match="plane"):
        springs.box_outline(np.eye(4), [1.0, 1.0, 1.0], plane="ab")
    with pytest.raises(ValueError, match="runs"):
        springs.animate_boxes({}, [1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="times"):
        springs.animate_boxes({"a": np.eye(4)[None]}, [1.0, 1.0, 1.0], times=[0.0, 1.0])


def test_operating_point_returns_the_muscle_law_at_unit_scales():
    for a, lt, vt in [(0.7, 0.8, 0.3), (0.4, 1.25, -0.2), (1.0, 1.0, 0.0)]:
        res = muscles.operating_point(a, lt, vt)
        plt.close("all")
        law = forces.MuscleLaw(f_opt=1.0, l_opt=1.0, v_max=1.0, activation=a)
        F, dF_dl, dF_dv = law(lt, vt)
        assert np.allclose([res["tension"], res["stiffness"], res["damping"]], [F, dF_dl, dF_dv])
        assert np.isclose(res["active"] + res["passive"], res["tension"])
    assert np.isclose(muscles.operating_point(1.0, 1.0, 0.0)["tension"], 1.0)
    plt.close("all")
    with pytest.raises(ValueError, match="activation"):
        muscles.operating_point(1.2, 1.0, 0.0)


def test_arm_drawing_follows_the_model():
    arm = elbow_arm26()
    fig, ax = plt.subplots()
    art = muscles.draw_arm(ax, arm, 1.0, {"biceps": 0.5, "triceps": 0.0})
    x, y = art["biceps"].get_data()
    assert np.allclose(np.c_[x, y], arm.path("biceps", 1.0).points[:, :2])
    assert art["biceps"].get_linewidth() > art["triceps"].get_linewidth()
    only = muscles.draw_arm(ax, arm, 1.0, {"biceps": 0.2})
    assert "biceps" in only and "triceps" not in only  # only the named muscles are drawn
    plt.close(fig)
    t = np.linspace(0, 1, 5)
    html = muscles.animate_arm(arm, t, 0.5 * t, {"biceps": t, "triceps": 0 * t})
    assert "<script" in html.data
    with pytest.raises(ValueError, match="shape"):
        muscles.animate_arm(arm, t, t[:3], {"biceps": t})
    with pytest.raises(ValueError, match="activations"):
        muscles.draw_arm(plt.gca(), arm, 0.0, {"biceps": 2.0})
    plt.close("all")


def test_surface_drawing_follows_the_spline_surface_joint():
    from spatial.joints import SplineSurface

    surfaces = sp.viz.surfaces
    x = np.linspace(-0.3, 0.3, 5)
    X, Y = np.meshgrid(x, x, indexing="ij")
    grid = sp.frame(np.eye(3), np.stack([X, Y, 0.5 * X * Y], -1))
    joint = SplineSurface(grid)
    P = surfaces.surface_points(joint, count=7)
    assert P.shape == (7, 7, 3)
    Q = surfaces.joint_frames(joint, [[0.5, 1.5]])[0]
    E, r = sp.unplux(joint.transform(np.array([0.5, 1.5])))
    assert np.allclose(Q[:3, :3], E.T) and np.allclose(Q[:3, 3], r)  # X_J = plux(Rᵀ, p)
    assert np.allclose(P[0, 0], surfaces.joint_frames(joint, [0.0, 0.0])[:3, 3])
    fig = plt.figure()
    ax = fig.add_subplot(projection="3d")
    surfaces.draw_on_surface(ax, P, frames=Q[None], path=P[:, 3])
    plt.close(fig)
    frames = surfaces.joint_frames(joint, np.linspace([0.2, 0.2], [1.8, 1.8], 5))
    html = surfaces.animate_on_surface(P, frames, times=np.arange(5.0), max_frames=3)
    assert "<script" in html.data
    with pytest.raises(ValueError, match="two parameters"):
        surfaces.surface_points(sp.joints.Revolute("z"))
    with pytest.raises(ValueError, match="frames"):
        surfaces.animate_on_surface(P, np.eye(4))
