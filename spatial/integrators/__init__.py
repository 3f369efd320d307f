"""Time integration: one set of steppers for every smooth system (ArtiSynth §0.9–0.11).

A stepper advances a state ``(q, v)`` of a :class:`~spatial.systems.SmoothSystem` by one step
``h`` and returns a :class:`~spatial.systems.Step`; positions always move through the system's
``integrate``, so quaternions stay unit and frames stay rigid.  :func:`spatial.simulate` takes
its fixed-step integrators from :data:`STEPPERS` (``simulate(..., integrator=NAME)``).  Read the
modules in this order:

:mod:`~spatial.integrators.explicit` — symplectic Euler (``"symplectic-euler"``, also
``"semi-implicit-euler"``, §0.9.1) and the classical Runge–Kutta method (``"rk4"``); they need
only ``accelerations``.

:mod:`~spatial.integrators.jacobians` — the optional hook of the implicit steppers,
``force_jacobians(t, q, v) -> (f, K, D)`` (:class:`ForceJacobians`), and :class:`Linearized`,
which gives it to any smooth system by finite differences.

:mod:`~spatial.integrators.implicit` — linearized backward Euler in the notes' two forms
(``"implicit-euler"``: f̂, ``"implicit-euler-tilde"``: f̃, §0.9.2), the trapezoidal rule
(``"trapezoidal"``, ``"trapezoidal-tilde"``, §0.9.3) and Bridson–Marino (``"bridson-marino"``,
§0.9.4).

:mod:`~spatial.integrators.oscillator` — :class:`LinearOscillator`, the mass–spring–damper test
system with exact Jacobians and the one-step matrix of every scheme.

:mod:`~spatial.integrators.reference` — :func:`reference_solution` by SciPy's adaptive
``solve_ivp`` (imported only when called).

:mod:`~spatial.integrators.events` — :class:`Impacts`, steps that end at an impact located by
bisection (the bouncing ball without symplectic Euler's energy loss).

:mod:`~spatial.integrators.constrained` — :func:`constrained_step`, the §0.10 step with
bilateral rows, contacts and box or polyhedral friction through :mod:`spatial.solvers`.

:mod:`~spatial.integrators.regularized` — soft constraints (§0.11): compliance ``α`` and damping
``β`` as the regularization ``γα/h²`` of a KKT or LCP step, :func:`soft_step`.

Orders (measured by step halving in the tests and notebook 16): 1 for both Euler variants, 2 for
the trapezoidal rule and Bridson–Marino, 4 for RK4.
"""

from __future__ import annotations

import importlib

from .events import Impacts
from .jacobians import ForceJacobians, Linearized
from .oscillator import LinearOscillator
from .reference import reference_solution
from .steppers import ORDERS, STEPPERS, step, stepper

# constrained and soft steps solve LCPs with spatial.solvers (SciPy): loaded on first use
_LAZY = {
    "SoftStep": "regularized",
    "regularization": "regularized",
    "soft_step": "regularized",
    "ConstrainedStep": "constrained",
    "constrained_step": "constrained",
}


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'spatial.integrators' has no attribute {name!r}")


__all__ = [
    "ORDERS",
    "STEPPERS",
    "ConstrainedStep",
    "ForceJacobians",
    "Impacts",
    "Linearized",
    "LinearOscillator",
    "SoftStep",
    "constrained_step",
    "reference_solution",
    "regularization",
    "soft_step",
    "step",
    "stepper",
]
