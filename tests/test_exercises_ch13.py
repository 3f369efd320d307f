"""The checkers of the value exercises of notebooks 13 and 13b (13.6-13.9): the right answer,
worked out here independently (closed forms, hand derivations), passes; a typical mistake fails
with the section to reread and without the expected value; ``...`` is not attempted."""

import numpy as np
import pytest
from scipy.optimize import brentq

import spatial as sp
from spatial.exercises import ch13


def _fails_with_hint(key, wrong, reread):
    with pytest.raises(AssertionError, match="Reread") as err:
        ch13.CHECKS[key](wrong)
    message = str(err.value)
    assert reread in message
    return message


@pytest.mark.parametrize("key", ["13.6", "13.7", "13.8", "13.9"])
def test_an_untouched_answer_is_not_attempted(key):
    with pytest.raises(NotImplementedError):
        ch13.CHECKS[key](...)


def test_explicit_step_limit():
    # D = (d/k) K for the bushing: every mode has 2ζ/ω = d/k, the explicit limit (notebook 13 §3)
    k, d = 4e4, 2.0
    ch13.CHECKS["13.6"](d / k)
    ch13.CHECKS["13.6"](1.005 * d / k)  # within the stated 1 %
    message = _fails_with_hint("13.6", 2 * d / k, "§3 of notebook 13")  # a factor 2
    assert "5e-05" not in message and "5.0e-05" not in message
    # symplectic Euler's limit 2/ω_max instead; ω_max from the stiffest rotation, by hand
    m, (lx, ly, lz) = 2.0, (0.4, 0.3, 0.2)
    inertias = m / 12 * np.array([ly**2 + lz**2, lx**2 + lz**2, lx**2 + ly**2])
    omega_max = np.sqrt(max(k / m, (k * 0.2**2 / inertias).max()))
    _fails_with_hint("13.6", 2.0 / omega_max, "§3 of notebook 13")


def _end_spring_periods():
    """Periods of the box held at (-0.2, 0, 0) by springs k_t, k_r: three decoupled sets."""
    m, (lx, ly, lz), kt, kr, a = 2.0, (0.4, 0.3, 0.2), 400.0, 10.0, 0.2
    Ixx, Iyy, Izz = m / 12 * np.array([ly**2 + lz**2, lx**2 + lz**2, lx**2 + ly**2])
    omega2 = [kt / m, kr / Ixx]  # slide along x; roll about x
    # y with a turn about z moves the end by y - a θ_z; z with a turn about y by z + a θ_y:
    # V = ½ k_t (y ∓ a θ)² + ½ k_r θ², the same eigenvalues for either sign
    for inertia in (Izz, Iyy):
        K = np.array([[kt, -a * kt], [-a * kt, a * a * kt + kr]])
        omega2 += list(np.linalg.eigvals(np.linalg.solve(np.diag([m, inertia]), K)).real)
    return np.sort(2 * np.pi / np.sqrt(omega2))[::-1]  # slowest first


def test_end_spring_period():
    periods = _end_spring_periods()
    ch13.CHECKS["13.7"](periods[0])
    _fails_with_hint("13.7", 2 * np.pi * np.sqrt(2.0 / 400.0), "§2.5 and §3 of notebook 13")
    _fails_with_hint("13.7", periods[1], "§2.5")  # the rocking mode about the other axis
    _fails_with_hint("13.7", periods[0] / (2 * np.pi), "§2.5")  # 1/ω, not the period


def test_shortened_pennation():
    alpha0 = np.radians(12.0)  # arm26's triceps (0.20943951 rad)
    ch13.CHECKS["13.8"](np.degrees(np.arcsin(np.sin(alpha0) / 0.6)))  # h = l sin α constant
    reread = "§5 of notebook 13b"
    _fails_with_hint("13.8", 12.0, reread)  # the angle unchanged
    _fails_with_hint("13.8", 12.0 / 0.6, reread)  # the angle growing as 1/l


def _elbow_torque_by_hand(a_biceps, with_triceps=True):
    """Torque at rest at 90° from the paths, Sueda's curves and the forearm's weight, by hand."""
    arm, theta = sp.builders.elbow_arm26(), np.pi / 2
    total = 0.0
    for name, a in (("biceps", a_biceps), ("triceps", 0.0)):
        if name == "triceps" and not with_triceps:
            continue
        m, p = arm.muscles[name], arm.path(name, theta)
        x = p.length - m.tendon_slack_length  # the fibers' projection on the tendon
        h = m.l_opt * np.sin(m.pennation_angle)  # the constant thickness
        l_fiber = np.hypot(x, h)
        lt = l_fiber / m.l_opt
        fiber = m.f_opt * (
            a * sp.forces.active_force_length(lt) + sp.forces.passive_force_length(lt)
        )
        total += -fiber * (x / l_fiber) * p.moment_arm  # -F cos α dl/dθ
    c, s = np.cos(theta), np.sin(theta)
    com_x = c * arm.forearm_com[0] - s * arm.forearm_com[1]
    return total - arm.forearm_mass * arm.g * com_x


def test_holding_activation():
    a = brentq(_elbow_torque_by_hand, 0.0, 1.0, xtol=1e-14)
    ch13.CHECKS["13.9"](a)
    ch13.CHECKS["13.9"](1.008 * a)
    a_alone = brentq(_elbow_torque_by_hand, 0.0, 1.0, args=(False,), xtol=1e-14)
    message = _fails_with_hint("13.9", a_alone, "§7 of notebook 13b")  # the triceps forgotten
    assert f"{a:.3f}" not in message
