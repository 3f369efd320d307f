"""The value checkers of notebook 09 (09.5 predict, 09.6 model): the right answer, computed here
independently, passes; a typical mistake fails with the section to reread and without the
value; ``...`` is not attempted."""

import numpy as np
import pytest

import spatial as sp
from spatial import builders
from spatial.dynamics import floating_coefficients
from spatial.exercises import ch09


def test_gear_factors():
    # eq. 9.27: the rotor adds ρ²J to the diagonal and ρJ to the coupling; ρ × 3 gives 9 and 3
    ch09.CHECKS["09.5"]([9.0, 3.0])
    ch09.CHECKS["09.5"]([9.05, 2.98])  # within 1 %
    with pytest.raises(AssertionError) as err:
        ch09.CHECKS["09.5"]([9.0, 9.0])  # the coupling taken to grow like ρ² as well
    assert "Reread §4 of this notebook" in str(err.value) and "3.0" not in str(err.value)
    with pytest.raises(NotImplementedError):
        ch09.CHECKS["09.5"](...)


def torso_turn_by_momentum(steps=300):
    # zero momentum: I0c v_0 + F q̇ = 0 (Example 9.3) with q̇ the shoulder alone, at unit rate;
    # RK2 (Heun) in the shoulder angle, positions through model.integrate
    model = builders.humanoid(floating=True)
    model.gravity = np.zeros(3)
    qd = np.zeros(model.nv)
    qd[model.v_index[model.body("r_shoulder")]] = 1.0

    def velocity(q):
        I0c, F, _, _, _ = floating_coefficients(model, q, qd)
        return np.r_[-np.linalg.solve(I0c, F @ qd[6:]), qd[6:]]

    q, h = model.neutral_configuration(), np.pi / steps
    for _ in range(steps):
        k1 = velocity(q)
        k2 = velocity(model.integrate(q, k1, h))
        q = model.integrate(q, (k1 + k2) / 2, h)
    return np.degrees(np.linalg.norm(sp.quat_to_rotvec(q[:4])))


def test_torso_turn():
    angle = torso_turn_by_momentum()
    assert 1.0 < angle < 30.0  # the torso does turn, by a few degrees
    ch09.CHECKS["09.6"](angle)
    with pytest.raises(AssertionError) as err:
        ch09.CHECKS["09.6"](0.0)  # "zero momentum, so nothing turns"
    assert "Reread §3 of this notebook" in str(err.value) and f"{angle:.1f}" not in str(err.value)
    with pytest.raises(AssertionError):
        ch09.CHECKS["09.6"](180.0)  # the shoulder's angle, not the torso's
    with pytest.raises(NotImplementedError):
        ch09.CHECKS["09.6"](...)
