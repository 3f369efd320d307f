"""Time stepping with rigid contact: impacts, complementarity, friction and stabilization.

Featherstone's Table 11.1 simulates contact *event by event*: integrate with the active
contacts as equality constraints, watch for geometric events (contact gains and losses) and
negative contact forces, back up to the earliest event, apply impulsive dynamics at a
collision, re-solve the contact LCP when a force turns negative, and carry on.  A
*velocity-level time stepper* (Stewart–Trinkle, Anitescu–Potra; ArtiSynth §0.10, Sueda
§1.11–1.13) keeps that structure but lets one complementarity problem per step decide which
contacts push, so contact losses and negative forces need no separate detection.  One
:func:`step` here does, in the order of Table 11.1:

1. **Geometry** — detect the candidate contacts (§11.6); those with gap ``φ <= margin`` are the
   *current* contacts.
2. **Collision** (Table 11.1 step 4, §11.7) — if a current contact approaches faster than
   ``threshold``, apply impulsive dynamics with restitution (:func:`~spatial.contact.impact`,
   Newton or Poisson, with the friction model) to the velocity.
3. **Contact step** (steps 1, 2 and 6) — with the free velocity ``v_free = v + h H⁻¹(τ - C)``,
   solve the velocity-level complementarity problem on the Delassus matrix ``W = J H⁻¹ Jᵀ``,
   ``0 <= λ_n ⟂ (J v⁺)_n - b >= 0`` with Coulomb friction, and set ``v⁺ = v_free + H⁻¹ Jᵀλ``,
   ``q⁺ = q ⊕ h v⁺`` (semi-implicit Euler).  This is one call of the package's one
   constrained step, :func:`spatial.integrators.constrained_step` with ``M̂ = H``,
   ``b = H v + h(τ - C)`` and no bilateral rows.  The target ``b`` lets a separated current contact
   close its gap in this step (``b = -φ/h`` for ``φ > 0``) and, with Baumgarte stabilization,
   pushes a penetrating one out (``b = -β φ/h``, Sueda eq. 1.82 with ``γ = β/h``).  With
   ``compliance`` the normal rows are regularized as in ArtiSynth eq. 0.10: ``W + γα/h²`` and
   ``b = -γφ/h``, ``γ = (½ + damping/h)⁻¹``: a stiff spring instead of a hard constraint.
4. **Event location** (step 3) — if a contact that was not current penetrates at the end of
   the step, the step is shortened (regula falsi on the step length, i.e. on the interpolating
   polynomial of the Euler step, eq. 11.49) until that contact just touches; its collision is
   then handled at the start of the next step.
5. **Post-stabilization** (Sueda §1.12, Cline & Pai) — remaining penetrations are removed by
   the smallest position correction in the kinetic-energy metric,
   ``q ← q ⊕ H⁻¹ J_nᵀ μ`` with ``0 <= μ ⟂ φ + J_n H⁻¹ J_nᵀ μ >= 0``; velocities are untouched.

``step`` and ``simulate`` work for trees and free bodies alike (:class:`~spatial.contact.Scene`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import integer, nonnegative_scalar, positive_scalar, vector
from ..integrators.constrained import _constrained_step
from ..kinematics import kinetic_energy, potential_energy
from ..model import Model
from ..simulation import Trajectory
from ..simulation import simulate as _simulate
from ..solvers.friction import FrictionResult
from ..solvers.impulses import FRICTION_MODELS, _impulse_options
from ..solvers.lcp import LCPError, _lemke
from ..solvers.pgs import _pgs
from ..systems import Step, _evaluate
from .impact import ImpactResult, _impact, restitution_coefficient
from .scene import Contacts, Scene

__all__ = ["ContactParams", "StepInfo", "SceneSystem", "RigidContact", "simulate", "step"]

_STABILIZATION = ("post", "baumgarte", "none")
_EVENT_ITERATIONS = 40


@dataclass(frozen=True)
class ContactParams:
    """Contact model and stepping options of :func:`step` and :func:`simulate`.

    Parameters
    ----------
    mu : float
        Coulomb friction coefficient, >= 0 (0: frictionless, normal rows only).
    friction : {"polyhedral", "pyramid", "box", "gauss-seidel"}
        Friction model (:func:`~spatial.solvers.solve_impulses`).
    k : int, optional
        Facets of the polyhedral / pyramid cone (defaults 8 / 4; 2 in the plane).
    restitution : float
        Coefficient of restitution ``e`` in [0, 1] applied at collisions.
    law : {"poisson", "newton"}
        Restitution law (:mod:`spatial.contact.impact`).
    threshold : float
        Approach speed (m/s, >= 0) above which a current contact triggers an impact.
    stabilization : {"post", "baumgarte", "none"}
        How penetration is removed.
    baumgarte : float
        Fraction ``β`` of the penetration removed per step by Baumgarte stabilization, in [0, 1].
    compliance : float
        ``α >= 0`` (m/N): regularized normal contact (ArtiSynth §0.11); 0 for hard contact.
    damping : float
        ``β_d >= 0`` (s) of the regularization (ArtiSynth eq. 0.7).
    tol : float
        Accuracy of the contact solvers (:func:`~spatial.solvers.solve_impulses`), > 0.
    margin : float
        Contacts with a gap up to ``margin`` (m, >= 0) are current.
    locate_events : bool
        Shorten steps to the moment a new contact touches (Table 11.1 step 3).
    event_tol : float
        Penetration (m, > 0) accepted at a located event.

    Raises
    ------
    ValueError
        For a negative ``mu``, a restitution outside [0, 1], an unknown friction model, law or
        stabilization, or any other out-of-range value.
    """

    mu: float = 0.0
    friction: str = "polyhedral"
    k: int | None = None
    restitution: float = 0.0
    law: str = "poisson"
    threshold: float = 1e-2
    stabilization: str = "post"
    baumgarte: float = 0.2
    compliance: float = 0.0
    damping: float = 0.0
    tol: float = 1e-9
    margin: float = 1e-6
    locate_events: bool = True
    event_tol: float = 1e-6

    def __post_init__(self) -> None:
        object.__setattr__(self, "mu", nonnegative_scalar(self.mu, "friction coefficient mu"))
        e = restitution_coefficient(self.restitution)
        if e.shape != ():
            raise ValueError("restitution must be a single number in [0, 1]")
        object.__setattr__(self, "restitution", float(e))
        if self.friction not in FRICTION_MODELS:
            raise ValueError(f"friction must be one of {FRICTION_MODELS}, got {self.friction!r}")
        if self.law not in ("poisson", "newton"):
            raise ValueError(f"law must be 'poisson' or 'newton', got {self.law!r}")
        if self.stabilization not in _STABILIZATION:
            raise ValueError(
                f"stabilization must be one of {_STABILIZATION}, got {self.stabilization!r}"
            )
        if self.k is not None:
            object.__setattr__(self, "k", integer(self.k, "k", minimum=2))
        for name in ("threshold", "compliance", "damping", "margin"):
            object.__setattr__(self, name, nonnegative_scalar(getattr(self, name), name))
        beta = nonnegative_scalar(self.baumgarte, "baumgarte")
        if beta > 1:
            raise ValueError(f"baumgarte must lie in [0, 1] (fraction per step), got {beta}")
        object.__setattr__(self, "baumgarte", beta)
        for name in ("event_tol", "tol"):
            object.__setattr__(self, name, positive_scalar(getattr(self, name), name))


@dataclass
class StepInfo:
    """What happened in one :func:`step`.

    Attributes
    ----------
    h : float
        Time actually advanced (shorter than requested at a located event).
    contacts : Contacts
        The current contacts of the step.
    impulses : FrictionResult
        Contact impulses of the velocity-level step.
    impact : ImpactResult or None
        The collision resolved at the start of the step, if any.
    event : bool
        True if the step was shortened to a contact gain.
    penetration : float
        Deepest penetration (>= 0) at the end of the step, after stabilization.
    end : Contacts
        All candidate contacts at the end of the step.
    fallbacks : int
        Contact problems of the step that the chosen friction model failed to solve and
        Gauss–Seidel solved instead.
    """

    h: float
    contacts: Contacts
    impulses: FrictionResult
    impact: ImpactResult | None
    event: bool
    penetration: float
    end: Contacts
    fallbacks: int = 0


_FALLBACK_TOL = 1e-6  # relative impulse change per sweep accepted from the fallback


def _solve(call, p: ContactParams, what: str):
    """``call(friction, tol)`` with the chosen friction model, then Gauss–Seidel if it fails.

    Returns the result and whether the fallback was used.  Lemke can fail numerically on the
    singular, degenerate problems of faces resting on four vertices (more contacts than
    independent constraints, Featherstone §11.5); Gauss–Seidel is slower but robust there,
    converging to a relative impulse change of ``1e-6`` per sweep.
    """
    res = call(p.friction, p.tol)
    if res.converged:
        return res, False
    fallback = call("gauss-seidel", max(p.tol, _FALLBACK_TOL))
    if fallback.converged:
        return fallback, True
    raise LCPError(f"{what}: {res.message}")


def _advance(scene: Scene, q, v, h: float, p: ContactParams, tau, start: Contacts):
    """Steps 2–3 of the module docstring from ``(q, v)`` over ``h``.

    Returns ``(q⁺, v⁺, current contacts, impulses, impact result, fallbacks)``.
    """
    current = start.select(start.gap <= p.margin)
    nc, d = len(current), scene.tangent_dim
    H = scene.mass_matrix(q)
    J, _ = scene.jacobian(q, current)
    solve = dict(k=p.k, tangent_dim=d)
    collision, fallbacks = None, 0
    if nc and np.min(J[:nc] @ v) < -p.threshold:  # Table 11.1 step 4: impulsive dynamics
        HiJT = np.linalg.solve(H, J.T)
        W, zeta = J @ HiJT, J @ v

        def collide(friction, tol):
            options = dict(friction=friction, tol=tol, **solve)
            return _impact(W, zeta, p.mu, p.restitution, p.law, options)

        collision, used = _solve(collide, p, "impact")
        fallbacks += used
        v = v + HiJT @ collision.impulse
    b = H @ v + h * scene.generalized_force(q, v, tau)  # v_free = H⁻¹ b
    gap = current.gap
    soft = 0.0
    if p.compliance > 0:  # ArtiSynth eq. 0.10: regularized unilateral constraints
        gamma = 1.0 / (0.5 + p.damping / h)
        soft = gamma * p.compliance / h**2
        inside = -gamma * gap / h
    elif p.stabilization == "baumgarte":
        inside = -p.baumgarte * gap / h
    else:
        inside = np.zeros(nc)
    bias = np.where(gap > 0, -gap / h, inside)
    none = np.zeros((0, len(v)))

    def contact_step(friction, tol):  # the one constrained step (ArtiSynth §0.10), no G rows
        options = dict(friction=friction, tol=tol, **solve)
        return _constrained_step(H, b, none, np.zeros(0), J, p.mu, bias, soft, options)

    out, used = _solve(contact_step, p, "contact step")
    v_next, res = out.v, out.contact
    return scene._integrate(q, v_next, h), v_next, current, res, collision, fallbacks + used


def _post_stabilize(scene: Scene, q, contacts: Contacts, p: ContactParams):
    """Remove penetrations by the smallest correction in the metric of ``H`` (module step 5).

    Penetrations below a thousandth of ``event_tol`` (round-off) are left alone.  The small LCP
    is solved by projected Gauss–Seidel, and by Lemke's method if that has not converged (its
    matrix is regularized to be positive definite, so Lemke finds the solution; ``LCPError``
    if not even that succeeds).
    """
    near = contacts.select(contacts.gap <= p.margin)
    if not np.any(near.gap < -1e-3 * p.event_tol):
        return q
    J, _ = scene.jacobian(q, near)
    Jn = J[: len(near)]
    HiJT = np.linalg.solve(scene.mass_matrix(q), Jn.T)
    W = Jn @ HiJT
    W[np.diag_indices_from(W)] += 1e-12 * max(1.0, np.trace(W))  # keeps zero rows solvable
    res = _pgs(W, near.gap, tol=1e-10, max_iter=1000)
    if not res.converged:
        # redundant contacts make W nearly singular: ask for the accuracy that matters, gaps
        # to within event_tol
        res = _lemke(W, near.gap, tol=p.event_tol).check()
    mu = res.z
    return scene._integrate(q, HiJT @ mu, 1.0)


def _new_contact_gap(new: np.ndarray, contacts: Contacts) -> float:
    return float(np.min(contacts.gap[new], initial=np.inf))


def _step(scene: Scene, q, v, h: float, p: ContactParams, tau, start: Contacts | None = None):
    """One step on a validated state (module docstring, steps 1–5); ``start = detect(q)``."""
    start = scene.detect(q) if start is None else start
    q1, v1, current, res, collision, fallbacks = _advance(scene, q, v, h, p, tau, start)
    end = scene.detect(q1)
    taken, event = h, False
    new = np.isfinite(start.gap) & (start.gap > p.margin)
    g_end = _new_contact_gap(new, end)
    if p.locate_events and g_end < -p.event_tol:  # Table 11.1 step 3: back up to the event
        event = True
        lo, g_lo, hi, g_hi = 0.0, _new_contact_gap(new, start), 1.0, g_end
        target = 0.5 * (p.margin - p.event_tol)
        for _ in range(_EVENT_ITERATIONS):
            s = hi - (g_hi - target) * (hi - lo) / (g_hi - g_lo)
            s = min(max(s, lo + 1e-3 * (hi - lo)), hi - 1e-3 * (hi - lo))
            trial = _advance(scene, q, v, s * h, p, tau, start)
            trial_end = scene.detect(trial[0])
            g = _new_contact_gap(new, trial_end)
            if g > p.margin:
                lo, g_lo = s, g
            else:
                hi, g_hi = s, g
                q1, v1, current, res, collision, fallbacks = trial
                end, taken = trial_end, s * h
                if g >= -p.event_tol:
                    break
    if p.stabilization == "post" and p.compliance == 0:
        q_stab = _post_stabilize(scene, q1, end, p)
        if q_stab is not q1:
            q1, end = q_stab, scene.detect(q_stab)
    return (
        q1,
        v1,
        StepInfo(taken, current, res, collision, event, _penetration(end), end, fallbacks),
    )


def _params(params, scene: Scene) -> ContactParams:
    """``params`` (default ``ContactParams()``), with its cone checked for the scene's contacts."""
    if params is None:
        params = ContactParams()
    if not isinstance(params, ContactParams):
        raise ValueError(f"params must be a ContactParams, got {type(params).__name__}")
    _impulse_options(params.friction, params.k, scene.tangent_dim, params.tol)  # e.g. k = 2 in 3D
    return params


