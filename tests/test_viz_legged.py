"""spatial.viz.legged: a legged robot drawn with its feet, ground and forces, and animated."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import spatial as sp  # noqa: E402
import spatial.contact as ct  # noqa: E402
from spatial import builders  # noqa: E402
from spatial.urdf import load_urdf, to_urdf  # noqa: E402

STAND = [0.0, 0.8, -1.6, 0.0, 0.8, -1.6, 0.0, -0.8, 1.6, 0.0, -0.8, 1.6]


@pytest.fixture(scope="module")
def robot():
    model = load_urdf(to_urdf(builders.quadruped()), floating=True)
    feet = ct.foot_points(model)
    q = model.neutral_configuration()
    q[7:] = STAND
    return model, feet, ct.stand_on_ground(model, q, feet)


def test_foot_positions_are_on_the_ground(robot):
    model, feet, q = robot
    tips = sp.viz.legged.foot_positions(model, feet, q)
    assert tips.shape == (4, 3) and np.allclose(tips[:, 2], 0.0, atol=1e-12)
    # by hand: the foot point through the lower leg's pose
    b, p = feet[0]
    assert np.allclose(tips[0], (sp.body_poses(model, q)[b] @ np.r_[p, 1.0])[:3])


def test_draw_legged_projects_legs_feet_and_forces(robot):
    model, feet, q = robot
    fig, ax = plt.subplots()
    artists = sp.viz.draw_legged(
        ax, model, feet, q, plane="xz", forces=np.tile([0, 0, 6.0], (4, 1))
    )
    links = artists[0]
    x, z = links.get_data()
    # no segment from the world origin to the trunk: every drawn point is a body or a foot
    points = {(round(a, 9), round(b, 9)) for a, b in zip(x, z, strict=True) if np.isfinite(a)}
    assert (0.0, 0.0) not in points
    tips = sp.viz.legged.foot_positions(model, feet, q)
    for tip in tips:
        assert (round(tip[0], 9), round(tip[2], 9)) in points
    feet_marks = artists[2]
    assert np.allclose(feet_marks.get_xdata(), tips[:, 0])
    with pytest.raises(ValueError, match="plane"):
        sp.viz.draw_legged(ax, model, feet, q, plane="xy")
    with pytest.raises(ValueError, match="forces"):
        sp.viz.draw_legged(ax, model, feet, q, forces=np.zeros((3, 3)))
    plt.close(fig)


def test_animate_legged_makes_an_offline_player(robot):
    model, feet, q = robot
    qs = np.stack([q, q, q])
    t = np.array([0.0, 0.1, 0.2])
    html = sp.viz.animate_legged(model, feet, [(t, qs), (t[:2], qs[:2])], titles=["a", "b"],
                                 max_frames=3)  # fmt: skip
    assert "<script" in html.data and "fonts.googleapis" not in html.data
    with pytest.raises(ValueError, match="titles"):
        sp.viz.animate_legged(model, feet, [(t, qs)], titles=["a", "b"])
    with pytest.raises(ValueError, match="each run"):
        sp.viz.animate_legged(model, feet, [(t[:2], qs)])
    with pytest.raises(ValueError, match="at least one"):
        sp.viz.animate_legged(model, feet, [])
