"""Jansen's walking leg (spatial.builders.jansen_leg) against its geometry in closed form.

``jansen_points`` places the joints by intersecting circles (no model involved); the model's
forward kinematics at the closed configurations that Newton's method finds from the loop
constraints (Featherstone §8.11) must put every pin there, and the leg must have Grübler's
mobility 1 with ten pins.
"""

import numpy as np
import pytest

import spatial as sp
from spatial import builders as B
from spatial.dynamics import loops


def _world(T, point):
    return (T[:3, :3] @ np.asarray(point) + T[:3, 3])[:2]


def test_the_holy_numbers_give_the_classic_foot_path():
    theta = np.linspace(0.0, 2 * np.pi, 181)
    foot = B.jansen_points(theta)["foot"]
    assert foot.shape == (181, 2) and np.all(np.isfinite(foot))
    # every link keeps its length over the whole turn (the circles were met)
    P = B.jansen_points(theta)
    L = {k: 0.01 * v for k, v in B.JANSEN_LENGTHS.items()}
    for a, b, length in (
        ("A", "top", L["j"]), ("B", "top", L["b"]), ("A", "knee", L["k"]),
        ("B", "knee", L["c"]), ("B", "back", L["d"]), ("top", "back", L["e"]),
        ("back", "ankle", L["f"]), ("knee", "ankle", L["g"]), ("knee", "foot", L["i"]),
        ("ankle", "foot", L["h"]),
    ):  # fmt: skip
        np.testing.assert_allclose(np.linalg.norm(P[a] - P[b], axis=-1), length, rtol=1e-12)
    # the foot's stride: a long, nearly flat bottom, lower than every other joint
    low = foot[:, 1] < foot[:, 1].min() + 0.01
    assert np.ptp(foot[low, 0]) > 0.3  # more than 30 cm of stride within 1 cm of the ground
    assert all(np.all(P[k][:, 1] > foot[:, 1]) for k in P if k != "foot")


def test_the_leg_is_closed_at_q0_and_has_one_degree_of_freedom():
    model = B.jansen_leg(crank_angle=0.7)
    assert (model.NB, model.NL, model.nv) == (7, 3, 7)
    q0 = model.neutral_configuration()
    assert np.abs(loops.loop_position_errors(model, q0)).max() < 1e-12
    m = loops.mobility(model, q0)
    assert (m.mobility, m.rank, m.nc) == (1, 6, 15)  # 3·7 - 2·10 = 1; planar hinges: 15 rows


@pytest.mark.parametrize("crank_angle", [0.0, 2.0, 4.5])
def test_forward_kinematics_of_closed_configurations_put_the_pins_on_the_circles(crank_angle):
    model = B.jansen_leg(crank_angle=crank_angle)
    closure = loops.newton_closure(model, [0], model.neutral_configuration())
    for step in (0.0, 0.3, -0.25):
        q = closure.gamma(np.array([step]))
        P = B.jansen_points(crank_angle + step)
        T = sp.body_poses(model, q)
        names = dict(zip(model.names, range(len(model.names)), strict=True))
        # body frames sit at their pins: crank at O, j and k at A, triangle and c at B, ...
        for body, pin in (("crank", "O"), ("j", "A"), ("k", "A"), ("triangle", "B"),
                          ("c", "B"), ("f", "back"), ("foot", "knee")):  # fmt: skip
            np.testing.assert_allclose(T[names[body]][:2, 3], P[pin], atol=1e-10)
        # and the loop joints' frames on both sides coincide with the closed-form pins
        for loop, pin in zip(model.loop_joints, ("top", "knee", "ankle"), strict=True):
            for body, X in ((loop.predecessor, loop.X_p), (loop.successor, loop.X_s)):
                np.testing.assert_allclose(_world(T[body], sp.unplux(X)[1]), P[pin], atol=1e-10)


def test_mass_is_the_density_times_the_length_of_every_bar():
    L = 0.01 * sum(B.JANSEN_LENGTHS[k] for k in "mjkbdecfghi")
    model = B.jansen_leg(density=3.0)
    mass = sum(model.inertia[i][3, 3] for i in range(1, model.NB + 1))
    assert mass == pytest.approx(3.0 * L, rel=1e-12)


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="density"):
        B.jansen_leg(density=0.0)
    with pytest.raises(ValueError, match="lengths must be a dict"):
        B.jansen_points(0.0, lengths={"a": 1.0})
    with pytest.raises(ValueError, match="crank_angle"):
        B.jansen_points(np.nan)
    short = dict(B.JANSEN_LENGTHS, j=5.0)  # link j cannot reach the triangle
    assert np.isnan(B.jansen_points(0.0, short)["top"]).all()
    with pytest.raises(ValueError, match="cannot be assembled"):
        B.jansen_leg(lengths=short)
