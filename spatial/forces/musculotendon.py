"""A muscle–tendon unit: pennated fibers in series with a tendon, and activation dynamics.

Sueda §1.9.4 keeps the tendon rigid and the fibers parallel to the path (``l̃ = (l - l_T)/l_opt``,
:class:`spatial.forces.MuscleLaw`).  Biomechanics models (Millard et al. 2013 §2; OpenSim's
``Millard2012EquilibriumMuscle``) add two things, built here step by step:

1. **Pennation at constant thickness.**  The fibers run at an angle ``α`` to the tendon; the
   muscle keeps its thickness ``h = l_opt sin α_opt`` (``α_opt`` the pennation at the optimal
   fiber length), so a fiber of length ``l_M`` has ``sin α = h/l_M`` and projects
   ``x = l_M cos α = √(l_M² - h²)`` onto the tendon.  Only ``F_M cos α`` of the fiber force
   pulls along the tendon (OpenSim ``MuscleFixedWidthPennationModel``).

2. **The tendon in series.**  The path length splits as ``l = x + l_T``.  A *rigid* tendon has
   ``l_T = l_s`` (the slack length), so ``x = l - l_s`` and ``l_M = √((l - l_s)² + h²)`` in
   closed form, ``l̇_M = l̇ cos α``.  An *elastic* tendon pulls with ``f_opt f_T(l_T/l_s)``
   (the tendon curve of :mod:`spatial.forces.millard`), and the split is where the two forces
   balance: ``F_M(l_M) cos α = f_opt f_T((l - x)/l_s)``.  Here that equilibrium is solved with
   the fiber at rest (``f_V = 1``); the unit is then two springs in series, and its stiffness
   is ``k_M k_T/(k_M + k_T)``.  (OpenSim's elastic-tendon muscle makes the fiber length a state
   and solves the equilibrium for the fiber velocity; that needs a state the package's
   stateless force interface does not carry.)

:class:`MusculotendonLaw` turns either case into a tension law ``law(l, l̇) -> (F, ∂F/∂l,
∂F/∂l̇)`` for :class:`spatial.forces.MultiPointSpring` (two points or a via-point path), with
either the Millard curves or Sueda's cubics.

3. **Activation dynamics.**  The activation ``a`` follows the neural excitation ``u`` with a
   first-order lag, faster when rising than when falling (Millard et al. 2013 §2, after Thelen
   2003; OpenSim ``MuscleFirstOrderActivationDynamicModel``):
   ``ȧ = (u - a)/τ``, ``τ = τ_act (0.5 + 1.5 a)`` if ``u > a``, else ``τ_deact/(0.5 + 1.5 a)``.
   :func:`activation_rate` gives ``ȧ``; :func:`integrate_activation` steps it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType

import numpy as np

from .._validate import as_scalar_array, nonnegative_scalar, positive_scalar
from .millard import millard2012_curves
from .muscle import MuscleCurve, active_force_length, force_velocity, passive_force_length

__all__ = [
    "sueda_curves",
    "MusculotendonLaw",
    "activation_rate",
    "integrate_activation",
]

_FIBER_KEYS = ("active_force_length", "force_velocity", "passive_force_length")


@lru_cache(maxsize=1)
def _default_curves() -> Mapping[str, MuscleCurve]:
    """OpenSim's default Millard curves, built once (they are immutable)."""
    return millard2012_curves()


def sueda_curves() -> Mapping[str, MuscleCurve]:
    """Sueda's piecewise cubics under the keys of :func:`spatial.forces.millard2012_curves`.

    No tendon curve (Sueda's tendon is rigid).
    """
    return MappingProxyType(
        {
            "active_force_length": active_force_length,
            "force_velocity": force_velocity,
            "passive_force_length": passive_force_length,
        }
    )


def _value_and_slope(curve: MuscleCurve, x) -> tuple[np.ndarray, np.ndarray]:
    """``(f, f')`` of any curve; one parameter solve for a Millard curve."""
    both = getattr(curve, "value_and_derivative", None)
    return both(x) if both is not None else (curve(x), curve.derivative(x))


def _unit_interval(x, name: str) -> np.ndarray:
    a = as_scalar_array(x, name)
    if np.any((a < 0) | (a > 1)):
        raise ValueError(f"{name} must lie in [0, 1], got {x!r}")
    return a


