"""spatial.timing: functions timed in turn, round after round (no assertion on any code's speed)."""

import time

import numpy as np
import pytest

from spatial.timing import interleaved_times


def test_each_round_times_every_function_once_starting_one_later():
    log = []

    def make(name):
        def fn():
            log.append(name)
            time.sleep(2e-4)  # longer than min_time: one call per measurement

        return fn

    times = interleaved_times({"a": make("a"), "b": make("b"), "c": make("c")}, 3, 1e-4)
    assert log == list("abc") + list("abc") + list("bca") + list("cab")  # warm-up, then rounds
    assert set(times) == {"a", "b", "c"}
    assert all(t.shape == (3,) and np.all(t >= 2e-4) for t in times.values())


def test_fast_functions_are_called_many_times_per_measurement():
    calls = []
    times = interleaved_times({"noop": lambda: calls.append(1)}, repeats=2, min_time=1e-3)
    assert len(calls) > 10  # repeated until a measurement lasts 1 ms
    assert times["noop"].shape == (2,) and np.all(times["noop"] < 1e-3)


def test_a_slower_function_measures_slower():
    times = interleaved_times({"sleep": lambda: time.sleep(2e-3), "noop": lambda: None}, 3, 1e-3)
    assert times["sleep"].min() >= 2e-3 > np.median(times["noop"])


def test_the_clock_can_be_chosen():
    ticks = iter(range(1000))  # a clock that advances by one second per reading

    times = interleaved_times(
        {"f": lambda: None}, repeats=2, min_time=0.5, clock=lambda: next(ticks)
    )
    np.testing.assert_array_equal(times["f"], [1.0, 1.0])  # one call per measurement, 1 s each


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="repeats must be a positive integer"):
        interleaved_times({"f": lambda: None}, repeats=0)
    with pytest.raises(ValueError, match="repeats must be a positive integer"):
        interleaved_times({"f": lambda: None}, repeats=True)
    with pytest.raises(ValueError, match="min_time must be > 0"):
        interleaved_times({"f": lambda: None}, min_time=-1.0)
    with pytest.raises(ValueError, match="functions must name at least one"):
        interleaved_times({})
    with pytest.raises(TypeError, match=r"functions\['f'\] must be callable"):
        interleaved_times({"f": 3})
    with pytest.raises(TypeError, match="clock must be callable"):
        interleaved_times({"f": lambda: None}, clock=0.0)
