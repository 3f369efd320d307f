"""Tests for spatial.forces.muscle: piecewise-cubic muscle curves and the muscle tension law.

Sueda §1.9.4 (eqs. 1.38, 1.40–1.49): the curves are solved from the listed conditions and must
reproduce the published coefficients eqs. 1.42, 1.44, 1.46.
"""

import numpy as np
import pytest

from spatial.forces import (
    ACTIVE_FORCE_LENGTH_CONDITIONS,
    FORCE_VELOCITY_CONDITIONS,
    PASSIVE_FORCE_LENGTH_CONDITIONS,
    MuscleCurve,
    MuscleLaw,
    PiecewiseCubic,
    active_force_length,
    force_velocity,
    passive_force_length,
)

CURVES = {
    "passive": passive_force_length,
    "active": active_force_length,
    "velocity": force_velocity,
}

# Sueda eqs. 1.42, 1.44, 1.46, typed from the notes: rows (a, b, c, d) of a x³ + b x² + c x + d.
PUBLISHED = {
    "passive": [
        [2.55305620081729, -7.02386028610914, 6.38855196976641, -1.91774788447456],
        [-2.76122280853939, 14.6587935048229, -23.0429533092186, 11.3749950550874],
    ],
    "active": [
        [-39.881247949014, 68.3443204612586, -35.5324573534802, 5.83029153632759],
        [-0.322674853252855, -1.71744046959073, 4.40290549894003, -1.36279017609645],
        [4.85118460831817, -20.9908796589089, 28.3080866793169, -11.2356843095252],
    ],
    "velocity": [
        [0.915253473864379, 2.74576042159314, 2.74576042159314, 0.915253473864378],
        [-453.333333333333, -8.78048780487805, 5.0, 1.0],
        [0.266648649866, -0.799945949598001, 0.799945949598001, 1.133351350134],
    ],
}


# ------------------------------------------------------------------------- the coefficients


@pytest.mark.parametrize("name", CURVES)
def test_solved_coefficients_reproduce_published_values(name):
    # The notes print 12–15 significant digits; the solve agrees to that precision.
    np.testing.assert_allclose(CURVES[name].coefficients, PUBLISHED[name], rtol=2e-11, atol=1e-12)


def test_passive_conditions_end_at_1_7_not_1_8():
    # Eq. 1.41 prints x = 1.8 in its third row; the published coefficients (eq. 1.42) satisfy
    # f₂(1.7) = 1 and not f₂(1.8) = 1.
    a, b, c, d = PUBLISHED["passive"][1]
    assert abs(a * 1.7**3 + b * 1.7**2 + c * 1.7 + d - 1.0) < 1e-10
    assert abs(a * 1.8**3 + b * 1.8**2 + c * 1.8 + d - 1.0) > 0.1


@pytest.mark.parametrize(
    "name, conditions",
    [
        ("passive", PASSIVE_FORCE_LENGTH_CONDITIONS),
        ("active", ACTIVE_FORCE_LENGTH_CONDITIONS),
        ("velocity", FORCE_VELOCITY_CONDITIONS),
    ],
)
def test_each_segment_meets_its_conditions(name, conditions):
    coef = CURVES[name].coefficients
    for seg, order, x, value in conditions:
        poly = np.polyder(coef[seg], order) if order else coef[seg]
        assert np.polyval(poly, x) == pytest.approx(value, abs=1e-11)


def test_curve_values_at_the_points_the_notes_state():
    fL, fP, fV = active_force_length, passive_force_length, force_velocity
    np.testing.assert_allclose(
        fL([0.4, 0.7, 1.0, 1.2, 1.81]), [0, 0.767020368396388, 1, 0.89, 0], atol=1e-12
    )
    np.testing.assert_allclose(fL.derivative([0.4, 1.0, 1.81]), 0.0, atol=1e-11)
    np.testing.assert_allclose(fP([1.0, 1.3, 1.7]), [0, 0.126110265892917, 1], atol=1e-12)
    np.testing.assert_allclose(
        fP.derivative([1.0, 1.3, 1.7]), [0, 1.07051016402631, 2.85714285714286], atol=1e-11
    )
    np.testing.assert_allclose(fV([-1.0, 0.0, 1.0]), [0, 1, 1.4], atol=1e-12)
    np.testing.assert_allclose(fV.derivative([-1.0, 0.0, 1.0]), [0, 5, 0], atol=1e-11)


