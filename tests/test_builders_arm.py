"""The arm26 elbow of spatial.builders.arm: published numbers, path geometry, torques."""

from dataclasses import replace

import numpy as np
import pytest

import spatial as sp
from spatial import forces
from spatial.builders import elbow_arm26
from spatial.builders.arm import ARM26_SOURCE

ARM = elbow_arm26()
ANGLES = np.radians(np.linspace(0.0, 150.0, 61))


def test_parameters_are_those_of_arm26():
    # arm26.osim (OpenSim; Holzbaur et al. 2005): BIClong and TRIlong, forearm, elbow
    b, t = ARM.muscles["biceps"], ARM.muscles["triceps"]
    assert (b.f_opt, b.l_opt, b.tendon_slack_length, b.pennation_angle) == (
        624.3,
        0.1157,
        0.2723,
        0.0,
    )
    assert (t.f_opt, t.l_opt, t.tendon_slack_length, t.pennation_angle) == (
        798.52,
        0.134,
        0.143,
        0.20943951,
    )
    assert ARM.forearm_mass == 1.534315 and np.allclose(ARM.forearm_com, [0, -0.181479, 0])
    assert np.allclose(ARM.elbow, [0.0061, -0.2904, -0.0123])
    assert np.isclose(np.degrees(ARM.flexion_range[1]), 130.0)
    assert "Holzbaur" in ARM26_SOURCE
    # the tendon is the longer part of the biceps (the reverse would be no human biceps)
    assert b.tendon_slack_length > 2 * b.l_opt


@pytest.mark.parametrize("name", ["biceps", "triceps"])
def test_moment_arm_is_the_derivative_of_the_length(name):
    eps = 1e-6
    p = ARM.path(name, ANGLES)
    fd = (ARM.path(name, ANGLES + eps).length - ARM.path(name, ANGLES - eps).length) / (2 * eps)
    np.testing.assert_allclose(p.moment_arm, fd, rtol=1e-6, atol=1e-9)


def test_unwrapped_length_is_the_length_of_the_polyline():
    p = ARM.path("biceps", ANGLES)
    polyline = np.linalg.norm(np.diff(p.points, axis=-2), axis=-1).sum(-1)
    np.testing.assert_allclose(p.length, polyline, rtol=1e-12)
    # the insertion is where the forearm frame carries it
    T = ARM.forearm_frame(ANGLES)
    ins = (T[:, :3, :3] @ ARM.muscles["biceps"].insertion) + T[:, :3, 3]
    np.testing.assert_allclose(p.points[:, -1], ins, atol=1e-15)


def test_the_triceps_wrap_keeps_its_moment_arm_in_deep_flexion():
    wrapped = ARM.path("triceps", ANGLES)
    bare = replace(ARM, muscles={"triceps": replace(ARM.muscles["triceps"], wrap=None)})
    straight = bare.path("triceps", ANGLES)
    # wrapping never shortens the path; near the straight arm the segment is clear of it
    assert np.all(wrapped.length >= straight.length - 1e-15)
    clear = ANGLES < np.radians(40)
    assert np.allclose(wrapped.length[clear], straight.length[clear], rtol=1e-14)
    deep = (ANGLES > np.radians(90)) & (ANGLES <= ARM.flexion_range[1])
    assert wrapped.moment_arm[deep].min() > 0.9 * 0.016  # about the cylinder's radius
    assert straight.moment_arm[ANGLES <= ARM.flexion_range[1]][-1] < 0.01
    # continuous where the wrap starts: no jump between neighbouring fine samples
    fine = np.radians(np.linspace(0.0, 130.0, 4001))
    assert np.abs(np.diff(ARM.path("triceps", fine).length)).max() < 1e-4


def test_biceps_flexes_triceps_extends_with_physiological_moment_arms():
    flex = ARM.path("biceps", np.radians(90.0)).moment_arm
    ext = ARM.path("triceps", np.radians(90.0)).moment_arm
    assert -0.06 < flex < -0.03 and 0.01 < ext < 0.03  # cm-scale, opposite signs


def test_gravity_torque_is_minus_the_rnea_holding_torque():
    model = ARM.model()
    for theta in (0.0, 0.7, 1.9):
        tau = sp.rnea(model, [theta], [0.0], [0.0])[0]
        assert np.isclose(ARM.gravity_torque(theta), -tau, rtol=1e-12)


def test_muscle_torque_equals_the_moment_of_the_multipoint_spring():
    # the same biceps as a force between the humerus (body 1, world frame) and the forearm
    m = ARM.muscles["biceps"]
    law = m.law(0.4)
    k = len(m.upper_points)
    spring = forces.MultiPointSpring([1] * k + [2], np.vstack([m.upper_points, m.insertion]), law)
    for theta, omega in [(0.4, 1.3), (1.6, -2.0)]:
        T = np.stack([np.eye(4), ARM.forearm_frame(theta)])
        phi = np.zeros((2, 6))
        phi[1, 2] = omega  # the forearm turns about its own z axis through the elbow
        f = spring.evaluate(T, phi).f[6:]  # body coordinates: moment about the elbow
        moment = f[2]  # about the forearm's z axis, the elbow axis
        torque = ARM.muscle_torques(theta, omega, {"biceps": 0.4})["biceps"]
        assert np.isclose(moment, torque, rtol=1e-10)
        assert np.isclose(spring.length(T), ARM.path("biceps", theta).length, rtol=1e-12)


def test_limit_torque_acts_only_outside_the_range_and_pushes_back():
    lo, hi = ARM.flexion_range
    assert ARM.limit_torque(1.0, 3.0) == 0.0
    assert ARM.limit_torque(hi + 0.1, 0.0) < 0 < ARM.limit_torque(lo - 0.1, 0.0)
    assert ARM.limit_torque(hi + 0.1, 1.0) < ARM.limit_torque(hi + 0.1, 0.0)  # damped


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="muscle"):
        ARM.path("deltoid", 0.3)
    with pytest.raises(ValueError, match="activation"):
        ARM.muscle_torques(0.3, 0.0, {"biceps": 1.5})
    with pytest.raises(ValueError, match="muscle"):
        ARM.muscle_torques(0.3, 0.0, {"brachialis": 0.5})
    with pytest.raises(ValueError, match="stiffness"):
        ARM.limit_torque(0.3, 0.0, stiffness=-1.0)
    with pytest.raises(ValueError, match="g"):
        elbow_arm26(g=0.0)
