"""Wall-clock timing helpers for the benchmarks (not tests: nothing here asserts on speed)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def measure(
    fn: Callable[[], object],
    repeats: int = 7,
    min_time: float = 0.05,
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    """Median time of one call of ``fn()``, in seconds.

    The number of calls per measurement grows until one measurement lasts at least
    ``min_time`` seconds (so that the timer's resolution does not matter); ``repeats`` such
    measurements are taken and the median time per call is returned.  One call before timing
    warms up caches and lazy imports.  ``clock`` is wall-clock time by default;
    ``time.process_time`` (CPU time of this process) is steadier on a busy machine.
    """
    fn()
    number = 1
    while True:
        start = clock()
        for _ in range(number):
            fn()
        elapsed = clock() - start
        if elapsed >= min_time:
            break
        number = max(number * 2, int(number * 1.2 * min_time / max(elapsed, 1e-9)))
    samples = [elapsed / number]
    for _ in range(repeats - 1):
        start = clock()
        for _ in range(number):
            fn()
        samples.append((clock() - start) / number)
    return statistics.median(samples)
