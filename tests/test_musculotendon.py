"""Tests for spatial.forces.musculotendon: pennation, tendon equilibrium, activation dynamics.

Independent routes: Sueda's MuscleLaw (the rigid, unpennated special case), the closed-form
fiber length of a rigid tendon, the balance of fiber and tendon force (checked on the returned
split, not on the solver's residual), finite differences of the tension and of K and D through
MultiPointSpring, and the closed-form solution of the activation ODE for a constant excitation.
"""

import numpy as np
import pytest
from test_forces import check_K_and_D, scene, world_points

from spatial.forces import (
    MultiPointSpring,
    MuscleLaw,
    MusculotendonLaw,
    activation_rate,
    axial_spring,
    integrate_activation,
    millard2012_curves,
    sueda_curves,
)

MILLARD = millard2012_curves()


def law(**kw):
    base = dict(f_opt=400.0, l_opt=0.1, v_max=10.0, tendon_slack_length=0.2, activation=0.7)
    base.update(kw)
    return MusculotendonLaw(**base)


# ------------------------------------------------------------------ rigid tendon


def test_rigid_unpennated_with_sueda_curves_is_suedas_muscle_law():
    mt = law(curves=sueda_curves(), tendon_slack_length=0.05)
    ref = MuscleLaw(400.0, 0.1, 10.0, 0.7, tendon_length=0.05)
    l, ld = np.array([0.13, 0.15, 0.17, 0.2]), np.array([-0.4, 0.0, 0.2, 0.6])
    for ours, theirs in zip(mt(l, ld), ref(l, ld), strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-13, atol=1e-12)


def test_rigid_fiber_length_is_the_closed_form():
    alpha = 0.3
    mt = law(pennation_angle=alpha)
    l = np.array([0.26, 0.3, 0.35])
    h = 0.1 * np.sin(alpha)
    np.testing.assert_allclose(mt.fiber_length(l), np.hypot(l - 0.2, h), rtol=1e-15)
    eq = mt.equilibrium(l)
    np.testing.assert_allclose(eq["tendon_length"], 0.2, rtol=1e-15)
    np.testing.assert_allclose(np.sin(eq["pennation"]) * eq["fiber_length"], h, rtol=1e-13)
    # at the optimal fiber length the pennation is the given angle and F = a f_opt cos α
    l_star = 0.2 + 0.1 * np.cos(alpha)
    F, _, _ = mt(l_star, 0.0)
    assert float(mt.fiber_length(l_star)) == pytest.approx(0.1, rel=1e-14)
    assert float(F) == pytest.approx(0.7 * 400.0 * np.cos(alpha) + 0.0, rel=1e-12)


@pytest.mark.parametrize("curves", [MILLARD, sueda_curves()], ids=["millard", "sueda"])
@pytest.mark.parametrize("alpha", [0.0, 0.4])
def test_rigid_partials_equal_finite_differences(curves, alpha):
    mt = law(curves=curves, pennation_angle=alpha)
    l = np.array([0.273, 0.305, 0.33, 0.36])  # l̃ off Sueda's knots (C¹ only there)
    ld = np.array([-0.3, 0.12, 0.35, -0.07])
    _, dl, dv = mt(l, ld)
    h = 1e-7
    np.testing.assert_allclose(dl, (mt(l + h, ld)[0] - mt(l - h, ld)[0]) / (2 * h), rtol=1e-6)
    np.testing.assert_allclose(dv, (mt(l, ld + h)[0] - mt(l, ld - h)[0]) / (2 * h), rtol=1e-6)


def test_pennation_lowers_the_force_along_the_tendon():
    straight, pennate = law(), law(pennation_angle=0.5)
    l_opt_path = 0.3
    assert float(pennate(l_opt_path, 0.0)[0]) < float(straight(l_opt_path, 0.0)[0])


# ------------------------------------------------------------------ elastic tendon


