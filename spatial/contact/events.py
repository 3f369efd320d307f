"""Contact scenes with located impacts: smooth free flight, impulsive dynamics at each contact.

The time stepper of :mod:`spatial.contact.stepping` moves a free-flying body by symplectic Euler,
whose first-order error lowers a bouncing ball's apex by about ``h√(2gH)`` per bounce (0.44 % of
``H = 1`` m at ``h = 1e-3`` s) even with restitution 1.  When contacts last only an instant — a
ball bouncing, a pendulum striking the floor — Featherstone's event-driven scheme (Table 11.1,
steps 3–4) does better: integrate the motion without contact forces by a high-order method,
locate the moment a gap closes, apply impulsive dynamics there (§11.7) and carry on.

:func:`located_impacts` builds that scheme from a :class:`~spatial.contact.Scene`:

* :class:`FreeFlight` is the scene without contact forces, a smooth system (forward dynamics:
  the articulated-body algorithm for trees, Newton–Euler for free bodies) that any stepper of
  :mod:`spatial.integrators` can advance;
* :class:`spatial.integrators.Impacts` takes its steps (RK4 by default), ends a step where the
  smallest gap of the scene reaches zero (bisection on the step length) and applies the impact
  law there: the same impulsive dynamics the time stepper applies at a collision
  (:func:`~spatial.contact.impact`, Newton or Poisson restitution with the scene's friction).

Contacts that persist (resting, sliding, rolling) are beyond an event-driven scheme of this kind:
a body settling on the floor would need ever shorter steps between ever slower impacts (Zeno's
bounces).  The impact law therefore stops with a ``RuntimeError`` when the located contacts
approach slower than the scene's impact ``threshold`` (:class:`~spatial.contact.ContactParams`,
the speed below which the time stepper does not treat a contact as a collision either); use the
time stepper there.
"""

from __future__ import annotations

import numpy as np

from ..integrators.events import Impacts
from ..solvers.lcp import LCPError
from .impact import _impact
from .scene import Scene
from .stepping import ContactParams, SceneSystem, _params

__all__ = ["FreeFlight", "located_impacts"]


class FreeFlight(SceneSystem):
    """A scene without contact forces: a smooth system for the steppers of
    :mod:`spatial.integrators` (the contacts are handled by :func:`located_impacts`)."""

    def accelerations(self, t, q, v, **options):
        """Forward dynamics under gravity alone (no joint forces, no contact).

        Raises
        ------
        ValueError
            If ``(q, v)`` is not a state of the scene.
        """
        q, v = self.check_state(q, v)
        return self._accelerations(t, q, v, **options)

    def _accelerations(self, t, q, v, **options):
        """:meth:`accelerations` of a state :meth:`check_state` has validated (the loop's core)."""
        scene = self.scene
        return scene._acceleration(q, v, np.zeros(scene.nv), np.zeros((scene.NB + 1, 6)))


def _gap(scene: Scene):
    def gap(q) -> float:
        """The smallest gap between any two shapes of the scene (inf if none can touch)."""
        return float(np.min(scene.detect(q).gap, initial=np.inf))

    return gap


def _impact_law(scene: Scene, p: ContactParams):
    solve = dict(friction=p.friction, k=p.k, tangent_dim=scene.tangent_dim, tol=p.tol)

    def impact(q, v):
        """Velocity after impulsive dynamics at the touching contacts (Featherstone §11.7)."""
        contacts = scene.detect(q)
        current = contacts.select(contacts.gap <= p.margin)
        if not len(current):
            return v
        J, _ = scene.jacobian(q, current)
        zeta = J @ v
        speed = -float(np.min(zeta[: len(current)]))
        if speed < p.threshold:
            raise RuntimeError(
                f"the contacts approach at {speed:.3g} m/s, below the impact threshold "
                f"{p.threshold:g} m/s: the contact persists (resting or sliding), which located "
                "impacts cannot follow; use the time stepper"
            )
        HiJT = np.linalg.solve(scene.mass_matrix(q), J.T)
        res = _impact(J @ HiJT, zeta, p.mu, p.restitution, p.law, solve)
        if not res.converged:
            raise LCPError(f"impact: {res.message}")
        return v + HiJT @ res.impulse

    return impact


def located_impacts(
    scene: Scene, params: ContactParams | None = None, integrator: str = "rk4", tol: float = 1e-12
):
    """A scene whose free flight is integrated by ``integrator`` and whose impacts are located.

    Parameters
    ----------
    scene : Scene
    params : ContactParams, optional
        Restitution, law, friction, ``margin`` (contacts within it take part in an impact) and
        ``threshold`` (slower approaches mean a persisting contact); the stepping options are
        not used.
    integrator : str
        A stepper of :data:`spatial.integrators.STEPPERS` that needs only accelerations
        (``"rk4"``, the default, or ``"symplectic-euler"``).
    tol : float
        Relative accuracy of a located impact time (fraction of the step), > 0.

    Returns
    -------
    spatial.integrators.Impacts
        A stepped system for :func:`spatial.simulate`; its records flag the impacts.  Its steps
        raise ``RuntimeError`` when a contact persists (module docstring).

    Raises
    ------
    ValueError
        For a scene that is not a :class:`Scene`, invalid ``params``, an unknown integrator or
        one that needs force Jacobians, or ``tol <= 0``.

    Examples
    --------
    A ball dropped from 1 m with restitution 1 tops out at 1 m again (the time stepper loses
    4.4 mm per bounce at this step):

    >>> import numpy as np, spatial as sp, spatial.contact as ct
    >>> setup = ct.bouncing_ball(1.0, height=1.0)
    >>> run = sp.simulate(located_impacts(setup.scene, setup.params), setup.q0, setup.v0,
    ...                   1e-3, duration=1.0)
    >>> bool(abs(run.q[:, 0, 2, 3].max() - 1.1) < 1e-9), len(run.occurrences("impact"))
    (True, 1)
    """
    flight = FreeFlight(scene)
    p = _params(params, scene)
    return Impacts(flight, _gap(scene), _impact_law(scene, p), integrator=integrator, tol=tol)
