"""The value checkers of notebook 11 (11.4 predict, 11.5 model): the right answer, computed here
independently, passes; a typical mistake fails with the section to reread and without the
value; ``...`` is not attempted."""

import re

import numpy as np
import pytest

from spatial.exercises import ch11


def test_low_bounce():
    # apex n is e^(2n) h0 (Newton's law, one frictionless contact): the first n with
    # 0.64^n < 0.1 is n = ceil(ln 0.1 / ln 0.64) = ceil(5.16) = 6
    n = int(np.ceil(np.log(0.1) / np.log(0.8**2)))
    assert n == 6
    ch11.CHECKS["11.4"](n)
    with pytest.raises(AssertionError) as err:
        ch11.CHECKS["11.4"](11)  # e^n instead of e^(2n): the speed ratio taken for the height's
    assert "Reread §7.1 of this notebook" in str(err.value)
    assert not re.search(r"\b6\b", str(err.value))  # the answer is not told
    with pytest.raises(NotImplementedError):
        ch11.CHECKS["11.4"](...)


def test_slide_distance():
    # deceleration g (μ cos θ - sin θ) down the incline, so d = v² / (2 g (μ cos θ - sin θ))
    theta, mu, v, g = np.radians(10.0), 0.5, 1.5, 9.81
    d = v**2 / (2 * g * (mu * np.cos(theta) - np.sin(theta)))
    ch11.CHECKS["11.5"](d)
    with pytest.raises(AssertionError) as err:
        ch11.CHECKS["11.5"](v**2 / (2 * mu * g))  # the incline ignored
    assert "Reread §7.2 of this notebook" in str(err.value) and f"{d:.2f}" not in str(err.value)
    with pytest.raises(AssertionError):
        ch11.CHECKS["11.5"](v**2 / (2 * g * (mu * np.cos(theta) + np.sin(theta))))  # uphill
    with pytest.raises(NotImplementedError):
        ch11.CHECKS["11.5"](...)