# ------------------------------------------------------------------------- smoothness


@pytest.mark.parametrize("name", CURVES)
def test_c1_at_every_knot_including_the_continuations(name):
    curve = CURVES[name]
    coef, knots = curve.coefficients, curve.breaks
    for i, x in enumerate(knots):
        left = coef[i - 1] if i > 0 else None
        right = coef[i] if i < len(coef) else None
        for order in (0, 1):
            sides = [
                np.polyval(np.polyder(c, order) if order else c, x)
                for c in (left, right)
                if c is not None
            ]
            # the curve's own value/slope just outside the knot (tangent continuation at the ends)
            for y in (x - 1e-10, x + 1e-10):
                got = curve.derivative(y, order)
                assert got == pytest.approx(sides[0], abs=1e-7 * max(1.0, abs(sides[0]))), (
                    x,
                    order,
                )
            assert sides[0] == pytest.approx(sides[-1], abs=1e-10), (x, order)


def test_force_velocity_is_c2_at_its_ends():
    # Eq. 1.45 asks for f'' = 0 at ṽ = ±1, so the cubics meet the constant continuation in C².
    coef = force_velocity.coefficients
    assert np.polyval(np.polyder(coef[0], 2), -1.0) == pytest.approx(0.0, abs=1e-9)
    assert np.polyval(np.polyder(coef[2], 2), 1.0) == pytest.approx(0.0, abs=1e-9)
    np.testing.assert_allclose(force_velocity.derivative([-1.0, 1.0], order=2), 0.0, atol=1e-9)
    np.testing.assert_allclose(force_velocity.derivative([-1.5, 1.5], order=2), 0.0)


@pytest.mark.parametrize("name", CURVES)
def test_slopes_equal_finite_differences_of_values(name):
    curve = CURVES[name]
    x = np.linspace(curve.breaks[0] - 0.3, curve.breaks[-1] + 0.3, 157)
    x = x[np.min(np.abs(x[:, None] - curve.breaks[None]), axis=1) > 1e-3]  # off the knots
    h = 1e-6
    fd = (curve(x + h) - curve(x - h)) / (2 * h)
    np.testing.assert_allclose(curve.derivative(x), fd, rtol=1e-7, atol=1e-7)
    fd2 = (curve.derivative(x + h) - curve.derivative(x - h)) / (2 * h)
    np.testing.assert_allclose(curve.derivative(x, 2), fd2, rtol=1e-6, atol=1e-6)


def test_continuations_beyond_the_knots():
    np.testing.assert_allclose(active_force_length([-1.0, 0.2, 2.0, 5.0]), 0.0, atol=1e-12)
    np.testing.assert_allclose(passive_force_length([0.0, 0.9]), 0.0, atol=1e-12)
    slope = 2.85714285714286
    np.testing.assert_allclose(
        passive_force_length([1.8, 2.7]), [1 + 0.1 * slope, 1 + slope], rtol=1e-10
    )
    np.testing.assert_allclose(force_velocity([-3.0, 3.0]), [0.0, 1.4], atol=1e-12)
    np.testing.assert_allclose(force_velocity.derivative([-3.0, 3.0], order=3), 0.0)


def test_curves_keep_the_shape_of_their_input():
    x = np.linspace(0.3, 1.9, 12).reshape(3, 4)
    assert active_force_length(x).shape == (3, 4)
    assert active_force_length.derivative(x).shape == (3, 4)
    np.testing.assert_allclose(active_force_length(x)[1, 2], active_force_length(x[1, 2]))
    assert np.ndim(force_velocity(0.3)) == 0


