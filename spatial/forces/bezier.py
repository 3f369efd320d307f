"""Segmented quintic Bézier curves y(x): the building block of the Millard 2012 muscle curves.

Millard, Uchida, Seth and Delp (2013, §2 and appendix) draw every muscle characteristic as a
chain of *quintic Bézier* segments.  One segment is a parametric curve

    x(u) = Σₖ Bₖ(u) pxₖ,   y(u) = Σₖ Bₖ(u) pyₖ,   u ∈ [0, 1],

with the six Bernstein polynomials ``Bₖ(u) = C(5, k) uᵏ (1 - u)⁵⁻ᵏ``.  A *corner* segment joins
two points with prescribed slopes: the two tangent lines meet at a corner point ``C``; the
inner control points sit a fraction ``c`` (the curviness) of the way from each end towards
``C``, doubled (``p₁ = p₂``, ``p₃ = p₄``).  With doubled inner points the curvature
``d²y/dx²`` vanishes at both ends, so consecutive corners that share an end point and its
slope join with matching value, slope **and** curvature: the chain is C².  This is what
OpenSim's ``SegmentedQuinticBezierToolkit::calcQuinticBezierCornerControlPoints`` does.

To evaluate ``y`` at a given ``x`` the parameter is found first: ``x(u) = x`` is a monotone
quintic in ``u`` (the x control points do not decrease), solved here by Newton's method kept
inside a bisection bracket.  Then, with subscripts for ``d/du``,

    dy/dx = y_u / x_u,      d²y/dx² = (y_uu x_u - y_u x_uu) / x_u³.

The integral ``∫ y dx = ∫ y(u) x_u(u) du`` is a polynomial of degree 9 in ``u`` on every
segment, so it is computed *exactly* (OpenSim integrates it numerically and fits a spline).
Beyond the first and last end points the curve continues along a straight line with the
given end values and slopes (second derivative zero), as OpenSim's ``SmoothSegmentedFunction``
does.
"""

from __future__ import annotations

from bisect import bisect_right
from math import comb, prod

import numpy as np
from numpy.polynomial import polynomial as P

from .._validate import real_array

__all__ = ["corner_control_points", "QuinticBezierSpline"]

#: ``_BERNSTEIN[i, k]`` = coefficient of ``uⁱ`` in ``Bₖ(u)``: power coefficients = M @ points.
_BERNSTEIN = np.zeros((6, 6))
for _k in range(6):
    _b = P.polymul(P.polypow([0.0, 1.0], _k), P.polypow([1.0, -1.0], 5 - _k)) * comb(5, _k)
    _BERNSTEIN[: len(_b), _k] = _b


def corner_control_points(
    x0: float, y0: float, dydx0: float, x1: float, y1: float, dydx1: float, curviness: float
) -> tuple[np.ndarray, np.ndarray]:
    """Control points of a quintic Bézier corner from ``(x0, y0)`` to ``(x1, y1)``.

    The curve leaves the first point with slope ``dydx0`` and arrives at the second with slope
    ``dydx1``.  The tangent lines meet at the corner ``C`` (the midpoint abscissa if the slopes
    are equal); the inner control points are ``p₁ = p₂ = p₀ + c (C - p₀)`` and
    ``p₃ = p₄ = p₅ + c (C - p₅)`` (Millard et al. 2013, appendix; OpenSim's
    ``calcQuinticBezierCornerControlPoints``).

    Parameters
    ----------
    x0, y0, dydx0, x1, y1, dydx1 : float
        End points and end slopes.
    curviness : float
        ``c ∈ [0, 1]``: 0 puts the inner points on the ends (a straight chord), 1 on the
        corner (the sharpest bend).  The Millard curves pass ``0.1 + 0.8 × user curviness``.

    Returns
    -------
    px, py : ndarray, shape (6,)

    Raises
    ------
    ValueError
        If ``curviness`` is outside ``[0, 1]`` or the corner is not between the two points
        (the tangent lines then cannot make a C-shaped bend: the slopes and points disagree).
    """
    if not (0.0 <= curviness <= 1.0):
        raise ValueError(f"curviness must lie in [0, 1], got {curviness!r}")
    if abs(dydx0 - dydx1) > np.sqrt(np.finfo(float).eps):
        xc = (y1 - y0 - x1 * dydx1 + x0 * dydx0) / (dydx0 - dydx1)
    else:
        xc = 0.5 * (x0 + x1)
    yc = (xc - x1) * dydx1 + y1
    chord = (x1 - x0) ** 2 + (y1 - y0) ** 2
    if not (chord > (xc - x0) ** 2 + (yc - y0) ** 2 and chord > (xc - x1) ** 2 + (yc - y1) ** 2):
        raise ValueError(
            f"no C-shaped corner from ({x0}, {y0}) with slope {dydx0} to ({x1}, {y1}) with "
            f"slope {dydx1}: the tangent lines meet at ({xc}, {yc}), not between the points"
        )
    xm0, ym0 = x0 + curviness * (xc - x0), y0 + curviness * (yc - y0)
    xm1, ym1 = x1 + curviness * (xc - x1), y1 + curviness * (yc - y1)
    return np.array([x0, xm0, xm0, xm1, xm1, x1]), np.array([y0, ym0, ym0, ym1, ym1, y1])


