"""The Millard 2012 muscle curves, built from quintic Bézier corners as OpenSim builds them.

Sueda §1.9.4 approximates the Hill-type muscle's characteristic curves by piecewise cubics
(:mod:`spatial.forces.muscle`) and says they imitate the curves of Millard, Uchida, Seth and
Delp, "Flexing computational muscle: modeling and simulation of musculotendon dynamics",
J. Biomech. Eng. 135(2), 2013.  This module builds those curves themselves, the way OpenSim's
``SmoothSegmentedFunctionFactory`` does for ``Millard2012EquilibriumMuscle``: a few
physiological parameters place points and slopes; each pair of neighbouring points is joined by
a quintic Bézier corner (:mod:`spatial.forces.bezier`), so every curve is C² — the property an
implicit integrator's Newton solve needs (its stiffness ``f'`` must be continuous, and ``f''``
continuous keeps the Newton iterations smooth across knots).

A *curviness* ``k ∈ [0, 1]`` sets how far the inner control points sit towards the corner of
the tangent lines; it enters as ``0.1 + 0.8 k`` (OpenSim's ``scaleCurviness``).

The four curves (OpenSim's default parameters are the defaults here; Millard et al. 2013 §2):

* :func:`active_force_length_curve` — ``f_L(l̃)``: five corners through the shallow and steep
  ascending limbs, the plateau at 1 with zero slope at ``l̃ = 1``, the descending limb, and a
  floor ``minimum_value`` outside the active range (OpenSim ``ActiveForceLengthCurve``).
* :func:`force_velocity_curve` — ``f_V(ṽ)``: 0 at ``ṽ = -1`` (maximal shortening), 1 with the
  isometric slope at ``ṽ = 0``, ``max_eccentric_velocity_force_multiplier`` at ``ṽ = 1``
  (lengthening positive, as in :mod:`spatial.forces.muscle`; OpenSim ``ForceVelocityCurve``).
* :func:`fiber_force_length_curve` — ``f_P(l̃)``: zero up to ``1 + strain_at_zero_force``,
  then a toe and 1 at ``1 + strain_at_one_norm_force`` (OpenSim ``FiberForceLengthCurve``).
* :func:`tendon_force_length_curve` — ``f_T(l̃_T)`` of the tendon length over its slack length:
  zero at 1, a toe up to ``norm_force_at_toe_end``, then linear with slope
  ``stiffness_at_one_norm_force`` through 1 at ``1 + strain_at_one_norm_force`` (OpenSim
  ``TendonForceLengthCurve``).

Every curve is a :class:`MillardCurve`: ``curve(x)``, ``curve.derivative(x, order=1 | 2)``
and, for the two elastic curves, ``curve.integral(x)`` = ``∫ f`` from the curve's first point
(the normalized strain energy).  :func:`millard2012_curves` returns the four as a mapping.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import isfinite
from types import MappingProxyType

import numpy as np

from .._validate import as_scalar_array
from .bezier import QuinticBezierSpline, corner_control_points

__all__ = [
    "MillardCurve",
    "scale_curviness",
    "active_force_length_curve",
    "force_velocity_curve",
    "fiber_force_length_curve",
    "tendon_force_length_curve",
    "millard2012_curves",
]


def scale_curviness(curviness: float) -> float:
    """Map a user curviness ``k ∈ [0, 1]`` to the Bézier fraction ``0.1 + 0.8 k``.

    Raises
    ------
    ValueError
        If ``curviness`` is not one real number in ``[0, 1]``.
    """
    return 0.1 + 0.8 * _curviness(curviness)


def _number(value, name: str) -> float:
    a = as_scalar_array(value, name)
    if a.shape != ():
        raise ValueError(f"{name} must be a single number, got {value!r}")
    return float(a)


def _curviness(value, name: str = "curviness") -> float:
    c = _number(value, name)
    if not 0.0 <= c <= 1.0:
        raise ValueError(f"{name} must lie in [0, 1], got {value!r}")
    return c


class MillardCurve(QuinticBezierSpline):
    """One Millard 2012 curve: a :class:`QuinticBezierSpline` with a name and its parameters.

    Implements the :class:`spatial.forces.MuscleCurve` protocol, so it can replace a curve of
    :class:`spatial.forces.MuscleLaw`.

    Attributes
    ----------
    name : str
    parameters : mapping
        The parameters in use (including the fitted defaults the tendon and passive curves
        derive from their strain).
    lower : float
        Smallest admissible argument (0 for the length curves: a negative normalized length
        is meaningless; ``-inf`` for the force–velocity curve).
    """

    def __init__(self, name, px, py, slopes, parameters, lower, has_integral) -> None:
        super().__init__(px, py, slopes)
        self.name = name
        self.parameters = MappingProxyType(dict(parameters))
        self.lower = float(lower)
        self.has_integral = has_integral

    def _checked(self, x) -> np.ndarray | float:
        if isinstance(x, float) and isfinite(x) and x >= self.lower:
            return float(x)  # one admissible number: the curve's scalar path, without NumPy
        x = as_scalar_array(x, "x")
        if np.any(x < self.lower):
            raise ValueError(
                f"{self.name} is undefined below a normalized argument of {self.lower}, "
                f"got {np.min(x)}"
            )
        return x

    def __call__(self, x) -> np.ndarray:
        """Value ``f(x)`` on an array."""
        return self._derivative(self._checked(x), 0)

    def derivative(self, x, order: int = 1) -> np.ndarray:
        """``f'(x)`` (``order=1``) or ``f''(x)`` (``order=2``); ``order=0`` gives ``f``.

        Raises
        ------
        ValueError
            If ``order`` is not 0, 1 or 2, or ``x`` is not finite or below :attr:`lower`.
        """
        if order not in (0, 1, 2):
            raise ValueError(f"order must be 0, 1 or 2, got {order!r}")
        return self._derivative(self._checked(x), order)

    def value_and_derivative(self, x) -> tuple[np.ndarray, np.ndarray]:
        """``(f(x), f'(x))`` with one parameter solve (what a tension law needs)."""
        f, df = self._derivatives(self._checked(x), (0, 1))
        return f, df

    def integral(self, x) -> np.ndarray:
        """``∫ f`` from the curve's first point to ``x`` (normalized elastic energy).

        Exact (the integrand is a polynomial in the Bézier parameter); OpenSim integrates
        numerically.  Left of the first point the integral of the straight continuation.

        Raises
        ------
        ValueError
            If the curve has no integral (the active and force–velocity curves, as in OpenSim)
            or ``x`` is invalid.
        """
        if not self.has_integral:
            raise ValueError(f"{self.name} offers no integral (only the elastic curves do)")
        return self._integral(self._checked(x))

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v:g}" for k, v in self.parameters.items())
        return f"{self.name}({args})"


