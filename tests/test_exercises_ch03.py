"""The value checkers of notebook 03 (03.4 predict, 03.5 model): the right answer, computed here
independently, passes; a typical mistake fails with a hint to reread and without the answer;
``...`` is not attempted."""

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from spatial.exercises.ch03 import CHECKS


def assert_hint_only(exercise, wrong, secret):
    with pytest.raises(AssertionError, match="Reread") as err:
        CHECKS[exercise](wrong)
    assert secret not in str(err.value)


# the racket: 0.3 kg, edges 0.25 (x) x 0.6 (y) x 0.02 (z) m; a box's principal moments are
# m (b² + c²) / 12 over the two other edges
m, a, b, c = 0.3, 0.25, 0.6, 0.02
MOMENTS = m / 12 * np.array([b**2 + c**2, a**2 + c**2, a**2 + b**2])


def test_unstable_axis():
    assert MOMENTS[2] > MOMENTS[0] > MOMENTS[1]  # x holds the intermediate moment
    CHECKS["03.4"]("x")
    assert_hint_only("03.4", "y", "'x'")  # the longest edge: the smallest moment, stable
    assert_hint_only("03.4", "z", "'x'")  # the largest moment, stable
    with pytest.raises(AssertionError, match="not one of"):
        CHECKS["03.4"]("w")
    with pytest.raises(NotImplementedError):
        CHECKS["03.4"](...)


def flip_time(spin_axis=0):
    # Euler's equations, d ω̇ = (d ω) × ω in principal axes, with a sign-change event
    w0 = np.full(3, 0.01)
    w0[spin_axis] = 10.0

    def rate(t, w):
        return np.cross(MOMENTS * w, w) / MOMENTS

    def reverses(t, w):
        return w[spin_axis]

    reverses.terminal = True
    sol = solve_ivp(rate, (0, 10), w0, method="LSODA", rtol=1e-11, atol=1e-13, events=reverses)
    return sol.t_events[0][0] if sol.t_events[0].size else np.inf


def test_first_flip_time():
    right = flip_time()
    # linearised growth rate λ = Ω √((d_x - d_y)(d_z - d_x) / (d_y d_z)): a flip takes a few 1/λ
    lam = 10.0 * np.sqrt(
        (MOMENTS[0] - MOMENTS[1]) * (MOMENTS[2] - MOMENTS[0]) / (MOMENTS[1] * MOMENTS[2])
    )
    assert 2.0 < right * lam < 12.0
    CHECKS["03.5"](right)
    CHECKS["03.5"](right * 1.015)  # within the stated 2 %
    assert_hint_only("03.5", 2 * right, f"{right:.2f}")  # a full turn over instead of the flip
    assert_hint_only("03.5", 1.035 * right, f"{right:.2f}")  # Euler, 10 ms step: ~3 % late
    with pytest.raises(NotImplementedError):
        CHECKS["03.5"](...)