def _tau(scene: Scene, tau) -> np.ndarray:
    return np.zeros(scene.nv) if tau is None else vector(tau, "tau", scene.nv)


def step(scene: Scene, q, v, h: float, params: ContactParams | None = None, tau=None):
    """One time step with rigid contact (module docstring; Featherstone Table 11.1).

    Parameters
    ----------
    scene : Scene
    q : array_like
        Configuration: ``(nq,)`` for a tree, body frames ``(N, 4, 4)`` for free bodies.
    v : array_like, shape (nv,)
        Velocity variables.
    h : float
        Step size (s), > 0.
    params : ContactParams, optional
    tau : array_like, shape (nv,), optional
        Applied generalized forces (joint torques; body wrenches for free bodies).

    Returns
    -------
    q, v :
        The state after ``info.h`` seconds.
    info : StepInfo

    Raises
    ------
    ValueError
        For an invalid state, step size, ``params`` or ``tau``.
    spatial.contact.LCPError
        If a contact problem has no solution the solver can find.
    """
    q, v = scene.check_state(q, v)
    return _step(scene, q, v, positive_scalar(h, "h"), _params(params, scene), _tau(scene, tau))


class SceneSystem:
    """A contact :class:`Scene` seen through the package's system interface.

    It answers the questions of :mod:`spatial.systems` (sizes, states, ``integrate`` /
    ``difference``, mass matrix, energy, body poses) from the scene; :class:`RigidContact` and
    :class:`~spatial.contact.SoftContact` add the time step that makes it a stepped system.
    Contact problems are solved one state at a time, so states carry no batch dimensions;
    :meth:`energy` also takes a stack of states (a trajectory): a tree's in one batched pass,
    free bodies' row by row.
    """

    def __init__(self, scene: Scene):
        if not isinstance(scene, Scene):
            raise ValueError(f"scene must be a Scene, got {type(scene).__name__}")
        self.scene = scene
        self._q_ndim = 1 if isinstance(scene.system, Model) else 3  # joint vector or frames

    NB = property(lambda self: self.scene.NB)

    def check_state(self, q, v):
        return self.scene.check_state(q, v)

    def integrate(self, q, v, dt):
        return self.scene.integrate(q, v, dt)

    def _integrate(self, q, v, dt):
        """:meth:`integrate` of a state :meth:`check_state` has validated (the loop's core)."""
        return self.scene._integrate(q, v, dt)

    def difference(self, q0, q1):
        return self.scene.difference(q0, q1)

    def mass_matrix(self, q):
        return self.scene.mass_matrix(q)

    def poses(self, q):
        """World frames of bodies ``1 … NB`` (row ``b - 1`` is body ``b``)."""
        return self.scene.poses(q)[1:]

    def energy(self, q, v):
        q, v = np.asarray(q), np.asarray(v)
        if self._q_ndim == 1:  # a tree: all rows in one forward pass each, as the scene would
            model = self.scene.system
            return kinetic_energy(model, q, v), potential_energy(model, q)
        lead = q.shape[: q.ndim - self._q_ndim]
        out = np.zeros((2,) + lead)
        for k in np.ndindex(lead):
            out[(slice(None),) + k] = self.scene.energy(q[k], v[k])
        return out[0], out[1]

    def initial_records(self, q, v) -> dict:
        """The records of a step, for the initial state: its penetration, nothing else yet."""
        return _records(_penetration(self.scene.detect(q)))