def _chain(points, curviness):
    """Corner control points through consecutive ``(x, y, dydx)`` points, as (n, 6) arrays."""
    segs = [
        corner_control_points(*a, *b, c)
        for a, b, c in zip(points[:-1], points[1:], curviness, strict=True)
    ]
    return np.array([s[0] for s in segs]), np.array([s[1] for s in segs])


def active_force_length_curve(
    min_norm_active_fiber_length: float = 0.47 - 0.0259,
    transition_norm_fiber_length: float = 0.73,
    max_norm_active_fiber_length: float = 1.8123,
    shallow_ascending_slope: float = 0.8616,
    minimum_value: float = 0.1,
    curviness: float = 1.0,
) -> MillardCurve:
    """Active fiber force–length curve ``f_L(l̃)`` (Millard et al. 2013 §2, Fig. 2).

    Five corners: from ``(l₀, y_min)`` flat, through the midpoint of the steep ascending limb,
    to the shallow limb (slope ``shallow_ascending_slope``) and onto the plateau ``(1, 1)``
    with zero slope, down the descending limb to ``(l₃, y_min)``.  The plateau's shoulder sits
    5 % of the optimal length (``Δ = 0.05``) before 1; the descending limb's midpoint slope is
    ``-1/(l₃ - 1 - 2Δ)``.  OpenSim's ``ActiveForceLengthCurve`` passes curviness 1.

    Parameters
    ----------
    min_norm_active_fiber_length, transition_norm_fiber_length, max_norm_active_fiber_length : float
        ``l₀ < l₁ < 1 < l₃``: start of activity, steep-to-shallow transition, end of activity.
    shallow_ascending_slope : float
        Slope of the shallow ascending limb, in ``[0, (1 - y_min)/(1 - l₁))``.
    minimum_value : float
        ``y_min >= 0``, the value outside ``[l₀, l₃]``.
    curviness : float
        How tightly the five corners bend, in ``[0, 1]`` (``ActiveForceLengthCurve`` uses 1).

    Returns
    -------
    MillardCurve

    Raises
    ------
    ValueError
        If the lengths are not increasing (``0 <= l₀ < l₁ < 1 < l₃``), the slope or minimum
        is out of range, or curviness is outside ``[0, 1]``.
    """
    x0 = _number(min_norm_active_fiber_length, "min_norm_active_fiber_length")
    x1 = _number(transition_norm_fiber_length, "transition_norm_fiber_length")
    x3 = _number(max_norm_active_fiber_length, "max_norm_active_fiber_length")
    slope = _number(shallow_ascending_slope, "shallow_ascending_slope")
    ylow = _number(minimum_value, "minimum_value")
    c = scale_curviness(_curviness(curviness))
    x2, gap = 1.0, np.sqrt(np.finfo(float).eps)
    if not (x0 >= 0 and x1 > x0 + gap and x2 > x1 + gap and x3 > x2 + gap):
        raise ValueError(
            "active force-length lengths must satisfy 0 <= min_norm_active_fiber_length < "
            f"transition_norm_fiber_length < 1 < max_norm_active_fiber_length, got {x0}, {x1}, "
            f"{x3}"
        )
    if ylow < 0:
        raise ValueError(f"minimum_value must be >= 0, got {ylow}")
    bound = (1.0 - ylow) / (x2 - x1)
    if not 0 <= slope < bound:
        raise ValueError(f"shallow_ascending_slope must lie in [0, {bound:g}), got {slope}")
    delta = 0.05 * x2
    xs = x2 - delta  # where the shallow limb meets the plateau corner
    y1 = 1.0 - slope * (xs - x1)
    x01, y01 = x0 + 0.5 * (x1 - x0), 0.5 * y1
    slope01 = 1.25 * y1 / (x1 - x0)
    x1s, y1s = x1 + 0.5 * (xs - x1), y1 + 0.5 * (1.0 - y1)
    x23 = (x2 + delta) + 0.5 * (x3 - (x2 + delta))
    slope23 = -1.0 / ((x3 - delta) - (x2 + delta))
    pts = [
        (x0, ylow, 0.0),
        (x01, y01, slope01),
        (x1s, y1s, slope),
        (x2, 1.0, 0.0),
        (x23, 0.5, slope23),
        (x3, ylow, 0.0),
    ]
    px, py = _chain(pts, [c] * 5)
    params = {
        "min_norm_active_fiber_length": x0,
        "transition_norm_fiber_length": x1,
        "max_norm_active_fiber_length": x3,
        "shallow_ascending_slope": slope,
        "minimum_value": ylow,
        "curviness": float(curviness),
    }
    return MillardCurve("active_force_length", px, py, (0.0, 0.0), params, 0.0, False)