def _horner(coeffs: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Evaluate per-element power series ``coeffs[..., i] uⁱ`` (ascending powers)."""
    out = coeffs[..., -1]
    for i in range(coeffs.shape[-1] - 2, -1, -1):
        out = out * u + coeffs[..., i]
    return out


def _horner_scalar(coeffs: tuple[float, ...], u: float) -> float:
    """:func:`_horner` on one float: the same operations in the same order, without NumPy."""
    out = coeffs[-1]
    for i in range(len(coeffs) - 2, -1, -1):
        out = out * u + coeffs[i]
    return out


def _derivative_coefficients(c: np.ndarray) -> np.ndarray:
    """Power coefficients of ``d/du`` along the last axis."""
    return c[..., 1:] * np.arange(1, c.shape[-1])


_EPS = float(np.finfo(float).eps)


class _ScalarTables:
    """A spline's coefficient and guess tables as Python floats (tuples and lists)."""

    def __init__(self, spline: QuinticBezierSpline) -> None:
        def rows(a):
            return tuple(tuple(float(v) for v in row) for row in a)

        self.last = len(spline.px) - 1
        self.starts = [float(v) for v in spline.px[:, 0]]
        self.xtab = [float(v) for v in spline._xtab]
        self.stab = [float(v) for v in spline._stab]
        self.cx, self.cx1, self.cx2 = rows(spline._cx), rows(spline._cx1), rows(spline._cx2)
        self.cy, self.cy1, self.cy2 = rows(spline._cy), rows(spline._cy1), rows(spline._cy2)
        self.area = rows(spline._area)
        self.area_before = [float(v) for v in spline._area_before]


class QuinticBezierSpline:
    """A C² chain of quintic Bézier segments ``y(x)`` with straight-line continuation.

    Parameters
    ----------
    px, py : array_like, shape (n, 6)
        Control points of the ``n`` segments; segment ``i`` must end where ``i + 1`` starts and
        the x control points must not decrease.
    slopes : tuple of float
        ``(dydx0, dydx1)``: the slopes of the straight continuations left of the first and
        right of the last point.

    Raises
    ------
    ValueError
        If the shapes are wrong, the segments do not join, or x decreases along a segment.
    """

    def __init__(self, px, py, slopes) -> None:
        px = np.atleast_2d(real_array(px, "px"))
        py = np.atleast_2d(real_array(py, "py"))
        if px.shape != py.shape or px.shape[-1] != 6 or px.ndim != 2:
            raise ValueError(f"px and py must both have shape (n, 6), got {px.shape}, {py.shape}")
        if np.any(np.diff(px, axis=1) < 0):
            raise ValueError("the x control points of every segment must not decrease")
        if np.any(px[1:, 0] != px[:-1, -1]) or np.any(py[1:, 0] != py[:-1, -1]):
            raise ValueError("consecutive segments must share their end points")
        self.px, self.py = px, py
        self.x0, self.x1 = float(px[0, 0]), float(px[-1, -1])
        self.y0, self.y1 = float(py[0, 0]), float(py[-1, -1])
        self.dydx0, self.dydx1 = (float(s) for s in slopes)
        self._cx = px @ _BERNSTEIN.T  # (n, 6) power coefficients of x(u)
        self._cy = py @ _BERNSTEIN.T
        self._cx1 = _derivative_coefficients(self._cx)
        self._cx2 = _derivative_coefficients(self._cx1)
        self._cy1 = _derivative_coefficients(self._cy)
        self._cy2 = _derivative_coefficients(self._cy1)
        # ∫ y dx on a segment = ∫₀ᵘ y(s) x'(s) ds: exact antiderivative of a degree-9 polynomial.
        self._area = np.array(
            [P.polyint(P.polymul(cy, cx1)) for cy, cx1 in zip(self._cy, self._cx1, strict=True)]
        )
        self._area_before = np.concatenate([[0.0], np.cumsum(_horner(self._area, 1.0))])
        # first guesses for the parameter solve: x(u) tabulated against "segment + u"
        utab = np.linspace(0.0, 1.0, 65)
        self._xtab = _horner(self._cx[:, None, :], utab).reshape(-1)
        self._stab = (np.arange(len(px))[:, None] + utab).reshape(-1)
        # The same tables as Python floats for one point at a time (_derivatives_scalar): a
        # simulation asks for one muscle length per step, where NumPy's per-call overhead on
        # one-element arrays costs ten times the arithmetic.
        self._scalar = _ScalarTables(self)

    @property
    def knots(self) -> np.ndarray:
        """The segment end points in x, shape ``(n + 1,)``."""
        return np.concatenate([self.px[:, 0], [self.x1]])

    def _locate(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Segment index and Bézier parameter ``u`` of points ``x`` inside ``[x0, x1]``.

        A table of ``x(u)`` gives the first guess; then Newton's method on ``x(u) - x``, with a
        bisection step whenever Newton would leave the current bracket; converges to a few ulps.
        """
        seg = np.clip(np.searchsorted(self.px[:, 0], x, side="right") - 1, 0, len(self.px) - 1)
        u = np.clip(np.interp(x, self._xtab, self._stab) - seg, 0.0, 1.0)
        cx, cx1 = self._cx[seg], self._cx1[seg]
        lo, hi = np.zeros_like(x), np.ones_like(x)
        tol = 4.0 * np.finfo(float).eps * np.maximum(1.0, np.abs(x))
        for _ in range(60):
            f = _horner(cx, u) - x
            if np.all(np.abs(f) <= tol):
                break
            lo = np.where(f < 0, u, lo)
            hi = np.where(f > 0, u, hi)
            df = _horner(cx1, u)
            with np.errstate(divide="ignore", invalid="ignore"):
                newton = u - f / df
            ok = (df > 0) & (newton >= lo) & (newton <= hi)
            step = np.where(ok, newton, 0.5 * (lo + hi))
            moved = np.max(np.abs(step - u))
            u = np.where(np.abs(f) <= tol, u, step)
            if moved <= 1e-16:
                break
        return seg, u

    def _locate_scalar(self, x: float) -> tuple[int, float]:
        """:meth:`_locate` for one float ``x`` inside ``[x0, x1]``: the same steps in Python
        floats (the same table guess and Newton/bisection iterates, so the same ``u``)."""
        t = self._scalar
        seg = min(max(bisect_right(t.starts, x) - 1, 0), t.last)
        # np.interp(x, xtab, stab): the bracket xtab[j] <= x < xtab[j + 1], the end value at the
        # last point, the same slope formula
        j = bisect_right(t.xtab, x) - 1
        if j >= len(t.xtab) - 1:
            guess = t.stab[-1]
        elif j < 0:
            guess = t.stab[0]
        else:
            slope = (t.stab[j + 1] - t.stab[j]) / (t.xtab[j + 1] - t.xtab[j])
            guess = slope * (x - t.xtab[j]) + t.stab[j]
        u = min(max(guess - seg, 0.0), 1.0)
        cx, cx1 = t.cx[seg], t.cx1[seg]
        lo, hi = 0.0, 1.0
        tol = 4.0 * _EPS * max(1.0, abs(x))
        for _ in range(60):
            f = _horner_scalar(cx, u) - x
            if abs(f) <= tol:
                break
            if f < 0:
                lo = u
            elif f > 0:
                hi = u
            df = _horner_scalar(cx1, u)
            step = 0.5 * (lo + hi)
            if df > 0:
                newton = u - f / df
                if lo <= newton <= hi:
                    step = newton
            moved = abs(step - u)
            u = step
            if moved <= 1e-16:
                break
        return seg, u

    def _derivatives_scalar(self, x: float, orders) -> list[np.ndarray]:
        """:meth:`_derivatives` of one finite float, as 0-d arrays."""
        if x < self.x0 or x > self.x1:
            left = x < self.x0
            outside = {
                0: self.y0 + self.dydx0 * (x - self.x0)
                if left
                else self.y1 + self.dydx1 * (x - self.x1),
                1: self.dydx0 if left else self.dydx1,
                2: 0.0,
            }
            return [np.array(outside[n]) for n in orders]
        t = self._scalar
        seg, u = self._locate_scalar(x)
        xu, yu = _horner_scalar(t.cx1[seg], u), _horner_scalar(t.cy1[seg], u)
        outs = []
        for n in orders:
            if n == 0:
                outs.append(np.array(_horner_scalar(t.cy[seg], u)))
            elif n == 1:
                outs.append(np.array(yu / xu))
            else:
                xuu, yuu = _horner_scalar(t.cx2[seg], u), _horner_scalar(t.cy2[seg], u)
                outs.append(np.array((yuu * xu - yu * xuu) / xu**3))
        return outs

    def _split(self, x) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Flattened ``x``, an output buffer, and the masks left of, right of and inside the
        Bézier chain."""
        x = np.asarray(x, dtype=float).reshape(-1)
        left, right = x < self.x0, x > self.x1
        return x, np.empty_like(x), left, right, ~(left | right)

    def _derivatives(self, x: np.ndarray, orders=(0, 1)) -> list[np.ndarray]:
        """``dⁿy/dxⁿ`` for each ``n`` in ``orders`` (0, 1, 2) with one parameter solve, on a
        finite float array, without checks."""
        shape = np.shape(x)
        if prod(shape) == 1:  # one point (a muscle's length in a simulation step)
            one = x if isinstance(x, float) else x.item()
            return [out.reshape(shape) for out in self._derivatives_scalar(one, orders)]
        x, _, left, right, inside = self._split(x)
        outside = {
            0: lambda: np.where(
                left, self.y0 + self.dydx0 * (x - self.x0), self.y1 + self.dydx1 * (x - self.x1)
            ),
            1: lambda: np.where(left, self.dydx0, self.dydx1),
            2: lambda: np.zeros_like(x),
        }
        outs = [outside[n]() for n in orders]
        if np.any(inside):
            seg, u = self._locate(x[inside])
            xu, yu = _horner(self._cx1[seg], u), _horner(self._cy1[seg], u)
            for out, n in zip(outs, orders, strict=True):
                if n == 0:
                    out[inside] = _horner(self._cy[seg], u)
                elif n == 1:
                    out[inside] = yu / xu
                else:
                    xuu, yuu = _horner(self._cx2[seg], u), _horner(self._cy2[seg], u)
                    out[inside] = (yuu * xu - yu * xuu) / xu**3
        return [out.reshape(shape) for out in outs]

    def _derivative(self, x: np.ndarray, order: int) -> np.ndarray:
        """``dⁿy/dxⁿ`` (``n`` = 0, 1, 2) on a finite float array, without checks."""
        return self._derivatives(x, (order,))[0]

    def _integral(self, x: np.ndarray) -> np.ndarray:
        """``∫_{x0}^{x} y dx`` on a finite float array, without checks (exact per segment)."""
        shape = np.shape(x)
        if prod(shape) == 1:
            one = x if isinstance(x, float) else x.item()
            return np.array(self._integral_scalar(one)).reshape(shape)
        x, out, left, right, inside = self._split(x)
        d = x[left] - self.x0
        out[left] = self.y0 * d + 0.5 * self.dydx0 * d**2
        d = x[right] - self.x1
        out[right] = self._area_before[-1] + self.y1 * d + 0.5 * self.dydx1 * d**2
        if np.any(inside):
            seg, u = self._locate(x[inside])
            out[inside] = self._area_before[seg] + _horner(self._area[seg], u)
        return out.reshape(shape)

    def _integral_scalar(self, x: float) -> float:
        """:meth:`_integral` of one finite float."""
        if x < self.x0:
            d = x - self.x0
            return self.y0 * d + 0.5 * self.dydx0 * d**2
        t = self._scalar
        if x > self.x1:
            d = x - self.x1
            return t.area_before[-1] + self.y1 * d + 0.5 * self.dydx1 * d**2
        seg, u = self._locate_scalar(x)
        return t.area_before[seg] + _horner_scalar(t.area[seg], u)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({len(self.px)} segments on [{self.x0}, {self.x1}])"
