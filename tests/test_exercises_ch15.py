"""The value checkers of notebook 15 (15.3 predict, 15.4 model): right answers from closed forms
pass, a student's typical mistakes fail with the section to reread and without the answer."""

import pytest

from spatial.exercises import ch15

G, MASS, H = 9.81, 2.0, 4e-3


def test_resting_impulse_is_m_g_h():
    ch15.CHECKS["15.3"](MASS * G * H)  # the impulse that cancels one step of gravity


@pytest.mark.parametrize("wrong", [MASS * G, 0.0, -MASS * G * H])  # a force; eq. 2.113's mixed sign
def test_resting_impulse_mistakes_fail_without_the_answer(wrong):
    with pytest.raises(AssertionError, match="§5 of this notebook") as err:
        ch15.CHECKS["15.3"](wrong)
    assert "0.078" not in str(err.value) and "0.0785" not in str(err.value)


def test_pushed_block_closed_form_passes():
    v0, push, mu = 3.0, 5.0, 0.4
    ch15.CHECKS["15.4"](v0**2 / (2 * (mu * G - push / MASS)))  # net deceleration μg - F/m


@pytest.mark.parametrize(
    "wrong",
    [3.0**2 / (2 * 0.4 * G), 3.0**2 / (2 * (0.4 * G + 5.0 / MASS))],  # push ignored; push against
)
def test_pushed_block_mistakes_fail_without_the_answer(wrong):
    with pytest.raises(AssertionError, match="§5 of this notebook") as err:
        ch15.CHECKS["15.4"](wrong)
    assert "3.1" not in str(err.value)


@pytest.mark.parametrize("exercise", ["15.3", "15.4"])
def test_not_attempted(exercise):
    with pytest.raises(NotImplementedError):
        ch15.CHECKS[exercise](...)