def force_velocity_curve(
    concentric_slope_at_vmax: float = 0.0,
    concentric_slope_near_vmax: float = 0.25,
    isometric_slope: float = 5.0,
    eccentric_slope_at_vmax: float = 0.0,
    eccentric_slope_near_vmax: float = 0.15,
    max_eccentric_velocity_force_multiplier: float = 1.4,
    concentric_curviness: float = 0.6,
    eccentric_curviness: float = 0.9,
) -> MillardCurve:
    """Force–velocity curve ``f_V(ṽ)``, ``ṽ`` lengthening positive (Millard et al. 2013 §2).

    Four corners through ``(-1, 0)``, a point at ``ṽ = -0.9`` on the mean of the concentric
    slopes, ``(0, 1)`` with ``isometric_slope``, a point at ``ṽ = 0.9`` and
    ``(1, f_max)``; straight with the end slopes beyond ``±1``.

    Parameters
    ----------
    concentric_slope_at_vmax, concentric_slope_near_vmax : float
        ``0 <= s_C < 1`` and ``s_C < s_nearC <= 1``: slopes at and near ``ṽ = -1``.
    isometric_slope : float
        Slope at ``ṽ = 0``, > 1.
    eccentric_slope_at_vmax, eccentric_slope_near_vmax : float
        ``0 <= s_E <= s_nearE < f_max - 1``.
    max_eccentric_velocity_force_multiplier : float
        ``f_max > 1``.
    concentric_curviness, eccentric_curviness : float
        In ``[0, 1]``.

    Returns
    -------
    MillardCurve

    Raises
    ------
    ValueError
        If a slope or the multiplier is outside its range or a curviness outside ``[0, 1]``.
    """
    fmax = _number(
        max_eccentric_velocity_force_multiplier, "max_eccentric_velocity_force_multiplier"
    )
    sc = _number(concentric_slope_at_vmax, "concentric_slope_at_vmax")
    snc = _number(concentric_slope_near_vmax, "concentric_slope_near_vmax")
    siso = _number(isometric_slope, "isometric_slope")
    se = _number(eccentric_slope_at_vmax, "eccentric_slope_at_vmax")
    sne = _number(eccentric_slope_near_vmax, "eccentric_slope_near_vmax")
    cc = scale_curviness(_curviness(concentric_curviness, "concentric_curviness"))
    ce = scale_curviness(_curviness(eccentric_curviness, "eccentric_curviness"))
    if not fmax > 1.0:
        raise ValueError(f"max_eccentric_velocity_force_multiplier must be > 1, got {fmax}")
    if not 0.0 <= sc < 1.0:
        raise ValueError(f"concentric_slope_at_vmax must lie in [0, 1), got {sc}")
    if not sc < snc <= 1.0:
        raise ValueError(
            f"concentric_slope_near_vmax must lie in (concentric_slope_at_vmax, 1], got {snc}"
        )
    if not siso > 1.0:
        raise ValueError(f"isometric_slope must be > 1, got {siso}")
    if not 0.0 <= se < fmax - 1.0:
        raise ValueError(f"eccentric_slope_at_vmax must lie in [0, {fmax - 1:g}), got {se}")
    if not se <= sne < fmax - 1.0:
        raise ValueError(
            f"eccentric_slope_near_vmax must lie in [eccentric_slope_at_vmax, {fmax - 1:g}), "
            f"got {sne}"
        )
    x_nc, x_ne = -0.9, 0.9
    y_nc = 0.5 * (snc + sc) * (x_nc + 1.0)
    y_ne = fmax + 0.5 * (sne + se) * (x_ne - 1.0)
    pts = [(-1.0, 0.0, sc), (x_nc, y_nc, snc), (0.0, 1.0, siso), (x_ne, y_ne, sne), (1.0, fmax, se)]
    px, py = _chain(pts, [cc, cc, ce, ce])
    params = {
        "concentric_slope_at_vmax": sc,
        "concentric_slope_near_vmax": snc,
        "isometric_slope": siso,
        "eccentric_slope_at_vmax": se,
        "eccentric_slope_near_vmax": sne,
        "max_eccentric_velocity_force_multiplier": fmax,
        "concentric_curviness": float(concentric_curviness),
        "eccentric_curviness": float(eccentric_curviness),
    }
    return MillardCurve("force_velocity", px, py, (sc, se), params, -np.inf, False)


