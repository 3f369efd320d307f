"""The checkers of notebook 14: correct answers pass, typical mistakes fail with a useful message.

The correct answers are written out here from the closed forms (not from ``spatial.reduced``),
so a checker that compared against a wrong reference would fail.
"""

import numpy as np
import pytest

import spatial as sp
from spatial.exercises import ch14


def arm_jacobian(q, l1):
    s2, c2 = np.sin(q[1]), np.cos(q[1])
    J = np.zeros((12, 2))
    J[2, 0] = 1.0
    J[6:, 0] = [0.0, 0.0, 1.0, l1 * s2, l1 * c2, 0.0]
    J[8, 1] = 1.0
    return J


def universal_S_dot(q, qd):
    S_dot = np.zeros((6, 2))
    S_dot[0, 0], S_dot[2, 0] = -np.sin(q[1]) * qd[1], np.cos(q[1]) * qd[1]
    return S_dot


def one_angle_acceleration(model, y, yd):
    ones = np.ones(model.nv)
    H = sp.crba(model, y[0] * ones)
    C = sp.bias_force(model, y[0] * ones, yd[0] * ones)
    return np.array([-(ones @ C) / (ones @ H @ ones)])


def test_correct_answers_pass():
    ch14.CHECKS["14.1"](arm_jacobian)
    ch14.CHECKS["14.2"](universal_S_dot)
    ch14.CHECKS["14.3"](one_angle_acceleration)


def test_arm_jacobian_mistakes_fail():
    def world_axes(q, l1):  # v of body 2 left in body 1's axes (forgot to turn by q₂)
        J = arm_jacobian(q, l1)
        J[10, 0], J[9, 0] = l1, 0.0
        return J

    def missing_lever(q, l1):  # body 2 only turns, its origin does not move with q̇₁
        J = arm_jacobian(q, l1)
        J[9:11, 0] = 0.0
        return J

    for wrong in (world_axes, missing_lever):
        with pytest.raises(AssertionError, match="eq. 2.14"):
            ch14.CHECKS["14.1"](wrong)
    with pytest.raises(AssertionError, match="shape"):
        ch14.CHECKS["14.1"](lambda q, l1: arm_jacobian(q, l1)[:6])


def test_universal_S_dot_mistakes_fail():
    with pytest.raises(AssertionError, match="§2.4.6"):
        ch14.CHECKS["14.2"](lambda q, qd: -universal_S_dot(q, qd))  # sign of the rate

    def rate_of_the_wrong_angle(q, qd):
        return universal_S_dot(q, qd[::-1])

    with pytest.raises(AssertionError, match="§2.4.6"):
        ch14.CHECKS["14.2"](rate_of_the_wrong_angle)


def test_one_angle_acceleration_mistakes_fail():
    def without_velocity_terms(model, y, yd):  # gravity only: C at ẏ = 0
        return one_angle_acceleration(model, y, 0.0 * yd)

    def first_joint_only(model, y, yd):  # the inertia of joint 1 alone, H₁₁
        ones = np.ones(model.nv)
        H = sp.crba(model, y[0] * ones)
        C = sp.bias_force(model, y[0] * ones, yd[0] * ones)
        return np.array([-(ones @ C) / H[0, 0]])

    for wrong in (without_velocity_terms, first_joint_only):
        with pytest.raises(AssertionError, match="eq. 2.83"):
            ch14.CHECKS["14.3"](wrong)


def test_a_stub_counts_as_not_attempted():
    def stub(*args):
        raise NotImplementedError

    for key in ("14.1", "14.2", "14.3"):
        with pytest.raises(NotImplementedError):
            ch14.CHECKS[key](stub)
