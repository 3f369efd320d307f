"""The checkers of the value exercises 16.4 (predict) and 16.5 (model)."""

import numpy as np
import pytest

from spatial.exercises.ch16 import CHECKS


def test_16_4_largest_step():
    # symplectic Euler on ẍ = -ω²x: trace of the step matrix 2 - h²ω², stable while |trace| ≤ 2
    CHECKS["16.4"](2.0 / 10.0)
    with pytest.raises(AssertionError, match="Reread §1.2") as err:
        CHECKS["16.4"](2.0 / 100.0)  # 2/ω² instead of 2/ω
    assert "0.2" not in str(err.value)
    with pytest.raises(NotImplementedError):
        CHECKS["16.4"](...)


def _hand_ratio():
    w, h, x, v, top = 10.0, 0.05, 0.1, 0.0, 1.0
    for _ in range(200):
        v -= h * w * w * x
        x += h * v
        top = max(top, (v * v + w * w * x * x) / (w * w * 0.01))
    return top


def test_16_5_energy_ratio():
    right = _hand_ratio()
    assert np.isclose(right, 4.0 / 3.0, rtol=1e-3)  # 1/(1 - hω/2) at hω = 0.5
    CHECKS["16.5"](right)
    with pytest.raises(AssertionError, match="Reread §2") as err:
        CHECKS["16.5"](1.0)  # "symplectic Euler conserves the energy"
    assert "1.33" not in str(err.value)
    with pytest.raises(NotImplementedError):
        CHECKS["16.5"](...)