@pytest.mark.parametrize("name", CURVES)
def test_one_point_path_equals_the_array_path(name):
    # one float (a simulation's muscle length) is evaluated with Python floats: the same
    # segment and operations as the array path, so the same numbers, in the input's shape
    curve = CURVES[name]
    lo, hi = curve.breaks[0], curve.breaks[-1]
    xs = np.concatenate(
        [np.linspace(lo - 0.5, hi + 0.5, 41), curve.breaks, np.nextafter(curve.breaks, -np.inf)]
    )
    for order in range(4):
        want = curve.derivative(xs, order)
        for i, x in enumerate(xs):
            for one in (float(x), np.float64(x), np.array(x), np.array([[x]])):
                got = curve.derivative(one, order)
                assert isinstance(got, np.ndarray) and got.shape == np.shape(one)
                assert got.item() == want[i], (order, x)
    assert float(curve(float(lo))) == curve(np.array([lo, lo]))[0]


def test_curves_have_the_expected_shape():
    # passive and force–velocity increase; the active curve rises to its single peak at l̃ = 1
    x = np.linspace(0.95, 2.0, 200)
    assert np.all(np.diff(passive_force_length(x)) >= -1e-12)
    v = np.linspace(-1.2, 1.2, 200)
    assert np.all(np.diff(force_velocity(v)) >= -1e-12)
    lt = np.linspace(0.3, 2.0, 1001)
    assert lt[np.argmax(active_force_length(lt))] == pytest.approx(1.0, abs=2e-3)
    assert active_force_length(lt).max() <= 1.0 + 1e-12  # no overshoot above the peak


# ------------------------------------------------------------------------- PiecewiseCubic


def test_from_conditions_recovers_smoothstep():
    # f(0) = 0, f'(0) = 0, f(1) = 1, f'(1) = 0 is the cubic 3x² - 2x³
    c = PiecewiseCubic.from_conditions(
        [0.0, 1.0], [(0, 0, 0.0, 0.0), (0, 1, 0.0, 0.0), (0, 0, 1.0, 1.0), (0, 1, 1.0, 0.0)]
    )
    np.testing.assert_allclose(c.coefficients, [[-2.0, 3.0, 0.0, 0.0]], atol=1e-14)
    x = np.linspace(0, 1, 7)
    np.testing.assert_allclose(c(x), 3 * x**2 - 2 * x**3, atol=1e-14)
    np.testing.assert_allclose(c.derivative(x), 6 * x - 6 * x**2, atol=1e-14)


def test_from_conditions_with_c2_knots_is_a_cubic_spline():
    # Two segments with C² continuity: fitting x³ data determines x³ exactly.
    conds = [
        (0, 0, -1.0, -1.0),
        (0, 1, -1.0, 3.0),
        (1, 0, 1.0, 1.0),
        (1, 1, 1.0, 3.0),
        (1, 0, 0.5, 0.125),
    ]
    c = PiecewiseCubic.from_conditions([-1.0, 0.0, 1.0], conds, continuity=2)
    np.testing.assert_allclose(c.coefficients, [[1, 0, 0, 0], [1, 0, 0, 0]], atol=1e-12)


def test_a_gaussian_curve_fits_the_protocol():
    class Gaussian:
        def __call__(self, x):
            return np.exp(-((np.asarray(x) - 1.0) ** 2) / 0.18)

        def derivative(self, x):
            x = np.asarray(x)
            return -2 * (x - 1.0) / 0.18 * self(x)

    assert isinstance(Gaussian(), MuscleCurve)
    assert isinstance(active_force_length, MuscleCurve)
    law = MuscleLaw(f_opt=50.0, l_opt=0.2, v_max=10.0, activation=1.0, active=Gaussian())
    F, _, _ = law(0.2, 0.0)
    assert F == pytest.approx(50.0)


