"""The optional hook the implicit steppers need: the applied force and its Jacobians.

ArtiSynth §0.9 writes every implicit scheme for ``M ẍ = f(x, ẋ)`` with the force Jacobians
``K = ∂f/∂x`` (stiffness) and ``D = ∂f/∂ẋ`` (damping).  A system offers them through one extra
method, the :class:`ForceJacobians` protocol::

    force_jacobians(t, q, v, **options) -> (f, K, D)

with ``f`` the generalized force of ``M(q) v̇ = f`` (shape ``(..., nv)``, every force that is
not inertia: applied forces, springs, gravity, and for joint or body coordinates the velocity
product terms), ``K`` its change when the configuration moves to ``q ⊕ δ`` (``integrate(q, δ,
1)``, so the columns are tangent directions, not quaternion components) and ``D`` its change
with ``v``, both ``(..., nv, nv)`` and in the sign convention of :mod:`spatial.forces` (plain
derivatives: a spring's ``K`` and a damper's ``D`` are negative semi-definite).  The mass matrix
comes from the system's ``mass_matrix(q)``.

A system whose mass matrix depends on the configuration (a tree in joint coordinates) is
linearized *with the mass matrix frozen at the start of the step*: ``f = M(q₀) a(q, v)``, so
``K = M(q₀) ∂a/∂q`` and ``D = M(q₀) ∂a/∂v``.  That keeps the trapezoidal rule and
Bridson–Marino second order; with a constant mass matrix it is plainly ``∂f/∂x``, ``∂f/∂v``.

:class:`Linearized` gives any smooth system the hook by central differences of its forward
dynamics (accurate to about 1e-9 relative), for systems whose force models do not provide
analytic Jacobians (e.g. a ``Model`` in joint coordinates).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from .._batched import mv as _mv
from .._validate import positive_scalar
from ..systems import SmoothSystem, _core, as_system

__all__ = ["ForceJacobians", "Linearized"]


@runtime_checkable
class ForceJacobians(SmoothSystem, Protocol):
    """A smooth system that also gives ``(f, K, D)`` (see the module docstring)."""

    def force_jacobians(self, t: float, q, v, **options) -> tuple: ...


def _needs_jacobians(system, integrator: str) -> None:
    """Raise ``ValueError`` if ``system`` cannot give the Jacobians ``integrator`` needs."""
    if not isinstance(system, ForceJacobians):
        raise ValueError(
            f"integrator {integrator!r} needs the force Jacobians K = ∂f/∂q and D = ∂f/∂v: "
            f"{type(system).__name__} has no force_jacobians(t, q, v) "
            "(wrap it as spatial.integrators.Linearized(system) for finite-difference Jacobians)"
        )


class Linearized:
    """A smooth system with finite-difference force Jacobians (the :class:`ForceJacobians` hook).

    Every attribute of the wrapped system is passed through; :meth:`force_jacobians` adds
    ``f = M(q) a``, ``K = M(q) ∂a/∂q`` and ``D = M(q) ∂a/∂v`` by central differences of the
    system's ``accelerations`` (step ``eps`` along each tangent direction ``q ⊕ ε e_j`` and each
    velocity), the mass matrix frozen at ``q`` (module docstring).

    Parameters
    ----------
    system : SmoothSystem or Model
    eps : float
        Difference step, > 0 (default 1e-6).

    Raises
    ------
    ValueError
        If ``system`` is not a smooth system or ``eps`` is not > 0.

    Examples
    --------
    >>> import numpy as np, spatial as sp
    >>> from spatial.integrators import Linearized
    >>> model = sp.builders.simple_pendulum()
    >>> f, K, D = Linearized(model).force_jacobians(0.0, np.array([0.3]), np.zeros(1))
    >>> K.shape, bool(abs(D).max() < 1e-8)
    ((1, 1), True)
    """

    def __init__(self, system, eps: float = 1e-6):
        system = as_system(system)
        if not isinstance(system, SmoothSystem):
            raise ValueError(
                f"Linearized needs a smooth system with accelerations(t, q, v), "
                f"got {type(system).__name__}"
            )
        self.system = system
        self.eps = positive_scalar(eps, "eps")

    def __getattr__(self, name):
        if name == "system":  # not yet set (copy, pickle)
            raise AttributeError(name)
        return getattr(self.system, name)

    def accelerations(self, t: float, q, v, **options):
        """The wrapped system's ``accelerations`` (validating)."""
        return self.system.accelerations(t, q, v, **options)

    def _accelerations(self, t: float, q, v, **options):
        """The wrapped system's unvalidating core, for a state already validated (the loop)."""
        return _core(self.system, "accelerations")(t, q, v, **options)

    def integrate(self, q, v, dt):
        """The wrapped system's ``integrate`` (validating)."""
        return self.system.integrate(q, v, dt)

    def _integrate(self, q, v, dt):
        """The wrapped system's unvalidating core, for a state already validated (the loop)."""
        return _core(self.system, "integrate")(q, v, dt)

    def force_jacobians(self, t: float, q, v, **options):
        """``(f, K, D)`` with the mass matrix frozen at ``q`` (see the class docstring).

        Raises
        ------
        ValueError
            If ``(q, v)`` is not a state of the system (its ``check_state``).
        """
        q, v = self.system.check_state(q, v)
        return self._force_jacobians(t, q, v, **options)

    def _force_jacobians(self, t: float, q, v, **options):
        """:meth:`force_jacobians` of a validated state: the differences call the cores.

        A system that takes stacked states (``batched``, :mod:`spatial.systems`) evaluates all
        ``4 nv`` displaced states in one call, unless an option is a function (a controller
        ``tau(t, q, v)`` written for one state would misread a stack); otherwise one call each.
        """
        sys, eps = self.system, self.eps
        accelerations, integrate = _core(sys, "accelerations"), _core(sys, "integrate")
        M = sys.mass_matrix(q)
        a = accelerations(t, q, v, **options)
        nv = a.shape[-1]
        if getattr(sys, "batched", False) and not any(map(callable, options.values())):
            # row j of `step` displaces along direction j; the stack leads: (nv, ..., nv)
            step = (eps * np.eye(nv)).reshape((nv,) + (1,) * (a.ndim - 1) + (nv,))
            stack = (nv,) + a.shape[:-1]
            q_j = np.broadcast_to(q, stack + q.shape[-1:])
            v_j = np.broadcast_to(v, stack + v.shape[-1:])
            displaced = accelerations(  # at q ⊕ e_j, q ⊕ -e_j (with v), v + e_j, v - e_j (at q)
                t,
                np.concatenate([integrate(q_j, step, 1.0), integrate(q_j, -step, 1.0), q_j, q_j]),
                np.concatenate([v_j, v_j, v_j + step, v_j - step]),
                **options,
            )
            plus_q, minus_q, plus_v, minus_v = np.split(displaced, 4)
            dq = np.moveaxis((plus_q - minus_q) / (2 * eps), 0, -1)
            dv = np.moveaxis((plus_v - minus_v) / (2 * eps), 0, -1)
            return _mv(M, a), M @ dq, M @ dv
        dq = np.zeros(a.shape + (nv,))
        dv = np.zeros(a.shape + (nv,))
        for j in range(nv):
            e = np.zeros(nv)
            e[j] = eps
            plus = accelerations(t, integrate(q, e, 1.0), v, **options)
            minus = accelerations(t, integrate(q, -e, 1.0), v, **options)
            dq[..., j] = (plus - minus) / (2 * eps)
            plus = accelerations(t, q, v + e, **options)
            minus = accelerations(t, q, v - e, **options)
            dv[..., j] = (plus - minus) / (2 * eps)
        return _mv(M, a), M @ dq, M @ dv

    def __repr__(self) -> str:
        return f"Linearized({self.system!r}, eps={self.eps:g})"