def _optional(given: dict, fitted: tuple) -> list[float]:
    """The optional parameters, checked, if all are given; OpenSim's ``fitted`` ones if none."""
    flags = [v is not None for v in given.values()]
    if any(flags) and not all(flags):
        raise ValueError(f"set all of {', '.join(given)} or none of them (then they are fitted)")
    if not all(flags):
        return list(fitted)
    return [_curviness(v) if k == "curviness" else _number(v, k) for k, v in given.items()]


def fiber_force_length_curve(
    strain_at_zero_force: float = 0.0,
    strain_at_one_norm_force: float = 0.7,
    stiffness_at_low_force: float | None = None,
    stiffness_at_one_norm_force: float | None = None,
    curviness: float | None = None,
) -> MillardCurve:
    """Passive fiber force–length curve ``f_P(l̃)`` (Millard et al. 2013 §2).

    Two corners: from ``(1 + e₀, 0)`` with zero slope to a low-force point with slope
    ``k_low``, then to ``(1 + e_iso, 1)`` with slope ``k_iso``; zero to the left, straight with
    slope ``k_iso`` to the right.  The low-force point sits
    ``Δ = min(0.1/k_iso, 0.1 (e_iso - e₀))`` right of the start at height ``k_low Δ/2``.
    Without the three optional parameters OpenSim's fit is used: ``k_low = 0.2``,
    ``k_iso = 2/(e_iso - e₀)``, curviness 0.75.

    Parameters
    ----------
    strain_at_zero_force, strain_at_one_norm_force : float
        ``e₀ < e_iso``.
    stiffness_at_low_force, stiffness_at_one_norm_force, curviness : float or None
        ``0 < k_low < 1/(e_iso - e₀) < k_iso``, curviness in ``[0, 1]``; all or none.

    Returns
    -------
    MillardCurve
        With :meth:`MillardCurve.integral` (the normalized passive energy).

    Raises
    ------
    ValueError
        If the strains are not increasing, the stiffnesses out of order, the optional
        parameters only partly given, or curviness outside ``[0, 1]``.
    """
    e0 = _number(strain_at_zero_force, "strain_at_zero_force")
    e1 = _number(strain_at_one_norm_force, "strain_at_one_norm_force")
    if not e1 > e0:
        raise ValueError(
            f"strain_at_one_norm_force ({e1}) must be greater than strain_at_zero_force ({e0})"
        )
    given = {
        "stiffness_at_low_force": stiffness_at_low_force,
        "stiffness_at_one_norm_force": stiffness_at_one_norm_force,
        "curviness": curviness,
    }
    k_low, k_iso, k = _optional(given, (0.2, 2.0 / (e1 - e0), 0.75))
    if not k_iso > 1.0 / (e1 - e0):
        raise ValueError(
            "stiffness_at_one_norm_force must be > 1/(e_iso - e_0) = "
            f"{1 / (e1 - e0):g}, got {k_iso}"
        )
    if not 0.0 < k_low < 1.0 / (e1 - e0):
        raise ValueError(f"stiffness_at_low_force must lie in (0, {1 / (e1 - e0):g}), got {k_low}")
    c = scale_curviness(k)
    x_zero, x_iso = 1.0 + e0, 1.0 + e1
    delta = min(0.1 / k_iso, 0.1 * (x_iso - x_zero))
    x_low = x_zero + delta
    y_low = k_low * (x_low - (x_zero + 0.5 * delta))
    px, py = _chain([(x_zero, 0.0, 0.0), (x_low, y_low, k_low), (x_iso, 1.0, k_iso)], [c, c])
    params = {
        "strain_at_zero_force": e0,
        "strain_at_one_norm_force": e1,
        "stiffness_at_low_force": k_low,
        "stiffness_at_one_norm_force": k_iso,
        "curviness": k,
    }
    return MillardCurve("passive_force_length", px, py, (0.0, k_iso), params, 0.0, True)