@dataclass(frozen=True)
class MusculotendonLaw:
    """Tension of a pennated Hill muscle in series with a rigid or elastic tendon.

    A :class:`spatial.forces.springs.TensionLaw`: ``law(l, l̇) -> (F, ∂F/∂l, ∂F/∂l̇)`` with
    ``F`` the force along the tendon (see the module docstring for the model).

    Parameters
    ----------
    f_opt : float
        Peak isometric fiber force, >= 0 (N).
    l_opt : float
        Optimal fiber length, > 0 (m).
    v_max : float
        Maximum contraction velocity, > 0, in optimal lengths per second.
    tendon_slack_length : float
        ``l_s >= 0`` (m); must be > 0 for an elastic tendon.
    pennation_angle : float
        ``α_opt ∈ [0, π/2)`` at the optimal fiber length (rad), default 0.
    activation : float
        ``a ∈ [0, 1]``.
    tendon : {"rigid", "elastic"}
        Default ``"rigid"``.
    curves : mapping
        Keys ``"active_force_length"``, ``"force_velocity"``, ``"passive_force_length"`` (and
        ``"tendon_force_length"`` for an elastic tendon), each a
        :class:`spatial.forces.MuscleCurve`; default :func:`spatial.forces.millard2012_curves`.

    Raises
    ------
    ValueError
        For a parameter outside its range, an unknown tendon kind, or a missing curve.
    """

    f_opt: float
    l_opt: float
    v_max: float
    tendon_slack_length: float
    pennation_angle: float = 0.0
    activation: float = 1.0
    tendon: str = "rigid"
    curves: Mapping = field(default_factory=_default_curves)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "f_opt", nonnegative_scalar(self.f_opt, "f_opt"))
        set_(self, "l_opt", positive_scalar(self.l_opt, "l_opt"))
        set_(self, "v_max", positive_scalar(self.v_max, "v_max"))
        ls = nonnegative_scalar(self.tendon_slack_length, "tendon_slack_length")
        set_(self, "tendon_slack_length", ls)
        alpha = nonnegative_scalar(self.pennation_angle, "pennation_angle")
        if alpha >= np.pi / 2:
            raise ValueError(f"pennation_angle must lie in [0, pi/2), got {alpha}")
        set_(self, "pennation_angle", alpha)
        set_(self, "activation", float(_unit_interval(self.activation, "activation")))
        if self.tendon not in ("rigid", "elastic"):
            raise ValueError(f"tendon must be 'rigid' or 'elastic', got {self.tendon!r}")
        keys = _FIBER_KEYS + (("tendon_force_length",) if self.tendon == "elastic" else ())
        if not isinstance(self.curves, Mapping):
            raise ValueError("curves must be a mapping of curve names to curves")
        for key in keys:
            if not isinstance(self.curves.get(key), MuscleCurve):
                raise ValueError(f"curves[{key!r}] must be a curve with __call__ and derivative")
        if self.tendon == "elastic" and ls == 0:
            raise ValueError("an elastic tendon needs tendon_slack_length > 0")

    @property
    def thickness(self) -> float:
        """``h = l_opt sin α_opt``, the constant height of the pennated fibers (m)."""
        return self.l_opt * np.sin(self.pennation_angle)

    # ------------------------------------------------------------------ the fiber

    def _fiber(self, x: np.ndarray):
        """Fiber length, ``cos α``, and normalized isometric fiber force and its slope in
        ``l_M``, for the fiber projection ``x > 0`` along the tendon."""
        h = self.thickness
        lm = np.sqrt(x * x + h * h)
        lt = lm / self.l_opt
        fL, dfL = _value_and_slope(self.curves["active_force_length"], lt)
        fP, dfP = _value_and_slope(self.curves["passive_force_length"], lt)
        a = self.activation
        return lm, x / lm, a * fL + fP, (a * dfL + dfP) / self.l_opt

    def fiber_length(self, l) -> np.ndarray:
        """Fiber length ``l_M`` for path lengths ``l`` (rigid: closed form; elastic: the
        equilibrium of :meth:`equilibrium`).

        Raises
        ------
        ValueError
            If a path length does not exceed the tendon slack length, or (elastic) no
            equilibrium exists.
        """
        l = self._path_length(l)
        if self.tendon == "rigid":
            return np.sqrt((l - self.tendon_slack_length) ** 2 + self.thickness**2)
        return self._equilibrium(l)[0]

    def _path_length(self, l) -> np.ndarray:
        l = as_scalar_array(l, "l")
        if np.any(l <= self.tendon_slack_length):
            raise ValueError(
                f"path length must exceed the tendon slack length {self.tendon_slack_length}, "
                f"got {np.min(l)}"
            )
        return l

    # ------------------------------------------------------------------ elastic equilibrium

    def _residual(self, x: np.ndarray, l: np.ndarray):
        """``R = f_M cos α - f_T`` (normalized by ``f_opt``), ``∂R/∂x``, ``f_T`` and ``k_T``."""
        lm, cos, fm, dfm = self._fiber(x)
        ls = self.tendon_slack_length
        tendon = self.curves["tendon_force_length"]
        ft, kt = _value_and_slope(tendon, (l - x) / ls)
        kt = kt / ls
        h = self.thickness
        dR = dfm * cos * cos + fm * h * h / lm**3 + kt
        return fm * cos - ft, dR, ft, kt

    def _equilibrium(self, l: np.ndarray):
        """Fiber length, projection ``x`` and tendon force/stiffness at equilibrium.

        Bracketed Newton on ``R(x) = 0`` for ``x ∈ (0, l - l_s]``: at ``x = l - l_s`` the
        tendon is slack (``R >= 0``); as ``x → 0`` the tendon is stretched to ``l``.
        """
        shape = l.shape
        l = l.reshape(-1)
        hi = l - self.tendon_slack_length
        lo = np.full_like(l, 1e-9) * hi
        r_lo = self._residual(lo, l)[0]
        if np.any(r_lo > 0):
            raise ValueError(
                "no fiber–tendon equilibrium: the fiber pulls harder than the tendon even at "
                f"zero fiber length (path lengths {l[r_lo > 0]})"
            )
        x = 0.5 * (lo + hi)
        for _ in range(200):
            r, dr, _, _ = self._residual(x, l)
            lo = np.where(r < 0, x, lo)
            hi = np.where(r > 0, x, hi)
            done = np.abs(r) <= 1e-14
            if np.all(done):
                break
            with np.errstate(divide="ignore", invalid="ignore"):
                newton = x - r / dr
            ok = (dr > 0) & (newton > lo) & (newton < hi)
            step = np.where(ok, newton, 0.5 * (lo + hi))
            if np.all(done | (np.abs(step - x) <= 4e-16 * hi)):
                x = np.where(done, x, step)
                break
            x = np.where(done, x, step)
        r, dr, ft, kt = self._residual(x, l)
        lm = np.sqrt(x * x + self.thickness**2)
        return (
            lm.reshape(shape),
            x.reshape(shape),
            ft.reshape(shape),
            kt.reshape(shape),
            dr.reshape(shape),
            r.reshape(shape),
        )

    def equilibrium(self, l) -> dict:
        """The fiber–tendon split at path lengths ``l`` (fiber at rest).

        Returns
        -------
        dict
            ``fiber_length``, ``pennation`` (α, rad), ``tendon_length``, ``fiber_force`` along
            the tendon and ``tendon_force`` (N); equal for an elastic tendon up to the solver's
            tolerance (~1e-14 of ``f_opt``).  For a rigid tendon ``tendon_force`` is the fiber
            force along the tendon (the tendon carries whatever the fiber pulls).
        """
        l = self._path_length(l)
        if self.tendon == "rigid":
            x = l - self.tendon_slack_length
            lm, cos, fm, _ = self._fiber(x)
            f_fiber = self.f_opt * fm * cos
            f_tendon = f_fiber
        else:
            lm, x, ft, _, _, _ = self._equilibrium(l)
            _, cos, fm, _ = self._fiber(x)
            f_fiber, f_tendon = self.f_opt * fm * cos, self.f_opt * ft
        return {
            "fiber_length": lm,
            "pennation": np.arccos(np.clip(cos, -1.0, 1.0)),
            "tendon_length": l - x,
            "fiber_force": f_fiber,
            "tendon_force": f_tendon,
        }

    # ------------------------------------------------------------------ the tension law

    def __call__(self, l, ldot) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Tension along the path and its partials ``(F, ∂F/∂l, ∂F/∂l̇)``.

        Rigid tendon: ``F = f_opt (a f_L f_V + f_P) cos α`` with ``l̃ = l_M/l_opt``,
        ``ṽ = l̇ cos α/(l_opt v_max)``; ``∂l_M/∂l = cos α``, ``∂cos α/∂l = sin²α/l_M``.
        Elastic tendon: ``F = f_opt f_T`` at the equilibrium, ``∂F/∂l = f_opt k_M k_T/(k_M +
        k_T)`` (springs in series, by the implicit function theorem on ``R(x, l) = 0``) and
        ``∂F/∂l̇ = 0`` (the fiber is at rest in the equilibrium).

        Parameters
        ----------
        l, ldot : array_like, shape (...)
            Path length (m) and its rate (m/s, lengthening positive).

        Returns
        -------
        F, dF_dl, dF_dldot : ndarray, shape (...)
        """
        l = self._path_length(l)
        ldot = as_scalar_array(ldot, "ldot")
        l, ldot = np.broadcast_arrays(l, ldot)
        if self.tendon == "elastic":
            _, _, ft, kt, dr, _ = self._equilibrium(l)
            km = dr - kt  # the fiber's stiffness along the tendon, per f_opt
            return self.f_opt * ft, self.f_opt * km * kt / (km + kt), np.zeros_like(l)
        c, a = self.curves, self.activation
        x = l - self.tendon_slack_length
        lm = np.sqrt(x * x + self.thickness**2)  # the fiber (its curves are evaluated below)
        cos = x / lm
        sin2 = 1.0 - cos * cos
        lt, scale = lm / self.l_opt, self.l_opt * self.v_max
        vt = ldot * cos / scale
        fL, dfL = _value_and_slope(c["active_force_length"], lt)
        fV, dfV = _value_and_slope(c["force_velocity"], vt)
        fP, dfP = _value_and_slope(c["passive_force_length"], lt)
        fm = a * fL * fV + fP
        dcos_dl = sin2 / lm
        dfm_dl = (a * dfL * fV + dfP) * cos / self.l_opt + a * fL * dfV * ldot * dcos_dl / scale
        F = self.f_opt * fm * cos
        dF_dl = self.f_opt * (dfm_dl * cos + fm * dcos_dl)
        dF_dldot = self.f_opt * a * fL * dfV * cos * cos / scale
        return F, dF_dl, dF_dldot


def activation_rate(
    excitation, activation, tau_activation: float = 0.010, tau_deactivation: float = 0.040
) -> np.ndarray:
    """``ȧ = (u - a)/τ(u, a)`` (Millard et al. 2013 §2; OpenSim's first-order model).

    ``τ = τ_act (0.5 + 1.5 a)`` while rising (``u > a``), ``τ_deact/(0.5 + 1.5 a)`` while
    falling, so activation rises in ~10–40 ms and falls more slowly.

    Parameters
    ----------
    excitation, activation : array_like
        ``u, a ∈ [0, 1]`` (broadcast together).
    tau_activation, tau_deactivation : float
        Time constants, > 0 (s); OpenSim's defaults 0.010 and 0.040.

    Returns
    -------
    ndarray

    Raises
    ------
    ValueError
        If ``u`` or ``a`` is outside ``[0, 1]`` or a time constant is not positive.
    """
    u = _unit_interval(excitation, "excitation")
    a = _unit_interval(activation, "activation")
    ta = positive_scalar(tau_activation, "tau_activation")
    td = positive_scalar(tau_deactivation, "tau_deactivation")
    return (u - a) / _tau(u, a, ta, td)


def _tau(u, a, ta, td):
    """The time constant of the activation lag: rising ``τ_act (0.5 + 1.5 a)``, falling
    ``τ_deact/(0.5 + 1.5 a)``."""
    return np.where(u > a, ta * (0.5 + 1.5 * a), td / (0.5 + 1.5 * a))


def integrate_activation(
    excitation, a0: float, dt: float, tau_activation: float = 0.010, tau_deactivation: float = 0.040
) -> np.ndarray:
    """Activation over time for sampled excitations, by a linearly implicit Euler step.

    ``a_(k+1) = (a_k + h u_k/τ_k)/(1 + h/τ_k)`` with ``τ_k = τ(u_k, a_k)``: exact for a frozen
    ``τ`` to first order, and it never leaves ``[0, 1]`` whatever the step.

    Parameters
    ----------
    excitation : array_like, shape (n,)
        ``u_k ∈ [0, 1]`` held over step ``k``.
    a0 : float
        Initial activation in ``[0, 1]``.
    dt : float
        Step ``h > 0`` (s).
    tau_activation, tau_deactivation : float
        As in :func:`activation_rate`.

    Returns
    -------
    ndarray, shape (n + 1,)
        ``a_0 … a_n``.

    Raises
    ------
    ValueError
        If an excitation or ``a0`` is outside ``[0, 1]``, ``excitation`` is not one sequence
        (shape ``(n,)``) or ``a0`` not one number, or ``dt`` or a time constant is not positive.
    """
    u = _unit_interval(excitation, "excitation")
    if u.ndim > 1:
        raise ValueError(f"excitation must be one sequence of samples, shape (n,), got {u.shape}")
    u = u.reshape(-1)
    a = _unit_interval(a0, "a0")
    if a.shape != ():
        raise ValueError(f"a0 must be one number in [0, 1], got shape {a.shape}")
    a = float(a)
    h = positive_scalar(dt, "dt")
    ta = positive_scalar(tau_activation, "tau_activation")
    td = positive_scalar(tau_deactivation, "tau_deactivation")
    out = np.empty(u.size + 1)
    out[0] = a
    for k, uk in enumerate(u):
        tau = float(_tau(uk, a, ta, td))
        a = (a + h * uk / tau) / (1.0 + h / tau)
        out[k + 1] = a
    return out