@pytest.mark.parametrize("alpha", [0.0, 0.35])
@pytest.mark.parametrize("activation", [0.0, 0.3, 1.0])
def test_elastic_equilibrium_balances_fiber_and_tendon(alpha, activation):
    mt = law(tendon="elastic", pennation_angle=alpha, activation=activation)
    l = np.linspace(0.27, 0.4, 14)
    eq = mt.equilibrium(l)
    # recompute both forces from the returned split, independently of the solver
    lm, pen, lt = eq["fiber_length"], eq["pennation"], eq["tendon_length"]
    fiber = activation * MILLARD["active_force_length"](lm / 0.1)
    fiber = (fiber + MILLARD["passive_force_length"](lm / 0.1)) * np.cos(pen)
    tendon = MILLARD["tendon_force_length"](lt / 0.2)
    assert np.max(np.abs(fiber - tendon)) <= 1e-10  # normalized by f_opt
    np.testing.assert_allclose(lm * np.cos(pen) + lt, l, rtol=1e-14)
    np.testing.assert_allclose(lm * np.sin(pen), 0.1 * np.sin(alpha), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(eq["tendon_force"], 400.0 * tendon, rtol=1e-12, atol=1e-9)


def test_stiff_elastic_tendon_approaches_the_rigid_tendon():
    stiff = dict(MILLARD)
    stiff["tendon_force_length"] = millard2012_curves(
        tendon_force_length={"strain_at_one_norm_force": 1e-6}
    )["tendon_force_length"]
    l = np.array([0.29, 0.31, 0.33])
    F_el = law(tendon="elastic", curves=stiff, pennation_angle=0.2)(l, 0.0)[0]
    F_rig = law(pennation_angle=0.2)(l, 0.0)[0]
    np.testing.assert_allclose(F_el, F_rig, rtol=1e-4)


def test_elastic_tendon_stretches_under_load():
    mt = law(tendon="elastic")
    eq = mt.equilibrium(np.array([0.3, 0.32]))
    strain = eq["tendon_length"] / 0.2 - 1.0
    assert np.all(strain > 0) and np.all(strain < 0.049 * 1.01)  # F < f_opt here


def test_elastic_stiffness_is_series_springs_and_matches_differences():
    mt = law(tendon="elastic", pennation_angle=0.25)
    l = np.array([0.28, 0.3, 0.32, 0.345])
    F, dl, dv = mt(l, np.zeros_like(l))
    h = 1e-8
    fd = (mt(l + h, 0.0)[0] - mt(l - h, 0.0)[0]) / (2 * h)
    np.testing.assert_allclose(dl, fd, rtol=1e-5)
    assert np.all(dv == 0.0)
    # softer than the tendon alone
    kt = 400.0 * MILLARD["tendon_force_length"].derivative(mt.equilibrium(l)["tendon_length"] / 0.2)
    assert np.all(dl < kt / 0.2)


# ------------------------------------------------------------------ K and D in the force interface


def tuned(T, phi, bodies, points, tendon, curves):
    x, _ = world_points(T, phi, bodies, points)
    L = np.linalg.norm(np.diff(x, axis=0), axis=1).sum()
    ls = 0.5 * L
    return law(
        f_opt=80.0,
        l_opt=0.45 * L,
        v_max=3.0,
        tendon_slack_length=ls,
        pennation_angle=0.3,
        tendon=tendon,
        curves=curves,
    )


@pytest.mark.parametrize("tendon", ["rigid", "elastic"])
@pytest.mark.parametrize("coords", ["body", "world"])
def test_K_and_D_of_musculotendon_paths_match_finite_differences(tendon, coords):
    T, phi = scene()
    P = [[0.1, 0.2, 0.3], [-0.3, 0.1, 0.2], [0.4, 0.1, -0.3]]
    two = axial_spring(1, P[0], 2, P[1], tuned(T, phi, [1, 2], P[:2], tendon, MILLARD))
    via = MultiPointSpring([1, 2, 3], P, tuned(T, phi, [1, 2, 3], P, tendon, MILLARD))
    for F in (two, via):
        t = F.evaluate(T, phi)
        assert np.abs(t.K).max() > 0.1
        assert (np.abs(t.D).max() > 0.1) == (tendon == "rigid")
        check_K_and_D(F, T, phi, coords)


def test_K_and_D_with_sueda_curves():
    T, phi = scene()
    P = [[0.1, 0.2, 0.3], [-0.3, 0.1, 0.2]]
    F = axial_spring(1, P[0], 2, P[1], tuned(T, phi, [1, 2], P, "rigid", sueda_curves()))
    check_K_and_D(F, T, phi, "body")


# ------------------------------------------------------------------ activation dynamics


def test_activation_rate_signs_and_time_constants():
    assert float(activation_rate(0.5, 0.5)) == 0.0
    # rising from a = 0: τ = 0.5 τ_act; falling from a = 1: τ = τ_deact / 2
    assert float(activation_rate(1.0, 0.0)) == pytest.approx(1.0 / (0.5 * 0.010))
    assert float(activation_rate(0.0, 1.0)) == pytest.approx(-1.0 / (0.04 / 2.0))


def test_activation_integration_converges_to_the_closed_form():
    # u = 1: ȧ = (1 - a)/(τ (0.5 + 1.5 a)) separates; t(a) = τ [2 ln((1-a0)/(1-a)) - 1.5 (a - a0)]
    tau, a0 = 0.010, 0.05
    a_end = 0.9
    t_end = tau * (2.0 * np.log((1 - a0) / (1 - a_end)) - 1.5 * (a_end - a0))
    errors = []
    for n in (200, 400, 800):
        a = integrate_activation(np.ones(n), a0, t_end / n)
        errors.append(abs(a[-1] - a_end))
    assert errors[-1] < 1e-3
    assert errors[0] / errors[1] == pytest.approx(2.0, rel=0.1)  # first order
    assert errors[1] / errors[2] == pytest.approx(2.0, rel=0.1)


def test_activation_stays_in_unit_interval_for_huge_steps():
    u = np.array([1, 1, 0, 0, 1, 0], float)
    a = integrate_activation(u, 0.2, 10.0)
    assert np.all((a >= 0) & (a <= 1))


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize(
    "kw, match",
    [
        ({"activation": 1.5}, r"activation must lie in \[0, 1\]"),
        ({"activation": -0.1}, r"activation must lie in \[0, 1\]"),
        ({"pennation_angle": 1.6}, r"pennation_angle must lie in \[0, pi/2\)"),
        ({"tendon": "springy"}, "tendon must be 'rigid' or 'elastic'"),
        ({"tendon": "elastic", "curves": sueda_curves()}, "tendon_force_length"),
        ({"tendon": "elastic", "tendon_slack_length": 0.0}, "needs tendon_slack_length > 0"),
        ({"curves": {"active_force_length": 1.0}}, "must be a curve"),
        ({"curves": [1, 2]}, "curves must be a mapping"),
        ({"l_opt": 0.0}, "l_opt must be > 0"),
    ],
)
def test_bad_parameters_raise(kw, match):
    with pytest.raises(ValueError, match=match):
        law(**kw)


def test_bad_arguments_raise():
    with pytest.raises(ValueError, match="must exceed the tendon slack length"):
        law()(0.15, 0.0)
    with pytest.raises(ValueError, match="must exceed the tendon slack length"):
        law(tendon="elastic").equilibrium(0.2)
    with pytest.raises(ValueError, match=r"excitation must lie in \[0, 1\]"):
        activation_rate(1.2, 0.5)
    with pytest.raises(ValueError, match=r"activation must lie in \[0, 1\]"):
        activation_rate(0.5, -0.2)
    with pytest.raises(ValueError, match="tau_activation must be > 0"):
        activation_rate(0.5, 0.2, tau_activation=0.0)
    with pytest.raises(ValueError, match="dt must be > 0"):
        integrate_activation([0.5], 0.2, 0.0)
    with pytest.raises(ValueError, match=r"a0 must lie in \[0, 1\]"):
        integrate_activation([0.5], 1.2, 0.01)


def test_no_equilibrium_raises():
    # path barely longer than the slack tendon: even a fiber shrunk to nothing pulls with the
    # active curve's floor 0.1 f_opt, more than the tendon strained by 5e-4 can carry
    mt = law(tendon="elastic", activation=1.0)
    with pytest.raises(ValueError, match="no fiber–tendon equilibrium"):
        mt.equilibrium(0.2001)


# ------------------------------------------------------------------ exercise checkers (notebook 13)


def test_chapter_13_millard_checkers_accept_solutions_and_reject_mistakes():
    from scipy.optimize import brentq

    from spatial.exercises import ch13

    def corner(x0, y0, s0, x1, y1, s1, c, pair=True):
        xc = (y1 - y0 - x1 * s1 + x0 * s0) / (s0 - s1)  # the tangent lines meet
        yc = y0 + s0 * (xc - x0)
        a = (x0 + c * (xc - x0), y0 + c * (yc - y0))
        b = (x1 + c * (xc - x1), y1 + c * (yc - y1))
        a2 = a if pair else (x0, y0)
        return np.array([[x0, a[0], a2[0], b[0], b[0], x1], [y0, a[1], a2[1], b[1], b[1], y1]])

    def balance(law, l):
        h, ls, lo = law.thickness, law.tendon_slack_length, law.l_opt
        c = law.curves

        def residual(x):
            lm = np.hypot(x, h)
            fm = law.activation * c["active_force_length"](lm / lo)
            fm = fm + c["passive_force_length"](lm / lo)
            return float(fm * x / lm - c["tendon_force_length"]((l - x) / ls))

        x = brentq(residual, 1e-9, l - ls, xtol=1e-15)
        return np.hypot(x, h)

    ch13.CHECKS["13.4"](corner)
    ch13.CHECKS["13.5"](balance)
    with pytest.raises(AssertionError, match="equal pairs"):
        ch13.CHECKS["13.4"](lambda *a: corner(*a, pair=False))
    with pytest.raises(AssertionError, match="tangent lines meet"):
        ch13.CHECKS["13.4"](lambda *a: corner(*a[:-1], 0.5))
    with pytest.raises(AssertionError, match="rigid-tendon fiber length"):
        ch13.CHECKS["13.5"](lambda law, l: np.hypot(l - law.tendon_slack_length, law.thickness))
    with pytest.raises(AssertionError, match="f_M cos α"):
        ch13.CHECKS["13.5"](lambda law, l: 1.01 * balance(law, l))


def test_integrate_activation_takes_one_sequence_and_one_initial_value():
    with pytest.raises(ValueError, match=r"excitation must be one sequence .* got \(3, 2\)"):
        integrate_activation(np.ones((3, 2)), 0.1, 0.01)  # was flattened into six steps
    with pytest.raises(ValueError, match="a0 must be one number in"):
        integrate_activation(np.ones(3), [0.1, 0.2], 0.01)
    with pytest.raises(ValueError, match="^excitation must be real"):
        activation_rate(0.5 + 1j, 0.2)
