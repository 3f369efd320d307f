"""The value checkers of notebook 10 (10.4-10.6): right answers pass, typical mistakes fail.

The right answers are derived here by hand or by another route than the checker's (the
operators counted in the generated source text), so a checker comparing against a wrong
reference would fail.  A wrong answer is told which section to reread, never the answer.
"""

import pytest

import spatial as sp
from spatial.exercises import ch10
from spatial.symbolic import generate


def counted_in_text(f) -> int:
    """m + a of a generated function, counted from the operators of its printed source."""
    text = f.source
    return sum(text.count(f" {op} ") for op in "*/+-")


def test_superlinear_right_answer_passes():
    # eq. 10.3: the CRBA's line 13 runs n(n-1)/2 times on a chain; the ABA and RNEA are O(n)
    ch10.CHECKS["10.4"]({"crba"})
    ch10.CHECKS["10.4"](["crba"])
    ch10.CHECKS["10.4"]("crba")


@pytest.mark.parametrize("wrong", [{"crba", "aba"}, {"aba", "rnea", "crba"}, set()])
def test_superlinear_wrong_answer_names_the_section(wrong):
    with pytest.raises(AssertionError, match="Reread §6") as err:
        ch10.CHECKS["10.4"](wrong)
    assert "crba" not in str(err.value)


def test_superlinear_unknown_option_and_not_attempted():
    with pytest.raises(AssertionError, match="not one of"):
        ch10.CHECKS["10.4"]({"lu"})
    with pytest.raises(NotImplementedError):
        ch10.CHECKS["10.4"](...)


def test_revolute_saving():
    ch10.CHECKS["10.5"](6 * 6 + 6)  # a 6x6 times a 6-vector, then a 1x6 times a 6-vector
    for wrong in (36, 35 + 5, 0):  # only U_i; U_i's additions; nothing removed
        with pytest.raises(AssertionError, match="Reread §6") as err:
            ch10.CHECKS["10.5"](wrong)
        assert "42" not in str(err.value)
    with pytest.raises(NotImplementedError):
        ch10.CHECKS["10.5"](...)


def test_planar_ratio():
    planar = generate(sp.builders.planar_chain(7, length=0.4, mass=1.5), "aba")
    gu = generate(sp.builders.gu_chain(7), "aba")
    right = counted_in_text(planar) / counted_in_text(gu)
    ch10.CHECKS["10.6"](right)
    with pytest.raises(AssertionError, match="Reread §6") as err:
        ch10.CHECKS["10.6"](1 / right)  # the ratio upside down
    assert f"{right:.2f}" not in str(err.value)
    with pytest.raises(AssertionError, match="Reread §6"):
        ch10.CHECKS["10.6"](planar.m / gu.m * 1.1)
    with pytest.raises(NotImplementedError):
        ch10.CHECKS["10.6"](...)
