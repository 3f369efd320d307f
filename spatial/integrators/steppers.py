"""The integrators by name, and the validating entry that takes one step.

:data:`STEPPERS` maps every name :func:`spatial.simulate` accepts to its kernel
``kernel(system, t, q, v, h, options) -> Step``; :func:`stepper` checks once that a system offers
what the integrator needs and :func:`step` is the public one-step entry.
"""

from __future__ import annotations

from .._validate import finite_scalar, positive_scalar
from ..systems import SmoothSystem, Step, as_system
from .explicit import _rk4, _symplectic_euler
from .implicit import _bridson_marino, _implicit_euler, _trapezoidal
from .jacobians import _needs_jacobians

__all__ = ["ORDERS", "STEPPERS", "step", "stepper"]


def _hat(kernel):
    return lambda system, t, q, v, h, options: kernel(system, t, q, v, h, options, "hat")


def _tilde(kernel):
    return lambda system, t, q, v, h, options: kernel(system, t, q, v, h, options, "tilde")


#: Every fixed-step integrator by name: ``kernel(system, t, q, v, h, options) -> Step``.
STEPPERS = {
    "symplectic-euler": _symplectic_euler,
    "semi-implicit-euler": _symplectic_euler,
    "rk4": _rk4,
    "implicit-euler": _hat(_implicit_euler),
    "implicit-euler-tilde": _tilde(_implicit_euler),
    "trapezoidal": _hat(_trapezoidal),
    "trapezoidal-tilde": _tilde(_trapezoidal),
    "bridson-marino": _bridson_marino,
}

#: The order of accuracy of each integrator (global error ~ h^order on a smooth problem).
ORDERS = {
    "symplectic-euler": 1,
    "semi-implicit-euler": 1,
    "rk4": 4,
    "implicit-euler": 1,
    "implicit-euler-tilde": 1,
    "trapezoidal": 2,
    "trapezoidal-tilde": 2,
    "bridson-marino": 2,
}

_IMPLICIT = {
    name for name in STEPPERS if name not in ("symplectic-euler", "semi-implicit-euler", "rk4")
}


def stepper(integrator: str, system):
    """The kernel ``(t, q, v, h, options) -> Step`` of ``integrator`` for ``system``.

    Checks once that the integrator exists and that the system offers what it needs
    (``accelerations``; ``force_jacobians`` for the implicit ones).

    Raises
    ------
    ValueError
        For an unknown integrator name, a system that is not smooth, or an implicit integrator
        given a system without the force Jacobians.
    """
    if not isinstance(integrator, str) or integrator not in STEPPERS:
        raise ValueError(f"integrator must be one of {tuple(STEPPERS)}, got {integrator!r}")
    if not isinstance(system, SmoothSystem):
        raise ValueError(
            f"integrator {integrator!r} needs a system with accelerations(t, q, v); "
            f"{type(system).__name__} only takes its own time steps (integrator=None)"
        )
    if integrator in _IMPLICIT:
        _needs_jacobians(system, integrator)
    kernel = STEPPERS[integrator]
    return lambda t, q, v, h, options: kernel(system, t, q, v, h, options)


def step(system, t: float, q, v, h: float, *, integrator: str = "rk4", **options) -> Step:
    """One step of ``integrator`` from ``(q, v)`` at time ``t`` (the validating entry).

    Parameters
    ----------
    system : SmoothSystem or Model
    t : float
    q, v : array_like
        The state, optionally with leading batch dimensions.
    h : float
        Step, > 0.
    integrator : str
        A name of :data:`STEPPERS`.
    **options
        Passed to ``accelerations`` / ``force_jacobians`` (e.g. ``tau=``).

    Returns
    -------
    Step

    Raises
    ------
    ValueError
        As :func:`stepper`, for ``h <= 0``, a time ``t`` that is not a finite number, or an
        invalid state.

    Examples
    --------
    >>> import numpy as np
    >>> from spatial.integrators import LinearOscillator, step
    >>> s = step(LinearOscillator(1.0, 1.0), 0.0, [1.0], [0.0], 0.1, integrator="trapezoidal")
    >>> bool(np.isclose(s.q[0] ** 2 + s.v[0] ** 2, 1.0))
    True
    """
    system = as_system(system)
    h = positive_scalar(h, "h")
    take = stepper(integrator, system)
    q, v = system.check_state(q, v)
    return take(finite_scalar(t, "t"), q, v, h, options)
