"""Checkers for the exercises of notebook 08, "Closed loops" (Featherstone ch. 8).

* 08.1 the loop constraint matrix ``K`` from body Jacobians (eqs. 8.17–8.18, Table 8.4);
* 08.2 the explicit form ``x = G y + g`` of ``K x = k`` for chosen independent variables (eq. 8.51);
* 08.3 the loop closure function ``γ`` of a four-bar linkage, either assembly (§8.10–8.11);
* 08.4 (predict) constraints, rank of ``K`` and mobility of the four-bar closed by a ball joint
  (eq. 8.52, §8.10);
* 08.5 (model) the peak slider speed of a crank-slider driven at constant crank speed (§8.11).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import builders
from ..dynamics import loops
from ..joints import Spherical
from ..model import Model
from . import assert_close, check_number

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


def ball_four_bar() -> Model:
    """The four-bar of :func:`builders.four_bar` (default lengths) with its pin C a ball joint."""
    pinned = builders.four_bar()
    model = Model(gravity=pinned.gravity)
    for i in range(1, pinned.NB + 1):
        model.add_body(
            pinned.parent[i], pinned.joints[i], pinned.X_tree[i], pinned.inertia[i], pinned.names[i]
        )
    lj = pinned.loop_joints[0]
    model.add_loop_joint(lj.predecessor, lj.successor, Spherical(), lj.X_p, lj.X_s, "ball C")
    return model


def check_ball_joint_mobility(answer) -> None:
    """08.4: ``[n^c, rank K, mobility]`` of the four-bar whose pin C is a ball joint."""
    q = loops.four_bar_closure().gamma([0.7])  # any assembled configuration: the same counts
    mob = loops.mobility(ball_four_bar(), q)
    check_number(
        answer,
        [mob.nc, mob.rank, mob.mobility],
        what="[n^c, rank K, mobility] of the four-bar closed by a ball joint",
        reread="§2 of this notebook (the redundant rows of a planar loop) and Featherstone §8.10",
        rtol=0.0,
        atol=0.1,
    )


#: the crank-slider of exercise 08.5: crank 0.3 m, rod 1.0 m, guide 0.1 m above the crank's pivot
SLIDER = dict(crank=0.3, rod=1.0, offset=0.1)
SLIDER_OMEGA = 2 * np.pi  # constant crank speed (rad/s)


def check_slider_peak_speed(answer) -> None:
    """08.5: the largest slider speed |ẋ| (m/s) over one crank revolution, within 1 %."""
    closure = loops.crank_slider_closure(**SLIDER)
    theta = np.linspace(0.0, 2 * np.pi, 7201)[:, None]
    _, G, _ = closure.jacobians(theta, np.full_like(theta, SLIDER_OMEGA))  # q̇ = G ẏ (eq. 8.56)
    peak = np.abs(G[:, 2, 0] * SLIDER_OMEGA).max()
    check_number(
        answer,
        peak,
        what="the slider's peak speed in m/s",
        reread="§5 and §6 of this notebook (q̇ = G ẏ from the loop closure function), "
        "Featherstone §8.11",
        rtol=1e-2,
    )


CHECKS = {
    "08.1": check_loop_K,
    "08.2": check_explicit_form,
    "08.3": check_four_bar_gamma,
    "08.4": check_ball_joint_mobility,
    "08.5": check_slider_peak_speed,
}
