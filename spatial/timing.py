"""Wall-clock times of several functions measured in turn, for the notebooks' timing figures.

A time measured once on a shared machine says little: another process may have run during it.
:func:`interleaved_times` measures several functions *in turn*, round after round, so that each
round meets every function with the same load, and returns every round's time per call.  A
notebook then states a claim on the medians ("batched is faster per state than one call") and
draws the spread (min–max) beside it.  Nothing here asserts on speed (CONVENTIONS.md: no
timing assertions in tests); ``benchmarks/`` holds the machine's reference numbers.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

import numpy as np

from ._validate import positive_scalar

__all__ = ["interleaved_times"]


def _calls(fn: Callable[[], object], number: int, clock: Callable[[], float]) -> float:
    """Seconds per call of ``number`` calls of ``fn()`` in a row."""
    start = clock()
    for _ in range(number):
        fn()
    return (clock() - start) / number


def interleaved_times(
    functions: Mapping[str, Callable[[], object]],
    repeats: int = 7,
    min_time: float = 0.01,
    clock: Callable[[], float] = time.perf_counter,
) -> dict[str, np.ndarray]:
    """Time per call of each function, measured in turn over ``repeats`` rounds.

    Each function is first called once (caches, lazy imports) and given a number of calls in a
    row that lasts at least ``min_time`` seconds.  Then every round times each function once
    (that many calls, the time divided by their number), starting each round one function
    later, so that no function always runs first.

    Parameters
    ----------
    functions : mapping of str to callable
        Functions of no arguments (wrap calls with arguments in a ``lambda``).
    repeats : int
        Rounds, >= 1.
    min_time : float
        Seconds that one measurement lasts at least, > 0.
    clock : callable
        The clock, in seconds: wall-clock time by default; ``time.process_time`` (the CPU time
        of this process) is disturbed less by other programs on a busy machine.

    Returns
    -------
    dict of str to ndarray, shape (repeats,)
        Seconds per call, one entry per round, in round order.

    Raises
    ------
    ValueError
        If ``functions`` is empty, ``repeats`` is not a positive integer or ``min_time`` is not
        a positive number.
    TypeError
        If a value of ``functions`` or ``clock`` is not callable.
    """
    if isinstance(repeats, bool) or int(repeats) != repeats or repeats < 1:
        raise ValueError(f"repeats must be a positive integer, got {repeats!r}")
    min_time = positive_scalar(min_time, "min_time")
    if not functions:
        raise ValueError("functions must name at least one function to time")
    if not callable(clock):
        raise TypeError(f"clock must be callable, got {type(clock).__name__}")
    for name, fn in functions.items():
        if not callable(fn):
            raise TypeError(f"functions[{name!r}] must be callable, got {type(fn).__name__}")
    numbers = {}
    for name, fn in functions.items():
        number, elapsed = 1, _calls(fn, 1, clock)  # the first call also warms up
        while elapsed * number < min_time:
            number = max(2 * number, int(1.2 * min_time / max(elapsed, 1e-9)))
            elapsed = _calls(fn, number, clock)
        numbers[name] = number
    names = list(functions)
    times = {name: np.empty(int(repeats)) for name in names}
    for r in range(int(repeats)):
        for k in range(len(names)):
            name = names[(r + k) % len(names)]
            times[name][r] = _calls(functions[name], numbers[name], clock)
    return times
