"""Acceleration-level Baumgarte stabilization (Sueda eq. 1.82, second line) in the maximal KKT step.

Independent routes: the discrete error recurrence v⁺ = (1 - 2αh) v - hβ² g, g⁺ = g + h v⁺ for a
joint displaced along a straight direction (worked out by hand from the discretized equation),
and the qualitative ordering of the drift of a swinging chain.
"""

import numpy as np
import pytest

from spatial import maximal
from spatial.builders import planar_chain

MODEL = planar_chain(3)
SYSTEM = maximal.from_model(MODEL)


def test_error_follows_the_discrete_second_order_recurrence():
    T_bad, phi = maximal.maximal_state(MODEL, np.zeros(3), np.zeros(3))
    T_bad[1, 0, 3] += 1e-3  # link 2 moved along x: one translational joint error
    h, alpha, beta = 0.01, 15.0, 20.0
    run = maximal.simulate_system(
        SYSTEM, T_bad, np.zeros_like(phi), h, 12, baumgarte_acceleration=(alpha, beta)
    )
    g, v, predicted = 1e-3, 0.0, [1e-3]
    for _ in range(12):
        v = (1 - 2 * alpha * h) * v - h * beta**2 * g
        g = g + h * v
        predicted.append(abs(g))
    np.testing.assert_allclose(np.abs(run.error).max(-1), predicted, rtol=1e-6)


def drift(h=0.01, n=100, **options):
    T0, phi0 = maximal.maximal_state(MODEL, np.array([0.9, 0.4, -0.3]), np.zeros(3))
    return np.abs(maximal.simulate_system(SYSTEM, T0, phi0, h, n, **options).error).max()


def test_acceleration_level_drift_ordering():
    velocity_plain = drift()
    accel_plain = drift(baumgarte_acceleration=(0.0, 0.0))
    accel_stab = drift(baumgarte_acceleration=(50.0, 50.0))
    # keeping only d(GΦ)/dt = 0 lets velocity errors persist: worse than GΦ⁺ = 0
    assert accel_plain > 2 * velocity_plain
    # the gains pull the positions back
    assert accel_stab < 0.2 * accel_plain and accel_stab < velocity_plain


@pytest.mark.parametrize(
    "options, match",
    [
        ({"baumgarte_acceleration": (1.0,)}, "must be a pair"),
        ({"baumgarte_acceleration": 3.0}, "must be a pair"),
        ({"baumgarte_acceleration": (-1.0, 1.0)}, "alpha must be a number >= 0"),
        ({"baumgarte_acceleration": (1.0, 1.0), "baumgarte": 5.0}, "either baumgarte"),
    ],
)
def test_bad_gains_raise(options, match):
    T0, phi0 = maximal.maximal_state(MODEL, np.zeros(3), np.zeros(3))
    with pytest.raises(ValueError, match=match):
        maximal.kkt_step(SYSTEM, T0, phi0, 0.01, **options)