def tendon_force_length_curve(
    strain_at_one_norm_force: float = 0.049,
    stiffness_at_one_norm_force: float | None = None,
    norm_force_at_toe_end: float | None = None,
    curviness: float | None = None,
) -> MillardCurve:
    """Tendon force–length curve ``f_T(l̃_T)``, ``l̃_T`` = tendon length / slack length.

    Two corners: from ``(1, 0)`` with zero slope, through a toe point, to the end of the toe
    ``(x_toe, f_toe)`` where the curve becomes the straight line of slope ``k_iso`` through
    ``(1 + e_iso, 1)``; so ``f_T(1 + e_iso) = 1`` exactly (Millard et al. 2013 §2).  The toe
    point lies at half the way from the foot ``1 + (x_toe - 1)/10`` to the point of the linear
    part at height ``f_toe/2``, on the chord between them.  Without the optional parameters
    OpenSim's fit: ``k_iso = 1.375/e_iso``, ``f_toe = 2/3``, curviness 0.5.

    Parameters
    ----------
    strain_at_one_norm_force : float
        ``e_iso > 0`` (0.049: 4.9 % strain at the peak isometric force).
    stiffness_at_one_norm_force, norm_force_at_toe_end, curviness : float or None
        ``k_iso > 1/e_iso``, ``0 < f_toe < 1``, curviness in ``[0, 1]``; all or none.

    Returns
    -------
    MillardCurve
        With :meth:`MillardCurve.integral` (the normalized tendon strain energy).

    Raises
    ------
    ValueError
        If a parameter is outside its range or the optional ones are only partly given.
    """
    e_iso = _number(strain_at_one_norm_force, "strain_at_one_norm_force")
    if not e_iso > 0:
        raise ValueError(f"strain_at_one_norm_force must be > 0, got {e_iso}")
    given = {
        "stiffness_at_one_norm_force": stiffness_at_one_norm_force,
        "norm_force_at_toe_end": norm_force_at_toe_end,
        "curviness": curviness,
    }
    k_iso, f_toe, k = _optional(given, (1.375 / e_iso, 2.0 / 3.0, 0.5))
    if not 0.0 < f_toe < 1.0:
        raise ValueError(f"norm_force_at_toe_end must lie in (0, 1), got {f_toe}")
    if not k_iso > 1.0 / e_iso:
        raise ValueError(
            f"stiffness_at_one_norm_force must be > 1/strain_at_one_norm_force = {1 / e_iso:g}, "
            f"got {k_iso}"
        )
    c = scale_curviness(k)
    x_iso = 1.0 + e_iso
    x_toe = (f_toe - 1.0) / k_iso + x_iso
    x_foot = 1.0 + (x_toe - 1.0) / 10.0
    y_mid = 0.5 * f_toe
    x_mid = (y_mid - 1.0) / k_iso + x_iso
    slope_mid = y_mid / (x_mid - x_foot)
    x_ctrl = x_foot + 0.5 * (x_mid - x_foot)
    y_ctrl = slope_mid * (x_ctrl - x_foot)
    px, py = _chain([(1.0, 0.0, 0.0), (x_ctrl, y_ctrl, slope_mid), (x_toe, f_toe, k_iso)], [c, c])
    params = {
        "strain_at_one_norm_force": e_iso,
        "stiffness_at_one_norm_force": k_iso,
        "norm_force_at_toe_end": f_toe,
        "curviness": k,
    }
    return MillardCurve("tendon_force_length", px, py, (0.0, k_iso), params, 0.0, True)


