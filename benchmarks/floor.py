"""The floor under the package's ABA: its stacked 6x6 products alone, timed on this machine.

``spatial.aba`` keeps the shape of Featherstone's Table 7.1: each product with a 6x6 matrix is
one NumPy call on the stack of the batch's matrices (one matrix per state).  Per body it makes
two products of 6x6 matrices (the congruence ``Xᵀ Iᵃ X`` of pass 2) and seven of a 6x6 matrix
with a 6-vector: ``v_i`` and the velocity products ``c_i`` and ``p_i`` in pass 1, ``Iᵃ c`` and
``Xᵀ pᵃ`` in pass 2, ``X a`` and ``Uᵀ a'`` in pass 3.  :func:`product_floor` times those two
kinds of product on stacks of random matrices and returns ``n (2 t_mm + 7 t_mv)`` for a chain of
``n`` bodies: what the products alone cost, before any sum, division, indexing, allocation or
line of Python.  No code that keeps one stacked product per line of the table can run faster on
the machine that measured it; the gap between this floor and the measured ``aba`` is what the
rest of the code costs.
"""

from __future__ import annotations

import time

import numpy as np

#: stacked products per body of ``spatial.aba``: 6x6 times 6x6, and 6x6 times a 6-vector
MATRIX_PRODUCTS, VECTOR_PRODUCTS = 2, 7


def best_times(calls: dict, repeats: int) -> dict:
    """Shortest time of one call (s) of each ``(function, number)`` in ``calls``, timed in turn.

    Each round runs every function ``number`` times in a row; over ``repeats`` rounds the
    shortest is kept.  Timed in turn, all of them meet the same load on a shared machine.
    """
    best = dict.fromkeys(calls, np.inf)
    for _ in range(repeats):
        for key, (fn, number) in calls.items():
            start = time.perf_counter()
            for _ in range(number):
                fn()
            best[key] = min(best[key], (time.perf_counter() - start) / number)
    return best


def product_floor(n: int, states: int, others: dict | None = None, repeats: int = 7) -> dict:
    """The products alone of ``aba`` on a chain of ``n`` bodies, for ``states`` states.

    ``t_mm`` is ``A @ B`` for two (states, 6, 6) stacks, ``t_mv`` is ``A @ x`` for a
    (states, 6, 6) stack and a (states, 6, 1) stack of columns; with ``states = 1`` they are
    single 6x6 matrices and columns, as in one call of ``aba``.  ``others`` (name: function)
    are timed in turn with them, so that a ratio to the floor compares like with like.

    Returns a dict with ``t_mm_us``, ``t_mv_us`` (µs per stacked product), ``floor_us``
    (``n (2 t_mm + 7 t_mv)``, µs per call) and ``<name>_us`` for each of ``others``.
    """
    rng = np.random.default_rng(0)
    shape = () if states == 1 else (states,)
    A, B = rng.standard_normal((2, *shape, 6, 6))
    x = rng.standard_normal((*shape, 6, 1))
    many, few = max(1, 20_000 // states), max(1, 20_000 // (states * n))  # about 0.1 s a round
    calls = {"t_mm": (lambda: A @ B, many), "t_mv": (lambda: A @ x, many)}
    calls.update({key: (fn, few) for key, fn in (others or {}).items()})
    best = {key: 1e6 * t for key, t in best_times(calls, repeats).items()}
    floor = n * (MATRIX_PRODUCTS * best["t_mm"] + VECTOR_PRODUCTS * best["t_mv"])
    return {"floor_us": floor, **{f"{key}_us": t for key, t in best.items()}}