@pytest.mark.parametrize(
    "breaks, conditions, match",
    [
        ([0.0, 1.0], [(0, 0, 0.0, 0.0)], "need 4 conditions"),
        ([0.0, 1.0], [(0, 0, 0.0, 0.0)] * 4, "do not determine"),
        ([0.0, 1.0], [(1, 0, 0.0, 0.0)] * 4, "segment"),
        ([0.0, 1.0], [(0, 4, 0.0, 0.0)] * 4, "order"),
        ([1.0, 0.0], [(0, 0, 0.0, 0.0)] * 4, "strictly increasing"),
    ],
)
def test_from_conditions_rejects_bad_conditions(breaks, conditions, match):
    with pytest.raises(ValueError, match=match):
        PiecewiseCubic.from_conditions(breaks, conditions)


def test_piecewise_cubic_rejects_bad_input():
    with pytest.raises(ValueError, match="strictly increasing"):
        PiecewiseCubic([0.0, 0.0], [[0, 0, 0, 0]])
    with pytest.raises(ValueError, match=r"shape \(2, 4\)"):
        PiecewiseCubic([0.0, 1.0, 2.0], [[0, 0, 0, 0]])
    with pytest.raises(ValueError, match="continuity"):
        PiecewiseCubic.from_conditions([0.0, 1.0], [], continuity=3)
    with pytest.raises(ValueError, match="order"):
        force_velocity.derivative(0.0, order=4)
    with pytest.raises(ValueError, match="non-finite"):
        force_velocity(np.nan)


# ------------------------------------------------------------------------- the muscle law


def test_isometric_force_at_optimal_length_is_activation_times_peak():
    law = MuscleLaw(f_opt=300.0, l_opt=0.1, v_max=10.0, activation=0.4, tendon_length=0.05)
    F, _, _ = law(0.15, 0.0)  # l̃ = (0.15 - 0.05)/0.1 = 1, ṽ = 0
    assert F == pytest.approx(0.4 * 300.0)


def test_muscle_force_composes_the_curves():
    law = MuscleLaw(f_opt=200.0, l_opt=0.1, v_max=8.0, activation=0.6)
    l, ldot = np.array([0.08, 0.12, 0.15]), np.array([-0.3, 0.2, 0.5])
    lt, vt = l / 0.1, ldot / (0.1 * 8.0)
    expected = 200.0 * (
        0.6 * active_force_length(lt) * force_velocity(vt) + passive_force_length(lt)
    )
    F, _, _ = law(l, ldot)
    np.testing.assert_allclose(F, expected, rtol=1e-14)
    np.testing.assert_allclose(law.normalized(l, ldot), (lt, vt), rtol=1e-15)


def test_velocity_sign_convention():
    # lengthening (ṽ > 0) raises the force, shortening lowers it, max shortening gives none
    law = MuscleLaw(f_opt=1.0, l_opt=1.0, v_max=10.0, activation=1.0)
    F0, _, _ = law(1.0, 0.0)
    Fl, _, _ = law(1.0, 2.0)
    Fs, _, _ = law(1.0, -2.0)
    Fmax, _, _ = law(1.0, -10.0)
    assert Fs < F0 < Fl
    assert Fmax == pytest.approx(0.0, abs=1e-12)


def test_muscle_law_partials_equal_finite_differences():
    law = MuscleLaw(f_opt=150.0, l_opt=0.1, v_max=10.0, activation=0.8, tendon_length=0.02)
    l = np.array([0.095, 0.11, 0.13, 0.16])  # l̃ off the knots, where f_L'' jumps
    ldot = np.array([-0.4, 0.1, 0.3, -0.07])  # ṽ off the knots ±0.05
    _, dF_dl, dF_dldot = law(l, ldot)
    h = 1e-7
    np.testing.assert_allclose(
        dF_dl, (law(l + h, ldot)[0] - law(l - h, ldot)[0]) / (2 * h), rtol=1e-6
    )
    np.testing.assert_allclose(
        dF_dldot, (law(l, ldot + h)[0] - law(l, ldot - h)[0]) / (2 * h), rtol=1e-6
    )


