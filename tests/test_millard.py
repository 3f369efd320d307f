"""Tests for spatial.forces.bezier and spatial.forces.millard: the Millard 2012 muscle curves.

Reference values: ``tests/data/millard2012_opensim.json`` holds values, first and second
derivatives and (for the elastic curves) integrals computed by OpenSim 4.6 itself (the PyPI
wheel ``opensim``: ``ActiveForceLengthCurve``, ``ForceVelocityCurve``, ``FiberForceLengthCurve``,
``TendonForceLengthCurve``, methods ``calcValue``, ``calcDerivative(x, 1|2)``,
``calcIntegral``) on a grid over each curve's domain and its extrapolation, at every knot and
1e-7 either side, for the default parameters and for one or two non-default sets per curve.
Independently of OpenSim: the defining points and slopes, C² continuity by finite differences,
and the integral against adaptive quadrature.
"""

import json
from pathlib import Path

import numpy as np
import pytest
from scipy.integrate import quad

from spatial.forces import MuscleCurve, MuscleLaw, millard2012_curves
from spatial.forces.bezier import QuinticBezierSpline, corner_control_points
from spatial.forces.millard import (
    active_force_length_curve,
    fiber_force_length_curve,
    force_velocity_curve,
    tendon_force_length_curve,
)

REFERENCE = json.loads((Path(__file__).parent / "data" / "millard2012_opensim.json").read_text())
KEYS = ("active_force_length", "force_velocity", "passive_force_length", "tendon_force_length")
DEFAULT = millard2012_curves()


def _case_id(case):
    return case["curve"] + ("-default" if not case["params"] else "-custom")


# ------------------------------------------------------------------ agreement with OpenSim


