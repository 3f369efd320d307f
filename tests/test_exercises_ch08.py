"""The value checkers of notebook 08 (08.4 predict, 08.5 model): the right answer, computed here
independently, passes; a typical mistake fails with the section to reread and without the
value; ``...`` is not attempted."""

import numpy as np
import pytest

import spatial as sp
from spatial.exercises import ch08


def slider_peak_by_hand(r=0.3, l=1.0, e=0.1, omega=2 * np.pi):
    # x(θ) = r cos θ + sqrt(l² - (e - r sin θ)²); ẋ = x'(θ) ω, the largest |ẋ| on a fine grid
    theta = np.linspace(0.0, 2 * np.pi, 200001)
    w = e - r * np.sin(theta)
    dx = -r * np.sin(theta) + w * r * np.cos(theta) / np.sqrt(l**2 - w**2)
    return np.abs(dx * omega).max()


def test_ball_joint_counts():
    # a ball joint transmits 3 forces; the planar loop never violates the one along z: rank 2;
    # mobility n - r = 3 - 2 (eq. 8.52)
    ch08.CHECKS["08.4"]([3, 2, 1])
    with pytest.raises(AssertionError) as err:
        ch08.CHECKS["08.4"]([3, 3, 0])  # Grübler's spatial count: no redundant row, rigid
    assert "Reread §2 of this notebook" in str(err.value) and "[3" not in str(err.value)
    with pytest.raises(NotImplementedError):
        ch08.CHECKS["08.4"](...)


def test_slider_peak_speed():
    peak = slider_peak_by_hand()
    ch08.CHECKS["08.5"](peak)
    ch08.CHECKS["08.5"](1.008 * peak)  # within the stated 1 %
    with pytest.raises(AssertionError) as err:
        ch08.CHECKS["08.5"](0.3 * 2 * np.pi)  # the crank pin's speed r ω: the rod ignored
    assert "Reread §5 and §6" in str(err.value) and f"{peak:.2f}" not in str(err.value)
    with pytest.raises(NotImplementedError):
        ch08.CHECKS["08.5"](...)


def test_through_nb_check(monkeypatch):
    monkeypatch.setenv("SPATIAL_NB_STRICT", "1")
    assert sp.nb.check("08.5", slider_peak_by_hand())
    assert not sp.nb.check("08.4", ...)
