"""The value checkers of notebook 02 (02.4 predict, 02.5 model): the right answer, computed here
independently, passes; a typical mistake fails with a hint to reread and without the answer;
``...`` is not attempted."""

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from spatial.exercises.ch02 import CHECKS


def assert_hint_only(exercise, wrong, secret):
    with pytest.raises(AssertionError, match="Reread") as err:
        CHECKS[exercise](wrong)
    assert secret not in str(err.value)


def test_quaternion_angle():
    # q = (cos θ/2, sin θ/2 u) with cos θ/2 = -1/2: θ = 240° about u = (1, 1, 1)/√3, which is
    # the same rotation as 120° about -u (q and -q, the double cover)
    CHECKS["02.4"](120.0)
    CHECKS["02.4"](120.4)
    assert_hint_only("02.4", 240.0, "120")  # not reduced to [0°, 180°]
    assert_hint_only("02.4", 60.0, "120")  # forgot the half angle
    with pytest.raises(NotImplementedError):
        CHECKS["02.4"](...)


def skew(w):
    return np.array([[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]], [-w[1], w[0], 0.0]])


def z_axis_at_2s(world=False):
    # Ṙ = R [ω] for a body angular velocity ω (R maps body to world coordinates); the mistake
    # Ṙ = [ω] R treats ω as if it were given in world coordinates
    def rate(t, r):
        R, W = r.reshape(3, 3), skew([1.0, 0.0, t])
        return (W @ R if world else R @ W).ravel()

    sol = solve_ivp(rate, (0.0, 2.0), np.eye(3).ravel(), "DOP853", rtol=1e-11, atol=1e-12)
    return sol.y[:, -1].reshape(3, 3)[:, 2]


def test_spun_up_axis():
    right = z_axis_at_2s()
    CHECKS["02.5"](right)
    CHECKS["02.5"](right + 0.009)  # within the stated 0.01
    assert_hint_only("02.5", z_axis_at_2s(world=True), "0.81")
    # the rotation vector is not the integral of ω: exp([(2, 0, 2)]) turns z elsewhere
    theta, u = np.sqrt(8.0), np.array([1.0, 0.0, 1.0]) / np.sqrt(2.0)
    U = skew(u)
    naive = (np.eye(3) + np.sin(theta) * U + (1 - np.cos(theta)) * U @ U)[:, 2]
    assert_hint_only("02.5", naive, "0.81")
    with pytest.raises(AssertionError, match="shape"):
        CHECKS["02.5"](right[:2])
    with pytest.raises(NotImplementedError):
        CHECKS["02.5"](...)
