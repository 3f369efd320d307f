"""The value checkers of notebook 17 (17.4–17.6): the right answer, found independently of the
checker, passes; a typical mistake fails with the section to reread and without the answer;
``...`` is not attempted."""

import numpy as np
import pytest

from spatial.exercises.ch17 import CHECKS, LCP_17_4


def pushing_by_hand():
    # try "only contact 1 pushes": z1 = -q1 / M11, z2 = 0, and w2 = M21 z1 + q2 must be >= 0
    M, q = LCP_17_4
    z1 = -q[0] / M[0, 0]
    assert z1 > 0 and M[1, 0] * z1 + q[1] >= 0
    return {1}


def sliding_distance_by_hand(v0=1.5, mu=0.5, g=9.81, h=5e-3):
    # each step removes μ g h of speed; the position moves with the new speed (semi-implicit)
    speeds = v0 - mu * g * h * np.arange(1, 200)
    return float(h * speeds[speeds > 0].sum())


RIGHT = {
    "17.4": pushing_by_hand(),
    "17.5": 0.5 * (2.0 - 0.5 * 1.0) / (1 + 0.5**2),  # v_n = μ (s - μ a) / (1 + μ²), §8
    "17.6": sliding_distance_by_hand(),
}
WRONG = {
    "17.4": {1, 2},  # both entries of q are negative, yet only one contact pushes
    "17.5": 0.0,  # the LCP's answer: the contact stays closed
    "17.6": 1.5**2 / (0.5 * 9.81),  # v² / (μ g): the factor 2 forgotten
}


@pytest.mark.parametrize("exercise", sorted(RIGHT))
def test_the_right_answer_passes(exercise):
    CHECKS[exercise](RIGHT[exercise])


@pytest.mark.parametrize("exercise", sorted(WRONG))
def test_a_typical_mistake_is_sent_back_to_the_section_without_the_answer(exercise):
    with pytest.raises(AssertionError, match="Reread §") as err:
        CHECKS[exercise](WRONG[exercise])
    right = RIGHT[exercise]
    shown = [str(right)] if isinstance(right, set) else [f"{right}", f"{right:.2f}"]
    assert not any(s in str(err.value) for s in shown)


@pytest.mark.parametrize("exercise", sorted(RIGHT))
def test_an_untouched_stub_is_not_attempted(exercise):
    with pytest.raises(NotImplementedError):
        CHECKS[exercise](...)


def test_a_choice_outside_the_contacts_is_refused():
    with pytest.raises(AssertionError, match="is not one of"):
        CHECKS["17.4"]({3})


def test_the_continuous_distance_is_within_the_stated_tolerance():
    # a student who uses v² / (2 μ g) instead of simulating is within the stated 2 %
    CHECKS["17.6"](1.5**2 / (2 * 0.5 * 9.81))
