"""The value checkers of notebook 12 (12.4–12.6): the right answer, found independently of the
checker, passes; a typical mistake fails with the section to reread and without the answer;
``...`` is not attempted."""

import numpy as np
import pytest

from spatial.builders import planar_chain
from spatial.dynamics import aba, joint_forces
from spatial.exercises.ch12 import CHECKS


def hinge_force_by_rnea():
    # the reduced route: ABA's accelerations at rest, then the RNEA's force in joint 1
    model = planar_chain(2)
    q, zero = np.array([0.6, -0.6]), np.zeros(2)
    f = joint_forces(model, q, zero, aba(model, q, zero, zero))[1]
    return float(np.linalg.norm(f[3:]))


RIGHT = {
    "12.4": 6 * 4 + 3 * 4,  # 6 columns per body, 3 rows per ball joint (Featherstone Table 4.1)
    "12.5": 1 - 1.5,  # g⁺ = (1 - γh) g, derived in §5
    "12.6": hinge_force_by_rnea(),
}
WRONG = {
    "12.4": 6 * 4 + 5 * 4,  # rows of a hinge instead of a ball joint
    "12.5": 1.5 - 1,  # the sign of the overshoot lost
    "12.6": 2 * 9.81,  # the static load: two 1 kg links hanging at rest
}


@pytest.mark.parametrize("exercise", sorted(RIGHT))
def test_the_right_answer_passes(exercise):
    CHECKS[exercise](RIGHT[exercise])


@pytest.mark.parametrize("exercise", sorted(WRONG))
def test_a_typical_mistake_is_sent_back_to_the_section_without_the_answer(exercise):
    with pytest.raises(AssertionError, match="Reread §") as err:
        CHECKS[exercise](WRONG[exercise])
    for shown in (RIGHT[exercise], round(RIGHT[exercise], 2)):
        assert f"{shown}" not in str(err.value)


@pytest.mark.parametrize("exercise", sorted(RIGHT))
def test_an_untouched_stub_is_not_attempted(exercise):
    with pytest.raises(NotImplementedError):
        CHECKS[exercise](...)


def test_the_hinge_force_is_not_the_weight():
    # the checker's answer is the dynamic load at release, well below the static 2 m g
    assert 0.5 * 9.81 < RIGHT["12.6"] < 1.5 * 9.81