def test_zero_activation_leaves_the_passive_force():
    law = MuscleLaw(f_opt=10.0, l_opt=1.0, v_max=10.0, activation=0.0)
    F, _, dF_dldot = law(1.5, 3.0)
    assert F == pytest.approx(10.0 * passive_force_length(1.5))
    assert dF_dldot == 0.0


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"activation": 1.2}, r"activation must lie in \[0, 1\]"),
        ({"activation": -0.1}, "activation must be a number >= 0"),
        ({"f_opt": -1.0}, "f_opt must be a number >= 0"),
        ({"l_opt": 0.0}, "l_opt must be > 0"),
        ({"l_opt": -0.1}, "l_opt must be > 0"),
        ({"activation": np.nan}, "activation must be a number >= 0, got nan"),
        ({"v_max": -2.0}, "v_max must be > 0"),
        ({"tendon_length": -0.1}, "tendon_length must be a number >= 0"),
        ({"active": np.sin}, "active must be a curve"),
        ({"f_opt": [1.0, 2.0]}, r"f_opt must be a number >= 0, got \[1.0, 2.0\]"),
    ],
)
def test_muscle_law_rejects_bad_parameters(kwargs, match):
    params = {"f_opt": 100.0, "l_opt": 0.1, "v_max": 10.0, "activation": 0.5} | kwargs
    with pytest.raises(ValueError, match=match):
        MuscleLaw(**params)


@pytest.mark.parametrize("length", [-0.5, 0.0, 0.05])
def test_path_length_must_exceed_the_tendon_length_as_for_the_musculotendon_law(length):
    # l <= l_T leaves the fibre no length (or a negative one); MusculotendonLaw refuses it too
    law = MuscleLaw(f_opt=100.0, l_opt=0.1, v_max=10.0, tendon_length=0.05)
    with pytest.raises(ValueError, match="path length must exceed the tendon length 0.05"):
        law(length, 0.0)
    with pytest.raises(ValueError, match="path length must exceed the tendon length 0.05"):
        law.normalized(np.array([0.1, length]), np.zeros(2))
    with pytest.raises(ValueError, match="path length must exceed the tendon length 0.0"):
        MuscleLaw(f_opt=100.0, l_opt=0.1, v_max=10.0)(-0.5, 0.0)


def test_from_conditions_takes_segments_orders_and_values_exactly():
    smoothstep = [(0, 0, 0.0, 0.0), (0, 1, 0.0, 0.0), (0, 0, 1.0, 1.0), (0, 1, 1.0, 0.0)]
    two = [0.0, 1.0, 2.0]
    conds = [(0, 0, 0.0, 0.0), (0, 1, 0.0, 0.0), (True, 0, 2.0, 1.0), (1, 1, 2.0, 0.0)]
    conds += [(0, 0, 0.5, 0.1), (1, 0, 1.5, 0.9)]  # 4n - (n - 1)(1 + 1) = 6 for C1
    with pytest.raises(ValueError, match=r"condition segment must be an integer in \[0, 1\], got"):
        PiecewiseCubic.from_conditions(two, conds)  # True was segment 1
    with pytest.raises(ValueError, match="condition order must be an integer in .* got 1.0"):
        PiecewiseCubic.from_conditions([0.0, 1.0], [(0, 1.0, 0.0, 0.0)] + smoothstep[1:])
    with pytest.raises(ValueError, match="continuity must be an integer in .* the bool True"):
        PiecewiseCubic.from_conditions(two, conds, continuity=True)
    with pytest.raises(ValueError, match="condition value must be real"):
        PiecewiseCubic.from_conditions([0.0, 1.0], smoothstep[:3] + [(0, 1, 1.0, 1j)])
