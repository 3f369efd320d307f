"""The value checkers of notebook 01 (01.4 predict, 01.5 model): the right answer, computed here
independently, passes; a typical mistake fails with a hint to reread and without the answer;
``...`` is not attempted."""

import numpy as np
import pytest

from spatial.exercises.ch01 import CHECKS


def tool_wrench_by_hand(active=False):
    # B is A turned by 90° about x: B coordinates of an A vector are E a with E the coordinate
    # rotation [[1, 0, 0], [0, c, s], [0, -s, c]] (Featherstone Table 2.2), c = 0, s = 1
    E = np.array([[1.0, 0, 0], [0, 0, 1.0], [0, -1.0, 0]])
    if active:  # the student's mistake: the active rotation matrix instead of the coordinate one
        E = E.T
    f_B = E @ np.array([0.0, 0.0, -1.5 * 9.81])
    c_B = np.array([0.03, 0.05, 0.12])
    return np.r_[np.cross(c_B, f_B), f_B]  # moment about B's origin, eq. 2.6


def assert_hint_only(exercise, wrong, secret):
    with pytest.raises(AssertionError, match="Reread") as err:
        CHECKS[exercise](wrong)
    assert secret not in str(err.value)


def test_force_like_quantities():
    CHECKS["01.4"]({"a", "c", "e"})
    CHECKS["01.4"](["e", "a", "c"])  # any collection, any order
    assert_hint_only("01.4", {"a", "c"}, "'e'")  # forgot that v ×* f is a force
    assert_hint_only("01.4", {"a", "b", "c", "e"}, "'e'")  # took the acceleration for a force
    with pytest.raises(AssertionError, match="not one of"):
        CHECKS["01.4"]({"a", "g"})
    with pytest.raises(NotImplementedError):
        CHECKS["01.4"](...)


def test_tool_gravity_wrench():
    right = tool_wrench_by_hand()
    assert np.allclose(right, [1.7658, 0, -0.44145, 0, -14.715, 0])  # worked on paper
    CHECKS["01.5"](right)
    CHECKS["01.5"](right + 4e-4)  # within the stated 1e-3
    assert_hint_only("01.5", tool_wrench_by_hand(active=True), "1.7658")
    assert_hint_only("01.5", np.r_[np.zeros(3), right[3:]], "1.7658")  # forgot the moment
    with pytest.raises(AssertionError, match="shape"):
        CHECKS["01.5"](right[3:])
    with pytest.raises(NotImplementedError):
        CHECKS["01.5"](...)
