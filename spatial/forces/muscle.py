"""Hill-type muscle curves as piecewise cubics, and the scalar muscle tension law (Sueda §1.9.4).

A muscle's tension is ``F = f_opt (a f_L(l̃) f_V(ṽ) + f_P(l̃))`` (Sueda eq. 1.38, after Millard
et al. 2013) with a rigid tendon and zero pennation: ``a ∈ [0, 1]`` is the activation,
``f_L`` the active force–length curve, ``f_V`` the force–velocity curve and ``f_P`` the passive
force–length curve, all dimensionless.  The arguments are normalized:

* length ``l̃ = (l - l_T) / l_opt`` (Sueda eq. 1.47), ``l`` the musculotendon path length, ``l_T``
  the (rigid) tendon length, ``l_opt`` the optimal fibre length;
* velocity ``ṽ = l̇ / (l_opt v_max)`` (Sueda eq. 1.49), ``v_max`` the maximum contraction
  velocity in optimal lengths per second.  **Sign:** ``ṽ > 0`` is lengthening (eccentric, the
  muscle resists with up to 1.4 times its isometric force), ``ṽ < 0`` shortening (concentric,
  the force drops to 0 at ``ṽ = -1``).

Each curve is a :class:`PiecewiseCubic` whose coefficients are *solved* from the value and
slope conditions Sueda lists (eqs. 1.41, 1.43, 1.45), once, at import; the solved coefficients
reproduce the published eqs. 1.42, 1.44 and 1.46.  Any object with ``__call__(x)`` and
``derivative(x)`` (the :class:`MuscleCurve` protocol) can replace a curve in
:class:`MuscleLaw`, e.g. a Gaussian active curve or an exponential passive curve.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from math import isfinite
from typing import Protocol, runtime_checkable

import numpy as np

from .._validate import (
    as_scalar_array,
    finite_scalar,
    integer,
    nonnegative_scalar,
    positive_scalar,
)

__all__ = [
    "MuscleCurve",
    "PiecewiseCubic",
    "ACTIVE_FORCE_LENGTH_CONDITIONS",
    "PASSIVE_FORCE_LENGTH_CONDITIONS",
    "FORCE_VELOCITY_CONDITIONS",
    "active_force_length",
    "passive_force_length",
    "force_velocity",
    "MuscleLaw",
]


@runtime_checkable
class MuscleCurve(Protocol):
    """A dimensionless muscle curve: values and slopes on arrays of normalized length/velocity."""

    def __call__(self, x) -> np.ndarray: ...

    def derivative(self, x) -> np.ndarray: ...


_CURVE_TYPES: set[type] = set()  # classes whose own methods make them MuscleCurves


def _is_curve(obj) -> bool:
    """``isinstance(obj, MuscleCurve)``, remembered per class that defines both methods.

    The check of a runtime protocol inspects the attributes at every call, which a muscle law
    built at every step of a simulation (one per activation) would pay each time.
    """
    kind = type(obj)
    if kind in _CURVE_TYPES:
        return True
    if not isinstance(obj, MuscleCurve):
        return False
    if all(callable(getattr(kind, method, None)) for method in ("__call__", "derivative")):
        _CURVE_TYPES.add(kind)
    return True


def _monomial_row(x: float, order: int) -> np.ndarray:
    """``d^order/dx^order`` of ``(x³, x², x, 1)``: one row of the condition matrix (eq. 1.40)."""
    row = np.array([x**3, x**2, x, 1.0])
    for _ in range(order):
        row = np.array([3.0 * row[1], 2.0 * row[2], row[3], 0.0])
    return row


def _cubic(a, b, c, d, x, order: int):
    """``d^order/dx^order`` of ``a x³ + b x² + c x + d`` by Horner (floats or arrays alike)."""
    if order == 0:
        return ((a * x + b) * x + c) * x + d
    if order == 1:
        return (3.0 * a * x + 2.0 * b) * x + c
    if order == 2:
        return 6.0 * a * x + 2.0 * b
    return 6.0 * a


class PiecewiseCubic:
    """A C¹ (or smoother) chain of cubics ``fᵢ(x) = aᵢx³ + bᵢx² + cᵢx + dᵢ`` (Sueda eq. 1.40).

    Segment ``i`` covers ``[breaks[i], breaks[i+1]]``; the coefficients are in the global
    variable ``x`` (as in the notes, not in a local offset).  Outside ``[breaks[0],
    breaks[-1]]`` the curve continues along the tangent line at the end, so it stays C¹
    everywhere; Sueda's curves have zero end slopes (a constant continuation) except the passive
    curve's upper end, which continues with its slope (a linear stiffening).

    Parameters
    ----------
    breaks : array_like, shape (n + 1,)
        Strictly increasing knots.
    coefficients : array_like, shape (n, 4)
        Row ``i`` is ``(aᵢ, bᵢ, cᵢ, dᵢ)``.

    Raises
    ------
    ValueError
        If the knots are not strictly increasing or the shapes disagree.
    """

    def __init__(self, breaks, coefficients) -> None:
        breaks = as_scalar_array(breaks, "breaks")
        coefficients = as_scalar_array(coefficients, "coefficients")
        if breaks.ndim != 1 or breaks.size < 2 or np.any(np.diff(breaks) <= 0):
            raise ValueError(f"breaks must be a strictly increasing 1-D array, got {breaks}")
        n = breaks.size - 1
        if coefficients.shape != (n, 4):
            raise ValueError(
                f"coefficients must have shape ({n}, 4) for {n} segments, got {coefficients.shape}"
            )
        self.breaks = breaks
        self.coefficients = coefficients

    @classmethod
    def from_conditions(
        cls, breaks, conditions: Sequence[tuple[int, int, float, float]], continuity: int = 1
    ) -> PiecewiseCubic:
        """Solve for the cubics from value/derivative conditions (Sueda eqs. 1.41, 1.43, 1.45).

        The linear system has one row per condition ``f_seg^(order)(x) = value`` plus the
        continuity rows ``f_i^(r)(x_i) - f_(i+1)^(r)(x_i) = 0`` (``r = 0 … continuity``) at
        every interior knot, and one column per coefficient; it must be square and regular.

        Parameters
        ----------
        breaks : array_like, shape (n + 1,)
            Strictly increasing knots.
        conditions : sequence of (segment, order, x, value)
            ``order`` 0 (value), 1 (slope), 2 or 3; ``segment`` in ``0 … n-1``.
        continuity : int
            Derivatives matched at interior knots, 0 … 2 (default 1: C¹).

        Returns
        -------
        PiecewiseCubic

        Raises
        ------
        ValueError
            If a condition is malformed, the number of conditions is not
            ``4n - (n - 1)(continuity + 1)``, or the conditions do not determine the cubics.
        """
        breaks = as_scalar_array(breaks, "breaks")
        if breaks.ndim != 1 or breaks.size < 2 or np.any(np.diff(breaks) <= 0):
            raise ValueError(f"breaks must be a strictly increasing 1-D array, got {breaks}")
        continuity = integer(continuity, "continuity", 0, 2)  # True is not C1
        n = breaks.size - 1
        need = 4 * n - (n - 1) * (continuity + 1)
        if len(conditions) != need:
            raise ValueError(
                f"{n} cubic segments with C{continuity} knots need {need} conditions, "
                f"got {len(conditions)}"
            )
        A = np.zeros((4 * n, 4 * n))
        b = np.zeros(4 * n)
        row = 0
        for seg, order, x, value in conditions:
            seg = integer(seg, "condition segment", 0, n - 1)
            order = integer(order, "condition order", 0, 3)
            A[row, 4 * seg : 4 * seg + 4] = _monomial_row(finite_scalar(x, "condition x"), order)
            b[row] = finite_scalar(value, "condition value")
            row += 1
        for i in range(1, n):
            for order in range(continuity + 1):
                r = _monomial_row(breaks[i], order)
                A[row, 4 * (i - 1) : 4 * i] = r
                A[row, 4 * i : 4 * i + 4] = -r
                row += 1
        if np.linalg.matrix_rank(A) < 4 * n:
            raise ValueError("the conditions do not determine the cubics uniquely")
        return cls(breaks, np.linalg.solve(A, b).reshape(n, 4))

    def _eval(self, x: np.ndarray, order: int) -> np.ndarray:
        """``f^(order)(x)`` inside the knots (Horner on the differentiated coefficients)."""
        # the segment: searching the interior knots gives the index already clipped to 0 … n-1
        coeffs = self.coefficients[np.searchsorted(self.breaks[1:-1], x, side="right")]
        return _cubic(coeffs[..., 0], coeffs[..., 1], coeffs[..., 2], coeffs[..., 3], x, order)

    def derivative(self, x, order: int = 1) -> np.ndarray:
        """Derivative ``f^(order)(x)`` (order 0 … 3) on an array; linear beyond the knots.

        Raises
        ------
        ValueError
            If ``x`` is not finite or ``order`` is not 0, 1, 2 or 3.
        """
        if order not in (0, 1, 2, 3):
            raise ValueError(f"order must be 0, 1, 2 or 3, got {order!r}")
        one = _one_finite_float(x)
        if one is not None:  # one point (a muscle length per simulation step): Python floats
            return np.asarray(self._derivative_scalar(one, order)).reshape(np.shape(x))
        x = as_scalar_array(x, "x")
        lo, hi = self.breaks[0], self.breaks[-1]
        inside = self._eval(np.clip(x, lo, hi), order)
        below, above = x < lo, x > hi
        if order >= 2:
            return np.where(below | above, 0.0, inside)
        # the continuation beyond the knots, evaluated only where it is needed (a scalar
        # inside the knots, the common case in a simulation, takes one Horner evaluation)
        out = inside
        if below.any():
            line = (
                self._eval(lo, 1)
                if order == 1
                else self._eval(lo, 0) + self._eval(lo, 1) * (x - lo)
            )
            out = np.where(below, line, out)
        if above.any():
            line = (
                self._eval(hi, 1)
                if order == 1
                else self._eval(hi, 0) + self._eval(hi, 1) * (x - hi)
            )
            out = np.where(above, line, out)
        return np.asarray(out)

    def __call__(self, x) -> np.ndarray:
        """Value ``f(x)`` on an array (tangent-line continuation beyond the knots)."""
        return self.derivative(x, 0)

    def _eval_scalar(self, x: float, order: int) -> float:
        """:meth:`_eval` of one float: the same segment and operations, without arrays."""
        seg = bisect_right(self.breaks, x, 1, len(self.breaks) - 1) - 1  # = searchsorted's
        return _cubic(*self.coefficients[seg].tolist(), x, order)

    def _derivative_scalar(self, x: float, order: int) -> float:
        """:meth:`derivative` of one finite float, as a float."""
        lo, hi = float(self.breaks[0]), float(self.breaks[-1])
        if lo <= x <= hi:
            return self._eval_scalar(x, order)
        if order >= 2:
            return 0.0
        end = lo if x < lo else hi
        if order == 1:
            return self._eval_scalar(end, 1)
        return self._eval_scalar(end, 0) + self._eval_scalar(end, 1) * (x - end)

    def __repr__(self) -> str:
        return f"PiecewiseCubic(breaks={self.breaks.tolist()}, {len(self.breaks) - 1} segments)"


def _one_finite_float(x) -> float | None:
    """``x`` as a float if it is one finite float (a Python or NumPy float, or a float array of
    one element), else None (then the array path checks and evaluates it)."""
    if isinstance(x, float):
        one = float(x)
    elif isinstance(x, np.ndarray) and x.size == 1 and x.dtype == np.float64:
        one = x.item()
    else:
        return None
    return one if isfinite(one) else None


# Conditions (segment, derivative order, x, value); C¹ continuity at the interior knots is
# added by PiecewiseCubic.from_conditions.  Values from Sueda §1.9.4 (taken there from OpenSim).

#: Passive force–length, Sueda eq. 1.41: zero with zero slope at l̃ = 1, reaches 1 at 1.7.
#: (The notes print 1.8 in the third row of eq. 1.41; the published coefficients eq. 1.42 are
#: the solution with 1.7, the end of the second segment.)
PASSIVE_FORCE_LENGTH_CONDITIONS = (
    (0, 0, 1.0, 0.0),
    (0, 0, 1.3, 0.126110265892917),
    (1, 0, 1.7, 1.0),
    (0, 1, 1.0, 0.0),
    (0, 1, 1.3, 1.07051016402631),
    (1, 1, 1.7, 2.85714285714286),
)

#: Active force–length, Sueda eq. 1.43: zero with zero slope at 0.4 and 1.81, peak 1 at 1.0.
ACTIVE_FORCE_LENGTH_CONDITIONS = (
    (0, 0, 0.4, 0.0),
    (0, 1, 0.4, 0.0),
    (1, 0, 1.0, 1.0),
    (1, 1, 1.0, 0.0),
    (2, 0, 1.81, 0.0),
    (2, 1, 1.81, 0.0),
    (0, 0, 0.7, 0.767020368396388),
    (1, 0, 1.2, 0.89),
)

#: Force–velocity, Sueda eq. 1.45: 0 at ṽ = -1 and 1.4 at ṽ = 1, both with zero slope and
#: curvature (C² to the constant continuation); 1 with slope 5 at ṽ = 0.
FORCE_VELOCITY_CONDITIONS = (
    (0, 0, -1.0, 0.0),
    (0, 1, -1.0, 0.0),
    (0, 2, -1.0, 0.0),
    (2, 0, 1.0, 1.4),
    (2, 1, 1.0, 0.0),
    (2, 2, 1.0, 0.0),
    (1, 0, 0.0, 1.0),
    (1, 1, 0.0, 5.0),
)

#: Passive force–length curve ``f_P(l̃)`` (Sueda Fig. 1a, eqs. 1.41–1.42).
passive_force_length = PiecewiseCubic.from_conditions(
    [1.0, 1.3, 1.7], PASSIVE_FORCE_LENGTH_CONDITIONS
)
#: Active force–length curve ``f_L(l̃)`` (Sueda Fig. 1b, eqs. 1.43–1.44).
active_force_length = PiecewiseCubic.from_conditions(
    [0.4, 0.7, 1.2, 1.81], ACTIVE_FORCE_LENGTH_CONDITIONS
)
#: Force–velocity curve ``f_V(ṽ)`` (Sueda Fig. 1c, eqs. 1.45–1.46).
force_velocity = PiecewiseCubic.from_conditions([-1.0, -0.05, 0.05, 1.0], FORCE_VELOCITY_CONDITIONS)


@dataclass(frozen=True)
class MuscleLaw:
    """Tension ``F(l, l̇) = f_opt (a f_L(l̃) f_V(ṽ) + f_P(l̃))`` of a muscle (Sueda eq. 1.38).

    A tension law for :class:`spatial.forces.MultiPointSpring` (two points: Sueda §1.9.4; more:
    the multi-point muscle of §1.9.5).  Rigid tendon, zero pennation; ``l̃ = (l - l_T)/l_opt``
    and ``ṽ = l̇/(l_opt v_max)``, lengthening positive (see the module docstring).

    Parameters
    ----------
    f_opt : float
        Peak isometric force, >= 0 (N).
    l_opt : float
        Optimal fibre length, > 0 (m).
    v_max : float
        Maximum contraction velocity, > 0, in optimal lengths per second (typically 10).
    activation : float
        ``a ∈ [0, 1]``.
    tendon_length : float
        Rigid tendon length ``l_T >= 0`` subtracted from the path length (default 0).
    active, passive, velocity : MuscleCurve
        ``f_L``, ``f_P``, ``f_V``; default Sueda's piecewise cubics.

    Raises
    ------
    ValueError
        If ``activation`` is outside ``[0, 1]``, ``f_opt`` or ``tendon_length`` is negative,
        ``l_opt`` or ``v_max`` is not positive, or a curve lacks ``__call__``/``derivative``.
    """

    f_opt: float
    l_opt: float
    v_max: float
    activation: float = 1.0
    tendon_length: float = 0.0
    active: MuscleCurve = active_force_length
    passive: MuscleCurve = passive_force_length
    velocity: MuscleCurve = force_velocity

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "f_opt", nonnegative_scalar(self.f_opt, "f_opt"))
        set_(self, "l_opt", positive_scalar(self.l_opt, "l_opt"))
        set_(self, "v_max", positive_scalar(self.v_max, "v_max"))
        set_(self, "tendon_length", nonnegative_scalar(self.tendon_length, "tendon_length"))
        a = nonnegative_scalar(self.activation, "activation")
        if a > 1.0:
            raise ValueError(f"activation must lie in [0, 1], got {a}")
        set_(self, "activation", a)
        for name in ("active", "passive", "velocity"):
            if not _is_curve(getattr(self, name)):
                raise ValueError(f"{name} must be a curve with __call__(x) and derivative(x)")

    def normalized(self, l, ldot) -> tuple[np.ndarray, np.ndarray]:
        """Normalized length and velocity ``(l̃, ṽ)`` (Sueda eqs. 1.47, 1.49).

        Parameters
        ----------
        l, ldot : array_like, shape (...)
            Path length (m) and its rate (m/s, lengthening positive).

        Raises
        ------
        ValueError
            If a path length does not exceed the tendon length (the fibre would have no
            length, or a negative one; as :class:`MusculotendonLaw`), or an entry is complex or
            not finite.
        """
        l = as_scalar_array(l, "l")
        ldot = as_scalar_array(ldot, "ldot")
        if np.any(l <= self.tendon_length):
            raise ValueError(
                f"path length must exceed the tendon length {self.tendon_length}, got {np.min(l)}"
            )
        return (l - self.tendon_length) / self.l_opt, ldot / (self.l_opt * self.v_max)

    def __call__(self, l, ldot) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Tension and its partial derivatives ``(F, ∂F/∂l, ∂F/∂l̇)``.

        ``∂F/∂l = f_opt (a f_L' f_V + f_P') / l_opt`` and
        ``∂F/∂l̇ = f_opt a f_L f_V' / (l_opt v_max)`` (the scalar factors in Sueda eqs. 1.53,
        1.56, 1.63–1.64; eq. 1.56 prints ``f_L'`` where the chain rule gives ``f_L``).

        Parameters
        ----------
        l, ldot : array_like, shape (...)
            Path length and its rate.

        Returns
        -------
        F, dF_dl, dF_dldot : ndarray, shape (...)

        Raises
        ------
        ValueError
            As :meth:`normalized`: a path length that does not exceed the tendon length.
        """
        lt, vt = self.normalized(l, ldot)
        a, fopt = self.activation, self.f_opt
        fL, dfL = self.active(lt), self.active.derivative(lt)
        fV, dfV = self.velocity(vt), self.velocity.derivative(vt)
        fP, dfP = self.passive(lt), self.passive.derivative(lt)
        F = fopt * (a * fL * fV + fP)
        dF_dl = fopt * (a * dfL * fV + dfP) / self.l_opt
        dF_dldot = fopt * a * fL * dfV / (self.l_opt * self.v_max)
        return F, dF_dl, dF_dldot
