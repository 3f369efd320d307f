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


# --- the value exercises 14.4 (predict) and 14.5 (model)


def test_configuration_dependent_S_is_universal_euler_and_exponential():
    # Sueda §2.4: the universal joint's first column turns with q₂ (eq. 2.15, exercise 14.2),
    # the axes of Euler angles move with the angles (§2.4.5), exponential coordinates have
    # S = the transposed left Jacobian of SO(3) (§2.4.8); revolute, prismatic and cylindrical
    # joints (one axis, commuting turn and slide) have a constant S
    ch14.CHECKS["14.4"]({"d", "e", "f"})
    ch14.CHECKS["14.4"](["f", "e", "d"])
    for wrong in ({"d", "e"}, {"d"}, "d", {"c", "d", "e", "f"}):
        with pytest.raises(AssertionError, match="Reread §2") as err:
            ch14.CHECKS["14.4"](wrong)
        assert "'f'" not in str(err.value)
    with pytest.raises(AssertionError, match="not one of"):
        ch14.CHECKS["14.4"]({"d", "g"})


def _double_pendulum_periods(spring=10.0, at_elbow=True):
    """Small-oscillation periods of two point masses on rods, relative angles, by hand."""
    m1, m2, l1, l2, g = 2.0, 1.0, 1.0, 0.5, 9.81
    # kinetic energy at q = 0 (cos q₂ = 1) and the Hessian of the potential
    # V = -(m₁ + m₂) g l₁ cos q₁ - m₂ g l₂ cos(q₁ + q₂) + ½ k q²
    M = np.array(
        [
            [(m1 + m2) * l1**2 + m2 * l2**2 + 2 * m2 * l1 * l2, m2 * l2**2 + m2 * l1 * l2],
            [m2 * l2**2 + m2 * l1 * l2, m2 * l2**2],
        ]
    )
    K = np.array([[(m1 + m2) * g * l1 + m2 * g * l2, m2 * g * l2], [m2 * g * l2, m2 * g * l2]])
    K[(1, 1) if at_elbow else (0, 0)] += spring
    omega2 = np.linalg.eigvals(np.linalg.solve(M, K)).real
    return np.sort(2 * np.pi / np.sqrt(omega2))


def test_spring_pendulum_periods():
    right = _double_pendulum_periods()
    ch14.CHECKS["14.5"](right)
    ch14.CHECKS["14.5"](list(1.005 * right))
    wrong_answers = [
        _double_pendulum_periods(spring=0.0),  # the spring forgotten
        _double_pendulum_periods(at_elbow=False),  # the spring on the wrong joint
        right[::-1],  # slowest first
        right / (2 * np.pi),  # 1/ω
    ]
    for wrong in wrong_answers:
        with pytest.raises(AssertionError, match="Reread §1, §8") as err:
            ch14.CHECKS["14.5"](wrong)
        assert f"{right[0]:.3f}" not in str(err.value)
    with pytest.raises(AssertionError, match="shape"):
        ch14.CHECKS["14.5"](right[0])


@pytest.mark.parametrize("key", ["14.4", "14.5"])
def test_an_untouched_value_answer_is_not_attempted(key):
    with pytest.raises(NotImplementedError):
        ch14.CHECKS[key](...)
