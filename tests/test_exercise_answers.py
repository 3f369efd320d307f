"""The value answers of predict and model exercises: not attempted, wrong with a hint, right."""

import pytest

from spatial.exercises import answered, check_choice, check_number


def test_a_placeholder_is_not_attempted():
    with pytest.raises(NotImplementedError, match="period"):
        answered(..., "the period")
    with pytest.raises(NotImplementedError):
        check_number(..., 2.0, what="the period", reread="§2")
    with pytest.raises(NotImplementedError):
        check_choice(..., "a", options="abc", what="the joint", reread="§2")


def test_numbers_within_the_tolerance_pass_and_others_get_the_section_not_the_value():
    check_number(2.005, 2.0, what="the period", reread="§2", rtol=1e-2)
    check_number(0.0004, 0.0, what="the drift", reread="§2", atol=1e-3)
    check_number([1.0, 2.0], [1.0, 2.01], what="the torques", reread="§2")
    with pytest.raises(AssertionError) as err:
        check_number(2.5, 2.0, what="the period in s", reread="§2 and Featherstone §5.3")
    message = str(err.value)
    assert "§2 and Featherstone §5.3" in message and "2.0" not in message
    with pytest.raises(AssertionError, match="should be a number"):
        check_number("two", 2.0, what="the period", reread="§2")
    with pytest.raises(AssertionError, match="shape"):
        check_number([2.0, 2.0], 2.0, what="the period", reread="§2")


def test_choices_are_compared_as_sets_and_unknown_options_are_named():
    check_choice("b", "b", options="abc", what="the joint", reread="§1")
    check_choice(["c", "a"], {"a", "c"}, options="abc", what="the joints", reread="§1")
    with pytest.raises(AssertionError, match="Reread §1"):
        check_choice("a", "b", options="abc", what="the joint", reread="§1")
    with pytest.raises(AssertionError, match="Reread §1"):
        check_choice({"a"}, {"a", "c"}, options="abc", what="the joints", reread="§1")
    with pytest.raises(AssertionError, match="'z' is not one of"):
        check_choice("z", "a", options="abc", what="the joint", reread="§1")