def _records(penetration: float, contacts=0, impact=None, event=False, fallbacks=0) -> dict:
    """What a contact simulation records per state (see :class:`RigidContact`)."""
    return {
        "penetration": penetration,
        "contacts": contacts,
        "impact": impact,
        "event": event,
        "fallbacks": fallbacks,
    }


def _step_records(info) -> dict:
    """The records of one step, from its :class:`StepInfo` (or soft contact's, same fields)."""
    return _records(info.penetration, len(info.contacts), info.impact, info.event, info.fallbacks)


def _penetration(contacts: Contacts) -> float:
    """Deepest penetration (>= 0) among detected contacts."""
    finite = contacts.gap[np.isfinite(contacts.gap)]
    return max(0.0, -float(np.min(finite, initial=0.0)))


class RigidContact(SceneSystem):
    """A scene stepped with rigid contact (:func:`step`): a stepped system for ``sp.simulate``.

    Parameters
    ----------
    scene : Scene
    params : ContactParams, optional

    Notes
    -----
    Each step records ``penetration`` (deepest, after stabilization), ``contacts`` (number of
    current contacts), ``impact`` (the :class:`~spatial.contact.ImpactResult` of a collision
    resolved at the start of the step, else None), ``event`` (the step was shortened to a
    contact gain) and ``fallbacks`` (contact problems Gauss–Seidel solved instead); the
    contacts found at the end of a step start the next (the step's ``carry``).  ``tau`` is a
    constant array or a callable ``tau(t, q, v)``, held over the step.
    """

    def __init__(self, scene: Scene, params: ContactParams | None = None):
        super().__init__(scene)
        self.params = _params(params, scene)

    def step(self, t, q, v, h, carry=None, *, tau=None) -> Step:
        tau = _tau(self.scene, _evaluate(tau, t, q, v))
        q, v, info = _step(self.scene, q, v, h, self.params, tau, carry)
        return Step(q, v, info.h, self._records(info), info.end)

    def _records(self, info: StepInfo) -> dict:
        """The records of one step (a subclass may add its own)."""
        return _step_records(info)


def simulate(
    scene: Scene,
    q0,
    v0,
    duration: float,
    h: float,
    params: ContactParams | None = None,
    tau=None,
) -> Trajectory:
    """Simulate with rigid contact from ``(q0, v0)`` for ``duration`` seconds (:func:`step`).

    A thin wrapper of the package's one loop: ``spatial.simulate(RigidContact(scene, params),
    q0, v0, h, duration=duration, tau=tau)``.

    Parameters
    ----------
    scene : Scene
    q0, v0 :
        Initial state (as for :func:`step`).
    duration : float
        Simulated time (s), > 0.
    h : float
        Nominal step size (s), > 0; steps are shortened at located events.
    params : ContactParams, optional
    tau : array_like, shape (nv,), optional
        Constant applied generalized forces.

    Returns
    -------
    spatial.Trajectory
        With the records of :class:`RigidContact`, one row per state (the first describes the
        initial state: its penetration, no contacts, impact or event).

    Raises
    ------
    ValueError
        For invalid input.
    spatial.contact.LCPError
        If a contact problem cannot be solved.
    """
    return _simulate(RigidContact(scene, params), q0, v0, h, duration=duration, tau=tau)