@pytest.mark.parametrize("case", REFERENCE["cases"], ids=_case_id)
def test_curves_agree_with_opensim(case):
    curve = millard2012_curves(**{case["curve"]: case["params"]})[case["curve"]]
    x = np.array(case["x"])
    np.testing.assert_allclose(curve(x), case["value"], rtol=0, atol=1e-7)
    np.testing.assert_allclose(curve.derivative(x), case["d1"], rtol=1e-5, atol=1e-9)
    np.testing.assert_allclose(curve.derivative(x, order=2), case["d2"], rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("case", [c for c in REFERENCE["cases"] if "integral" in c], ids=_case_id)
def test_integral_agrees_with_opensim_numerical_integral(case):
    # OpenSim integrates numerically and fits a spline (error up to ~2e-5 near the passive
    # curve's end); ours is exact, see test_integral_against_quadrature.
    curve = millard2012_curves(**{case["curve"]: case["params"]})[case["curve"]]
    np.testing.assert_allclose(curve.integral(np.array(case["x"])), case["integral"], atol=5e-5)


def test_reference_covers_domain_and_extrapolation():
    for key in KEYS:
        xs = np.concatenate([c["x"] for c in REFERENCE["cases"] if c["curve"] == key])
        curve = DEFAULT[key]
        assert xs.min() < curve.x0 or key != "force_velocity"
        assert xs.max() > curve.x1
        for k in curve.knots:
            assert np.any(np.abs(xs - k) < 1e-12)


def test_live_opensim_if_installed():
    osim = pytest.importorskip("opensim")
    ref = {
        "active_force_length": osim.ActiveForceLengthCurve(),
        "force_velocity": osim.ForceVelocityCurve(),
        "passive_force_length": osim.FiberForceLengthCurve(),
        "tendon_force_length": osim.TendonForceLengthCurve(),
    }
    for key, o in ref.items():
        for x in np.linspace(DEFAULT[key].x0 - 0.1, DEFAULT[key].x1 + 0.1, 37):
            assert abs(float(DEFAULT[key](x)) - o.calcValue(x)) < 1e-7


# ------------------------------------------------------------------ defining properties


def test_active_curve_plateau_and_floor():
    c = DEFAULT["active_force_length"]
    p = c.parameters
    assert float(c(1.0)) == pytest.approx(1.0, abs=1e-14)
    assert float(c.derivative(1.0)) == pytest.approx(0.0, abs=1e-12)
    for x in (p["min_norm_active_fiber_length"], p["max_norm_active_fiber_length"], 0.1, 2.5):
        assert float(c(x)) == pytest.approx(p["minimum_value"], abs=1e-14)
    assert c.x0 == p["min_norm_active_fiber_length"] and c.x1 == p["max_norm_active_fiber_length"]
    # the shallow ascending limb has the requested slope where it meets the plateau corner
    k = c.knots
    assert float(c.derivative(k[2])) == pytest.approx(p["shallow_ascending_slope"], rel=1e-12)
    # the plateau is the maximum
    x = np.linspace(0, 2.2, 4001)
    assert c(x).max() <= 1.0 + 1e-14


def test_force_velocity_defining_points():
    c = DEFAULT["force_velocity"]
    p = c.parameters
    assert float(c(0.0)) == pytest.approx(1.0, abs=1e-14)
    assert float(c.derivative(0.0)) == pytest.approx(p["isometric_slope"], rel=1e-12)
    assert float(c(-1.0)) == pytest.approx(0.0, abs=1e-14)
    assert float(c(1.0)) == pytest.approx(p["max_eccentric_velocity_force_multiplier"], abs=1e-14)
    # isometric slope is reproduced by a central difference too (independent of the formula)
    h = 1e-6
    assert (float(c(h)) - float(c(-h))) / (2 * h) == pytest.approx(5.0, rel=1e-6)
    assert np.all(np.diff(c(np.linspace(-1.2, 1.2, 2001))) >= 0)


def test_passive_curve_defining_points():
    c = DEFAULT["passive_force_length"]
    p = c.parameters
    assert p["stiffness_at_one_norm_force"] == pytest.approx(2.0 / 0.7)
    assert float(c(1.0)) == 0.0 and float(c(0.8)) == 0.0
    assert float(c(1.7)) == pytest.approx(1.0, abs=1e-14)
    assert float(c.derivative(1.7)) == pytest.approx(2.0 / 0.7, rel=1e-12)
    assert float(c(1.9)) == pytest.approx(1.0 + 0.2 * 2.0 / 0.7, abs=1e-13)


@pytest.mark.parametrize("strain", [0.049, 0.1, 0.03])
def test_tendon_reaches_one_at_its_strain(strain):
    c = tendon_force_length_curve(strain)
    assert float(c(1.0 + strain)) == pytest.approx(1.0, abs=1e-14)
    assert float(c.derivative(1.0 + strain)) == pytest.approx(1.375 / strain, rel=1e-12)
    assert float(c(1.0)) == 0.0 and float(c.derivative(1.0)) == 0.0
    # the toe ends at the requested normalized force and the curve is straight beyond it
    assert float(c(c.x1)) == pytest.approx(2.0 / 3.0, abs=1e-12)


def test_changing_tendon_strain_moves_the_unit_force_point():
    soft = millard2012_curves(tendon_force_length={"strain_at_one_norm_force": 0.1})
    stiff = DEFAULT["tendon_force_length"]
    assert float(soft["tendon_force_length"](1.049)) < float(stiff(1.049)) == pytest.approx(1.0)
    assert float(soft["tendon_force_length"](1.1)) == pytest.approx(1.0, abs=1e-14)


def test_changing_curviness_changes_shape_not_end_points():
    a = force_velocity_curve(concentric_curviness=0.0)
    b = force_velocity_curve(concentric_curviness=1.0)
    for x in (-1.0, -0.9, 0.0):
        assert float(a(x)) == pytest.approx(float(b(x)), abs=1e-14)
    assert abs(float(a(-0.5)) - float(b(-0.5))) > 1e-3


# ------------------------------------------------------------------ smoothness and integral


@pytest.mark.parametrize("key", KEYS)
def test_c2_across_every_knot_by_finite_differences(key):
    c = DEFAULT[key]
    for k in c.knots:
        for side in (-1, 1):
            x, h = k + side * 1e-4, 1e-7
            fd1 = (float(c(x + h)) - float(c(x - h))) / (2 * h)
            fd2 = (float(c.derivative(x + h)) - float(c.derivative(x - h))) / (2 * h)
            assert fd1 == pytest.approx(float(c.derivative(x)), rel=1e-6, abs=1e-7)
            assert fd2 == pytest.approx(float(c.derivative(x, 2)), rel=1e-4, abs=1e-4)
        # a jump across the knot shrinks with the gap (a discontinuity would not)
        for order in (0, 1, 2):
            jump = [
                abs(float(c.derivative(k + e, order)) - float(c.derivative(k - e, order)))
                for e in (1e-7, 1e-9)
            ]
            assert jump[1] <= 0.02 * jump[0] + 1e-9 * max(1.0, abs(float(c.derivative(k, order))))


def test_the_knot_check_detects_suedas_c1_cubics():
    # The same jump test on Sueda's active cubic (C¹ only) fails for f'': the check has teeth.
    from spatial.forces import active_force_length as sueda

    k = sueda.breaks[1]
    jump = [
        abs(float(sueda.derivative(k + e, 2)) - float(sueda.derivative(k - e, 2)))
        for e in (1e-7, 1e-9)
    ]
    assert jump[1] > 0.02 * jump[0] + 1e-9 and jump[1] > 1.0


@pytest.mark.parametrize("key", ["passive_force_length", "tendon_force_length"])
def test_integral_against_quadrature(key):
    c = DEFAULT[key]
    inner = list(c.knots[1:-1])
    for x in np.linspace(c.x0 - 0.05, c.x1 + 0.2, 9):
        pts = [k for k in inner if c.x0 < k < x] or None
        q = quad(lambda t: float(c(t)), c.x0, x, points=pts, epsabs=1e-13, epsrel=1e-12)[0]
        assert float(c.integral(x)) == pytest.approx(q, abs=1e-11)


def test_integral_derivative_is_the_curve():
    c = DEFAULT["tendon_force_length"]
    x, h = np.linspace(1.0, 1.1, 23), 1e-6
    np.testing.assert_allclose((c.integral(x + h) - c.integral(x - h)) / (2 * h), c(x), atol=1e-7)


def test_corner_has_zero_end_curvature_and_requested_slopes():
    px, py = corner_control_points(0.0, 0.0, 0.5, 1.0, 2.0, 3.0, 0.5)
    s = QuinticBezierSpline([px], [py], (0.5, 3.0))
    assert float(s._derivative(np.array(0.0), 1)) == pytest.approx(0.5)
    assert float(s._derivative(np.array(1.0), 1)) == pytest.approx(3.0)
    assert abs(float(s._derivative(np.array(0.0), 2))) < 1e-10
    assert abs(float(s._derivative(np.array(1.0), 2))) < 1e-10


@pytest.mark.parametrize("key", KEYS)
def test_one_point_path_equals_the_array_path(key):
    """A single point (what a simulation asks for: one muscle length per step) goes through the
    spline's Python-float path; it gives the array path's numbers, in the input's shape."""
    c = DEFAULT[key]
    grid = np.linspace(c.x0 - 0.3, c.x1 + 0.3, 61)
    xs = np.concatenate([grid, c.knots, np.nextafter(c.knots, -np.inf), [c.x0, c.x1]])
    xs = xs[xs >= c.lower]
    f, df = c.value_and_derivative(xs)
    d2 = c.derivative(xs, 2)
    area = c.integral(xs) if c.has_integral else None
    got, want = [], []
    for i, x in enumerate(xs):
        for one in (float(x), np.float64(x), np.array(x), np.array([x]), np.array([[x]])):
            shape = np.shape(one)
            values = [*c.value_and_derivative(one), c(one), c.derivative(one, 2)]
            want += [f[i], df[i], f[i], d2[i]]
            if area is not None:
                values.append(c.integral(one))
                want.append(area[i])
            assert all(isinstance(v, np.ndarray) and v.shape == shape for v in values)
            got += [float(v.reshape(())) for v in values]
    np.testing.assert_allclose(got, want, rtol=4e-16, atol=4e-16)


# ------------------------------------------------------------------ protocol and MuscleLaw


def test_curves_are_muscle_curves_usable_by_muscle_law():
    for key in KEYS:
        assert isinstance(DEFAULT[key], MuscleCurve)
    law = MuscleLaw(
        f_opt=100.0,
        l_opt=0.1,
        v_max=10.0,
        activation=0.5,
        active=DEFAULT["active_force_length"],
        passive=DEFAULT["passive_force_length"],
        velocity=DEFAULT["force_velocity"],
    )
    l, ld = np.array([0.09, 0.12, 0.16]), np.array([-0.3, 0.0, 0.4])
    F, dFdl, dFdv = law(l, ld)
    h = 1e-7
    np.testing.assert_allclose(dFdl, (law(l + h, ld)[0] - law(l - h, ld)[0]) / (2 * h), rtol=1e-6)
    np.testing.assert_allclose(dFdv, (law(l, ld + h)[0] - law(l, ld - h)[0]) / (2 * h), rtol=1e-6)


def test_mapping_keys_and_read_only():
    assert tuple(DEFAULT) == KEYS
    with pytest.raises(TypeError):
        DEFAULT["force_velocity"] = None


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize(
    "build, kwargs, match",
    [
        (active_force_length_curve, {"curviness": 1.5}, "curviness must lie in"),
        (force_velocity_curve, {"eccentric_curviness": -0.1}, "eccentric_curviness must lie"),
        (
            fiber_force_length_curve,
            {"curviness": 2, "stiffness_at_low_force": 0.2, "stiffness_at_one_norm_force": 3.0},
            "curviness must lie",
        ),
        (active_force_length_curve, {"transition_norm_fiber_length": 0.3}, "must satisfy"),
        (active_force_length_curve, {"max_norm_active_fiber_length": 0.9}, "must satisfy"),
        (active_force_length_curve, {"shallow_ascending_slope": 5.0}, "shallow_ascending_slope"),
        (active_force_length_curve, {"minimum_value": -0.1}, "minimum_value must be >= 0"),
        (force_velocity_curve, {"max_eccentric_velocity_force_multiplier": 0.9}, "must be > 1"),
        (force_velocity_curve, {"concentric_slope_near_vmax": 0.0}, "concentric_slope_near"),
        (force_velocity_curve, {"isometric_slope": 0.5}, "isometric_slope must be > 1"),
        (force_velocity_curve, {"eccentric_slope_near_vmax": 0.5}, "eccentric_slope_near"),
        (fiber_force_length_curve, {"strain_at_one_norm_force": -0.1}, "must be greater than"),
        (fiber_force_length_curve, {"stiffness_at_low_force": 0.2}, "set all of"),
        (
            fiber_force_length_curve,
            {"stiffness_at_low_force": 0.2, "curviness": 0.5, "stiffness_at_one_norm_force": 1.0},
            "stiffness_at_one_norm",
        ),
        (tendon_force_length_curve, {"strain_at_one_norm_force": 0.0}, "must be > 0"),
        (
            tendon_force_length_curve,
            {"stiffness_at_one_norm_force": 10.0, "curviness": 0.5, "norm_force_at_toe_end": 0.5},
            "must be > 1/strain",
        ),
        (
            tendon_force_length_curve,
            {"stiffness_at_one_norm_force": 40.0, "curviness": 0.5, "norm_force_at_toe_end": 1.5},
            "norm_force_at_toe_end",
        ),
    ],
)
def test_bad_parameters_raise(build, kwargs, match):
    with pytest.raises(ValueError, match=match):
        build(**kwargs)


def test_bad_arguments_raise():
    c = DEFAULT["tendon_force_length"]
    with pytest.raises(ValueError, match="undefined below"):
        c(-0.5)
    with pytest.raises(ValueError, match="non-finite"):
        DEFAULT["force_velocity"](np.nan)
    with pytest.raises(ValueError, match="order must be 0, 1 or 2"):
        c.derivative(1.0, order=3)
    with pytest.raises(ValueError, match="offers no integral"):
        DEFAULT["active_force_length"].integral(1.0)
    with pytest.raises(ValueError, match="unknown curve"):
        millard2012_curves(tendon={"strain_at_one_norm_force": 0.1})
    with pytest.raises(ValueError, match="must be a mapping"):
        millard2012_curves(tendon_force_length=0.1)
    with pytest.raises(ValueError, match="unexpected keyword"):
        millard2012_curves(tendon_force_length={"strain": 0.1})
    with pytest.raises(ValueError, match="no C-shaped corner"):
        corner_control_points(0.0, 0.0, -1.0, 1.0, 1.0, 0.0, 0.5)
    with pytest.raises(ValueError, match="curviness must lie"):
        corner_control_points(0.0, 0.0, 0.0, 1.0, 1.0, 2.0, 1.5)


def test_spline_rejects_bad_control_points():
    px, py = corner_control_points(0.0, 0.0, 0.0, 1.0, 1.0, 2.0, 0.5)
    with pytest.raises(ValueError, match="shape"):
        QuinticBezierSpline([px[:5]], [py[:5]], (0, 2))
    with pytest.raises(ValueError, match="must not decrease"):
        QuinticBezierSpline([px[::-1]], [py], (0, 2))
    with pytest.raises(ValueError, match="share their end points"):
        QuinticBezierSpline([px, px + 2.0], [py, py], (0, 2))


@pytest.mark.parametrize("bad", [2.0, -0.1, np.nan, "0.5"])
def test_scale_curviness_refuses_what_is_not_in_the_unit_interval(bad):
    from spatial.forces.millard import scale_curviness

    with pytest.raises(ValueError, match="curviness"):
        scale_curviness(bad)  # 2.0 gave 1.7, nan gave nan
    assert scale_curviness(0.5) == pytest.approx(0.5)