_BUILDERS = {
    "active_force_length": active_force_length_curve,
    "force_velocity": force_velocity_curve,
    "passive_force_length": fiber_force_length_curve,
    "tendon_force_length": tendon_force_length_curve,
}


def millard2012_curves(**params: Mapping[str, float]) -> Mapping[str, MillardCurve]:
    """The four Millard 2012 curves, OpenSim's defaults unless parameters are given.

    Parameters
    ----------
    **params : mapping of str to float
        Optional, one per curve key, each a mapping of that builder's keyword arguments, e.g.
        ``millard2012_curves(tendon_force_length={"strain_at_one_norm_force": 0.1})``.

    Returns
    -------
    Mapping
        Keys ``"active_force_length"``, ``"force_velocity"``, ``"passive_force_length"``,
        ``"tendon_force_length"`` (read-only).

    Raises
    ------
    ValueError
        For an unknown curve key, a value that is not a mapping, or an invalid parameter.

    Examples
    --------
    >>> curves = millard2012_curves()
    >>> float(curves["active_force_length"](1.0)), float(curves["force_velocity"](0.0))
    (1.0, 1.0)
    """
    unknown = sorted(set(params) - set(_BUILDERS))
    if unknown:
        raise ValueError(f"unknown curve(s) {unknown}; the keys are {sorted(_BUILDERS)}")
    out = {}
    for key, build in _BUILDERS.items():
        kwargs = params.get(key, {})
        if not isinstance(kwargs, Mapping):
            raise ValueError(f"parameters of {key} must be a mapping, got {kwargs!r}")
        try:
            out[key] = build(**kwargs)
        except TypeError as err:
            raise ValueError(f"{key}: {err}") from None
    return MappingProxyType(out)
