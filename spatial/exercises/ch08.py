"""Checkers for the exercises of notebook 08, "Closed loops" (Featherstone ch. 8).

08.1  the loop constraint matrix ``K`` from body Jacobians (eqs. 8.17–8.18, Table 8.4);
08.2  the explicit form ``x = G y + g`` of ``K x = k`` for chosen independent variables (eq. 8.51);
08.3  the loop closure function ``γ`` of a four-bar linkage, either assembly (§8.10–8.11).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import builders
from ..dynamics import loops
from . import assert_close

__all__ = ["CHECKS"]


def check_loop_K(loop_K: Callable) -> None:
    """08.1: ``loop_K(model, q)`` returns ``K`` (n^c x nv) of :func:`loops.loop_constraints`."""
    rng = np.random.default_rng(801)
    cases = [
        (builders.four_bar(), loops.four_bar_closure().gamma([0.7])),
        (builders.crank_slider(offset=0.1), loops.crank_slider_closure(offset=0.1).gamma([2.0])),
        (builders.planar_loop_fig_8_3(), loops.fig_8_3_closure().gamma([0.9, -0.4])),
    ]
    ladder = builders.ladder(2)
    cases.append((ladder, ladder.random_configuration(rng)))  # K is defined for open loops too
    for model, q in cases:
        expected, _ = loops.loop_constraints(model, q, np.zeros(model.nv))
        assert_close(loop_K(model, q.copy()), expected, f"K of a {model.NL}-loop model at q={q}")


def check_explicit_form(explicit_form: Callable) -> None:
    """08.2: ``explicit_form(K, k, independent)`` returns ``(G, g)`` as :func:`loops.G_and_g`."""
    rng = np.random.default_rng(802)
    for m, n, independent in ((2, 3, (0,)), (3, 6, (1, 4, 5)), (4, 5, (2,))):
        K = rng.standard_normal((m, n))
        k = K @ rng.standard_normal(n)
        G, g, _ = loops.G_and_g(K, k, independent)
        out = explicit_form(K.copy(), k.copy(), independent)
        if not (isinstance(out, tuple) and len(out) == 2):
            raise AssertionError("explicit_form must return a pair (G, g)")
        where = f"K of shape {K.shape}, independent={independent}"
        assert_close(out[0], G, f"G ({where})")
        assert_close(out[1], g, f"g ({where}; zero in the independent rows)")


def check_four_bar_gamma(four_bar_gamma: Callable) -> None:
    """08.3: ``four_bar_gamma(theta, lengths, branch)`` returns ``q = [θ₁, φ₂ - θ₁, φ₃]``."""
    for lengths in ((0.3, 1.0, 0.8, 0.9), (0.5, 0.9, 0.7, 1.0)):
        for branch in (1, -1):
            closure = loops.four_bar_closure(*lengths, branch=branch)
            for theta in (0.0, 0.8, 2.5, -1.9):
                expected = closure.gamma([theta])
                got = np.asarray(four_bar_gamma(theta, lengths, branch), dtype=float)
                if got.shape != (3,):
                    raise AssertionError(
                        f"four_bar_gamma must return q of shape (3,), got {got.shape}"
                    )
                diff = (got - expected + np.pi) % (2 * np.pi) - np.pi  # angles modulo 2π
                assert_close(
                    diff,
                    np.zeros(3),
                    f"q - expected (mod 2π) for lengths={lengths}, branch={branch}, θ={theta}; "
                    f"expected {np.round(expected, 6)}",
                )


CHECKS = {"08.1": check_loop_K, "08.2": check_explicit_form, "08.3": check_four_bar_gamma}
