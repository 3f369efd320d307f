"""The value checkers of notebook 18 (18.4 predict, 18.5 model): right answers from closed forms
pass, a student's typical mistakes fail with the section to reread and without the answer."""

import numpy as np
import pytest

from spatial.exercises import ch18

G = 9.81


def test_midpoint_coupling_is_mk_w1_w2():
    ch18.CHECKS["18.4"](0.6 * 0.5 * 0.5)  # m_k w₁ w₂ (ArtiSynth §0.18, T^T M T)


@pytest.mark.parametrize("wrong", [0.0, 0.6 * 0.5, 0.6, 1.0 + 0.6 * 0.25])
def test_midpoint_coupling_mistakes_fail_without_the_answer(wrong):
    # block diagonal assumed; m_k w once; all of m_k; the diagonal entry instead
    with pytest.raises(AssertionError, match="§3 of this notebook") as err:
        ch18.CHECKS["18.4"](wrong)
    assert "0.15" not in str(err.value)


def rod_period(payload=0.5, payload_weight=True):
    # hinge at the top: I = m(3r² + L²)/12 + m(L/2)² + m_p L², K = g (m L/2 + m_p L)
    m, r, length = 1.0, 0.02, 1.0
    inertia = m * (3 * r**2 + length**2) / 12 + m * (length / 2) ** 2 + payload * length**2
    stiffness = G * (m * length / 2 + (payload * length if payload_weight else 0.0))
    return 2 * np.pi * np.sqrt(inertia / stiffness)


def test_payload_period_closed_form_passes():
    ch18.CHECKS["18.5"](rod_period())


@pytest.mark.parametrize(
    "wrong",
    [
        rod_period(payload=0.0),  # the payload forgotten
        rod_period(payload_weight=False),  # its inertia added, its weight not
        2 * np.pi * np.sqrt(1.0 / G),  # a simple pendulum of length 1 m
    ],
)
def test_payload_period_mistakes_fail_without_the_answer(wrong):
    with pytest.raises(AssertionError, match="§4 of this notebook") as err:
        ch18.CHECKS["18.5"](wrong)
    assert "1.83" not in str(err.value)


@pytest.mark.parametrize("exercise", ["18.4", "18.5"])
def test_not_attempted(exercise):
    with pytest.raises(NotImplementedError):
        ch18.CHECKS[exercise](...)
