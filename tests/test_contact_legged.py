"""Legged robots on the ground (spatial.contact.legged) and the quadruped builder.

Oracles: the URDF round trip of the builder (Solo-12's names, feet as merged fixed links),
hand-placed feet, and Newton's law for the whole robot: joint torques are internal, so the
ground's vertical impulse minus the weight's equals the change of the vertical momentum.
"""

import numpy as np
import pytest

import spatial as sp
import spatial.contact as ct
from spatial import builders
from spatial.urdf import load_urdf, to_urdf

STAND = [0.0, 0.8, -1.6, 0.0, 0.8, -1.6, 0.0, -0.8, 1.6, 0.0, -0.8, 1.6]


@pytest.fixture(scope="module")
def solo():
    return load_urdf(to_urdf(builders.quadruped()), floating=True)


def test_quadruped_has_solo12_names_and_feet(solo):
    fixed, floating = builders.quadruped(), builders.quadruped(floating=True)
    assert (fixed.NB, fixed.nv, floating.nv) == (17, 12, 18)
    assert [fixed.names[i] for i in (1, 2, 3, 4, 5)] == [
        "base_link", "FL_SHOULDER", "FL_UPPER_LEG", "FL_LOWER_LEG", "FL_FOOT"
    ]  # fmt: skip
    mass = sum(fixed.inertia[i][3, 3] for i in range(1, fixed.NB + 1))
    assert mass == pytest.approx(2.504)
    assert solo.NB == 13 and solo.nv == 18  # the massless feet merged into the lower legs
    feet = ct.foot_points(solo)
    assert [solo.names[b] for b, _ in feet] == [
        f"{leg}_LOWER_LEG" for leg in ("FL", "FR", "HL", "HR")
    ]
    for (_, p), side in zip(feet, (1, -1, 1, -1), strict=True):
        assert np.allclose(p, [0.0, 0.008 * side, -0.16])
    with pytest.raises(ValueError, match="leg"):
        builders.quadruped(leg=0.0)


def test_feet_scene_and_placement(solo):
    with pytest.raises(ValueError, match="URDF"):
        ct.foot_points(builders.humanoid(floating=True))
    with pytest.raises(ValueError, match="_TOE"):
        ct.foot_points(solo, suffix="_TOE")
    feet = ct.foot_points(solo)
    with pytest.raises(ValueError, match="floating-base"):
        ct.ground_scene(builders.arm7(), feet)
    with pytest.raises(ValueError, match="body 99"):
        ct.ground_scene(solo, [(99, np.zeros(3))])
    q = solo.neutral_configuration()
    q[7:] = STAND
    q = ct.stand_on_ground(solo, q, feet, height=0.02)
    poses = sp.body_poses(solo, q)
    heights = [(poses[b] @ np.r_[p, 1.0])[2] for b, p in feet]
    assert min(heights) == pytest.approx(0.02, abs=1e-12)
    scene = ct.ground_scene(solo, feet)
    gaps = scene.detect(q).gap
    assert np.allclose(np.sort(gaps[np.isfinite(gaps)]), np.sort(heights), atol=1e-12)
    with pytest.raises(ValueError, match="height"):
        ct.stand_on_ground(solo, q, feet, height=-1.0)


def test_posture_controller_pulls_back_and_damps(solo):
    q_ref = solo.neutral_configuration()
    q_ref[7:] = STAND
    tau = ct.posture_controller(solo, q_ref, stiffness=2.0, damping=0.5)
    q, v = q_ref.copy(), np.zeros(solo.nv)
    assert np.allclose(tau(0.0, q, v), 0.0)
    q[8] += 0.1  # FL hip flexion pushed forward
    v[7] = 1.0
    out = tau(0.0, q, v)
    assert np.allclose(out[:6], 0.0)  # no force on the trunk: it has no motor
    assert out[7] == pytest.approx(-0.2 - 0.5)
    with pytest.raises(ValueError, match="stiffness"):
        ct.posture_controller(solo, q_ref, stiffness=-1.0, damping=0.0)


def test_a_drop_balances_momentum_with_the_ground_impulse(solo):
    feet = ct.foot_points(solo)
    q = solo.neutral_configuration()
    q[7:] = STAND
    q0 = ct.stand_on_ground(solo, q, feet, height=0.01)
    params = ct.ContactParams(mu=0.8, margin=1e-3)
    hold = ct.posture_controller(solo, q0, stiffness=3.0, damping=0.1)
    run = ct.simulate_legged(
        ct.ground_scene(solo, feet), q0, np.zeros(solo.nv), 0.1, 5e-3, params, hold
    )
    assert run.t[-1] == pytest.approx(0.1) and run.normal.shape == (len(run.t) - 1,)
    assert run.contacts[0] == 0 and run.contacts[-1] == 4  # falls 1 cm, then stands
    assert run.penetration.max() <= params.event_tol
    assert run.cone_violation.max() <= 1e-9 and np.all(run.normal >= -1e-12)
    mass = sum(solo.inertia[i][3, 3] for i in range(1, solo.NB + 1))
    p_z = sp.centroidal_momentum(solo, run.q[[0, -1]], run.v[[0, -1]]).momentum[:, 5]
    weight = mass * 9.81 * run.t[-1]
    assert abs(run.normal.sum() - weight - (p_z[1] - p_z[0])) < 0.01 * weight
    assert run.normal.sum() > 0.1 * weight  # the ground did push
    with pytest.raises(ValueError, match="duration"):
        ct.simulate_legged(ct.ground_scene(solo, feet), q0, np.zeros(solo.nv), 0.0, 5e-3)
