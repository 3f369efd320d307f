"""The one system interface: what every formulation of a mechanical system offers.

The package describes a rigid-body system once and solves it by several formulations: joint
coordinates on a kinematic tree (Featherstone ch. 5–9, with loops ch. 8), independent coordinates
of a closed loop (§8.11), maximal coordinates on SE(3) (Sueda part 1) and contact scenes
(Featherstone ch. 11, ArtiSynth §0.10).  They differ in their state, but each can answer the same
small set of questions, and that is all a simulation loop, an integrator or a drawing needs:

* **size** — ``NB`` bodies (the state arrays carry their own shapes: joint variables of a
  tree, body frames and twists in maximal coordinates);
* **states** — ``check_state(q, v)`` validates a state once, at the boundary;
* **configuration space** — ``integrate(q, v, dt)`` moves a configuration along a velocity and
  ``difference(q0, q1)`` is its inverse (so quaternions and frames are never added to);
* **mechanics** — ``mass_matrix(q)`` and ``energy(q, v) -> (kinetic, potential)``;
* **drawing** — ``poses(q)``: the world frames ``T_world,i`` (4x4) of bodies ``1 … NB``.

Body numbering is the same in every formulation: **0 is the fixed world (ground), the bodies are
1 … NB** (Featherstone's regular numbering, §4.1.2).  Arrays that hold one row per body and no
row for the world, such as ``poses``, keep body ``i`` in row ``i - 1``.

A system then moves in one of two ways:

* a **smooth** system (:class:`SmoothSystem`) gives ``accelerations(t, q, v, **options)``, the
  forward dynamics ``v̇ = FD(q, v)``, and any ODE integrator can advance it (RK4, symplectic
  Euler in :mod:`spatial.simulation`);
* a **time-stepped** system (:class:`SteppedSystem`) advances itself by a velocity-level step
  ``step(t, q, v, h, carry, **options) -> Step``, because impulses (contact, impacts) or the
  constraint projection of a KKT step do not fit an ODE.  ``carry`` lets a step hand
  information to the next (warm starts, the contacts found at the end of the step), and a step
  may take less time than asked for (``Step.h``, an event located inside the step).  What a
  step reports (``Step.info``) is recorded by the simulation; a system that can say the same of
  a state no step produced (the initial one) offers ``initial_records(q, v) -> dict``.

A smooth system whose ``accelerations`` takes states stacked along leading dimensions (one
array of many states, the same options for all) may say so with ``batched = True``: the
finite-difference Jacobians of :class:`spatial.integrators.Linearized` then evaluate all their
displaced states in one call.

A system may also look at the finished trajectory once, ``check_trajectory(q, v, **options)``
(e.g. warn that closed loops drifted open, without a warning per integration stage).

Three adapters here turn a ``Model`` into a smooth system: :class:`TreeSystem` (joint
coordinates with Featherstone's ABA, with or without loop joints), :class:`RedmaxSystem` (the same
coordinates with Sueda's REDMAX equations of motion) and :class:`ClosureSystem` (a closed-loop
model in the independent coordinates of a loop-closure function, §8.11); :class:`CoupledSystem`
adds mass-spring nodes riding on a tree or hanging free (Sueda §2.7).  The
maximal-coordinate ``System`` (and ``maximal.FreeBody``, one free body) implements the interface
itself; a contact ``Scene`` does through ``contact.SceneSystem``, and ``contact.RigidContact`` /
``contact.SoftContact`` add its time steps.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from . import reduced as _reduced
from ._batched import T as _T
from ._batched import mv as _mv
from ._validate import as_array, vector
from .dynamics import aba, crba
from .dynamics.aba import _aba_checked  # unvalidated core, for validated states
from .dynamics.loops import (
    POSITION_TOL,
    VELOCITY_TOL,
    LoopClosure,
    check_loop_trajectory,
    loop_forward_dynamics,
    reduced_forward_dynamics,
)
from .dynamics.rnea import _check_f_ext
from .kinematics import _energies, body_poses, kinetic_energy, potential_energy
from .model import Model
from .reduced import (
    ParticleSystem,
    coupled_energy,
    coupled_forward_dynamics,
    coupled_mass_matrix,
    loop_point_constraints,
    redmax_forward_dynamics,
    redmax_mass_matrix,
)
from .reduced.deformable import _coupled_forward_dynamics
from .symbolic import generate

__all__ = [
    "MechanicalSystem",
    "SmoothSystem",
    "SteppedSystem",
    "Step",
    "TreeSystem",
    "ClosureSystem",
    "RedmaxSystem",
    "CoupledSystem",
    "as_system",
]


@runtime_checkable
class MechanicalSystem(Protocol):
    """What every formulation of a rigid-body system offers (see the module docstring)."""

    @property
    def NB(self) -> int: ...  # number of bodies, numbered 1 … NB (0 = world)

    def check_state(self, q, v) -> tuple[np.ndarray, np.ndarray]: ...

    def integrate(self, q, v, dt) -> np.ndarray: ...

    def difference(self, q0, q1) -> np.ndarray: ...

    def mass_matrix(self, q) -> np.ndarray: ...

    def energy(self, q, v) -> tuple[np.ndarray, np.ndarray]: ...

    def poses(self, q) -> np.ndarray: ...


@runtime_checkable
class SmoothSystem(MechanicalSystem, Protocol):
    """A system whose motion is an ODE ``v̇ = accelerations(t, q, v)``."""

    def accelerations(self, t: float, q, v, **options) -> np.ndarray: ...


@runtime_checkable
class SteppedSystem(MechanicalSystem, Protocol):
    """A system that advances itself by a velocity-level time step."""

    def step(self, t: float, q, v, h: float, carry=None, **options) -> Step: ...


@dataclass
class Step:
    """The outcome of one time step of a :class:`SteppedSystem`.

    Attributes
    ----------
    q, v : ndarray
        The state at the end of the step.
    h : float
        The time the step took (at most the step asked for; less at a located event).
    info : dict
        What the step wants recorded, one entry per quantity (e.g. contact counts, constraint
        errors, joint wrenches); :func:`spatial.simulation.simulate` stacks them step by step.
    carry : object
        Handed to the next step (e.g. a warm start), ``None`` if nothing is carried.
    """

    q: np.ndarray
    v: np.ndarray
    h: float
    info: dict = field(default_factory=dict)
    carry: Any = None


def _evaluate(tau, t: float, q, v):
    """A force given as a constant array, as ``tau(t, q, v)`` or as ``None``."""
    return tau(t, q, v) if callable(tau) else tau


def _tree_poses(model: Model, q) -> np.ndarray:
    """World frames of bodies 1 … NB (row ``i - 1`` is body ``i``)."""
    return body_poses(model, q)[..., 1:, :, :]


class TreeSystem:
    """A kinematic-tree ``Model`` in joint coordinates as a smooth system.

    The accelerations are Table 7.1's ABA for a tree and §8.5's constrained forward dynamics
    (:func:`~spatial.dynamics.loops.loop_forward_dynamics`) for a model with loop joints.

    Parameters
    ----------
    model : Model
    generated : bool
        Compute the ABA with the straight-line code generated for this model
        (:func:`spatial.symbolic.generate`, Featherstone §10.4) instead of the dense
        :func:`~spatial.dynamics.aba`: the same accelerations to round-off, several times
        faster per call.  The code is generated (or taken from the cache) when the system is
        made, so make a new system after changing the model.  Only for trees: a model with
        loop joints raises.

    Raises
    ------
    ValueError
        If ``model`` is not a ``Model``, or ``generated`` is asked for a model with loop
        joints (:class:`~spatial.symbolic.GenerationError`).

    Notes
    -----
    :meth:`accelerations` takes the applied forces as options, so one system serves many
    simulations: ``tau`` (joint forces, an array or ``tau(t, q, qd)``), ``f_ext`` (external
    forces on the bodies, Featherstone eq. 5.9 form), and for closed loops ``tau_loop`` (active
    loop-joint forces), ``stabilization`` (Baumgarte gains ``(α, β)``, §8.3) and ``method``
    (the §8.5 method).
    """

    def __init__(self, model: Model, generated: bool = False):
        if not isinstance(model, Model):
            raise ValueError(f"TreeSystem needs a spatial.Model, got {type(model).__name__}")
        self.model = model
        self._generated_aba = None
        if generated:
            self._generated_aba = generate(model, "aba")

    @property
    def generated(self) -> bool:
        """Whether :meth:`accelerations` runs the generated ABA (see the class docstring)."""
        return self._generated_aba is not None

    nq = property(lambda self: self.model.nq)
    nv = property(lambda self: self.model.nv)
    NB = property(lambda self: self.model.NB)

    @property
    def batched(self) -> bool:
        """Whether :meth:`accelerations` takes stacked states: a tree's ABA does (module
        docstring); the closed-loop solve is left to one state at a time."""
        return self.model.NL == 0

    def check_state(self, q, v):
        q, v, _, _ = self.model.check_state(q, v)
        return q, v

    def integrate(self, q, v, dt):
        return self.model.integrate(q, v, dt)

    def difference(self, q0, q1):
        return self.model.difference(q0, q1)

    def mass_matrix(self, q):
        """``H(q)`` of the tree; of the spanning tree for a closed-loop model (§8.1)."""
        return crba(self.model.spanning_tree(), q)

    def energy(self, q, v):
        q, v, _, _ = self.model.check_state(q, v)
        return _energies(self.model, q, v)  # one forward pass for both

    def poses(self, q):
        return _tree_poses(self.model, q)

    def accelerations(
        self,
        t,
        q,
        v,
        tau=None,
        f_ext=None,
        tau_loop=None,
        stabilization=None,
        method="schur",
        position_tol=POSITION_TOL,
        velocity_tol=VELOCITY_TOL,
    ):
        """``q̈`` at time ``t``: ABA for a tree, §8.5 for a closed-loop model.

        The loop tolerances are not checked stage by stage but once over the whole trajectory
        (:meth:`check_trajectory`).
        """
        tau_t = _evaluate(tau, t, q, v)
        if self.model.NL == 0:
            if tau_loop is not None or stabilization is not None:
                raise ValueError("tau_loop and stabilization apply only to models with loops")
            tau_t = np.zeros(self.nv) if tau_t is None else tau_t
            if self._generated_aba is not None:
                return self._generated_aba(q, v, tau_t, f_ext=f_ext)
            return aba(self.model, q, v, tau_t, f_ext)
        qdd, _ = loop_forward_dynamics(
            self.model, q, v, tau_t, tau_loop, f_ext, stabilization, method=method, check=False
        )
        return qdd

    def _accelerations(self, t, q, v, tau=None, f_ext=None, **options):
        """:meth:`accelerations` for ``q`` and ``v`` that :meth:`check_state` has validated.

        The core :func:`spatial.simulate`'s loop calls at every stage, where the state is
        already checked: for a tree only the applied forces are validated before the ABA runs
        (the generated code, or the dense passes with :func:`~spatial.aba`'s overflow and
        singularity errors); a model with loops takes :meth:`accelerations`.
        """
        if self.model.NL or options:
            return self.accelerations(t, q, v, tau, f_ext, **options)
        tau_t = _evaluate(tau, t, q, v)
        if tau_t is None:
            tau_t = np.zeros(v.shape, q.dtype)
        else:
            tau_t = self.model.check_state(tau=tau_t)[3]
        if tau_t.dtype != q.dtype or v.dtype != q.dtype:  # mixed types: the general route
            return self.accelerations(t, q, v, tau_t, f_ext)
        if self._generated_aba is not None:
            return self._generated_aba._call_checked([q, v, tau_t], f_ext)
        return _aba_checked(self.model, q, v, tau_t, _check_f_ext(self.model, f_ext))

    def _integrate(self, q, v, dt):
        """:meth:`integrate` for ``q`` and ``v`` that :meth:`check_state` has validated."""
        return self.model._per_joint("integrate", q, v, dt)

    def check_trajectory(
        self, q, v, position_tol=POSITION_TOL, velocity_tol=VELOCITY_TOL, **_
    ) -> None:
        """Warn once if a simulated closed-loop trajectory drifted off its loops (§8.3).

        Called by :func:`spatial.simulate` after the run with the simulation's options.

        Warns
        -----
        LoopConstraintWarning
            As :func:`~spatial.dynamics.loops.check_loop_trajectory`.
        """
        if self.model.NL:
            check_loop_trajectory(
                self.model, q, v, position_tol, velocity_tol, who="simulate", stacklevel=3
            )

    def __repr__(self) -> str:
        return f"TreeSystem({self.model!r}{', generated=True' if self.generated else ''})"


class RedmaxSystem(TreeSystem):
    """A kinematic tree in REDMAX's reduced coordinates (Sueda part 2, §2.1–2.3, §2.8).

    The same state as :class:`TreeSystem` (joint variables), but the dynamics come from the
    maximal description through the Jacobian: ``M_r q̈ = f_r`` with ``M_r = Jᵀ M_m J`` and
    ``f_r = Jᵀ(f_m - M_m J̇ q̇) + τ`` (eq. 2.18), so a simulation by REDMAX and one by ABA of the
    same model must agree to round-off.

    With constraints (a model's loop joints, or any bilateral rows of
    :mod:`spatial.reduced`), the accelerations solve the KKT system of eq. 2.98 instead
    (:func:`~spatial.reduced.constrained_forward_dynamics`), one state at a time.

    Parameters
    ----------
    model : Model
        A tree, or a model with loop joints: each loop joint is closed by its point
        constraint (:func:`~spatial.reduced.loop_point_constraints`, Sueda §2.8), and the
        REDMAX equations are those of ``model.spanning_tree()`` with these rows.
    constraints : sequence of PointConstraint or JointConstraint, optional
        More bilateral constraints on the tree (Sueda §2.8), after the loops' rows.  To close
        a loop some other way, give the rows with ``model.spanning_tree()`` as the model.

    Raises
    ------
    ValueError
        If ``model`` is not a ``Model``; if it has a loop joint that has no point constraint
        (neither revolute nor a ball joint): the tree's REDMAX equations would ignore it
        (:meth:`~spatial.Model.check_tree`).
    """

    def __init__(self, model: Model, constraints=None):
        super().__init__(model)
        self._tree = model.spanning_tree()  # the model itself when it has no loop joints
        closing = []
        if model.NL:
            try:
                closing = loop_point_constraints(model)
            except ValueError as why:
                try:
                    model.check_tree("RedmaxSystem")
                except ValueError as refusal:
                    raise ValueError(f"{refusal} ({why})") from None
        self.constraints = tuple(closing) + tuple(constraints or ())

    def mass_matrix(self, q):
        """``M_r = JᵀM_mJ`` (eq. 2.18): ``H`` of the tree (of the spanning tree with loops)."""
        return redmax_mass_matrix(self._tree, q)

    def accelerations(self, t, q, v, tau=None, f_ext=None, stabilization=None):
        """``q̈`` from eq. 2.18, or eq. 2.98 with the constraints; ``tau`` constant or
        ``tau(t, q, qd)``; ``stabilization`` the Baumgarte gains ``(α, β)`` of the constraint
        rows (constrained systems only)."""
        tau_t = _evaluate(tau, t, q, v)
        if not self.constraints:
            if stabilization is not None:
                raise ValueError("stabilization applies only to a RedmaxSystem with constraints")
            return redmax_forward_dynamics(self._tree, q, v, tau_t, f_ext)
        return _reduced.constrained_forward_dynamics(
            self._tree, q, v, tau_t, self.constraints, f_ext=f_ext, stabilization=stabilization
        ).qdd

    def __repr__(self) -> str:
        return f"RedmaxSystem({self.model!r})"


class ClosureSystem:
    """A closed-loop model in independent coordinates ``y`` (Featherstone §8.11) as a system.

    The state is ``(y, ẏ)``; the tree's state follows as ``q = γ(y)``, ``q̇ = G ẏ``, so the loops
    stay closed however long the simulation runs and need no stabilization.

    Parameters
    ----------
    model : Model
    closure : LoopClosure
        E.g. :func:`~spatial.dynamics.loops.four_bar_closure`.
    """

    def __init__(self, model: Model, closure: LoopClosure):
        if not isinstance(model, Model):
            raise ValueError(f"ClosureSystem needs a spatial.Model, got {type(model).__name__}")
        if not isinstance(closure, LoopClosure):
            raise ValueError(f"closure must be a LoopClosure, got {closure!r}")
        self.model, self.closure = model, closure

    nq = property(lambda self: self.closure.ny)
    nv = property(lambda self: self.closure.ny)
    NB = property(lambda self: self.model.NB)

    def check_state(self, q, v):
        return as_array(q, "y", (self.nq,)), as_array(v, "yd", (self.nv,))

    def integrate(self, q, v, dt):
        return q + dt * v

    def difference(self, q0, q1):
        return q1 - q0

    def tree_state(self, y, yd) -> tuple[np.ndarray, np.ndarray]:
        """The tree's ``(q, q̇) = (γ(y), G ẏ)`` (eqs. 8.56–8.57)."""
        q, G, _ = self.closure.jacobians(y, yd)
        return q, _mv(G, yd)

    def mass_matrix(self, q):
        """``GᵀHG`` at ``y = q`` (eq. 8.46)."""
        tree_q, G, _ = self.closure.jacobians(q, np.zeros(self.nv))
        return _T(G) @ crba(self.model.spanning_tree(), tree_q) @ G

    def energy(self, q, v):
        tree_q, tree_v = self.tree_state(q, v)
        return kinetic_energy(self.model, tree_q, tree_v), potential_energy(self.model, tree_q)

    def poses(self, q):
        return _tree_poses(self.model, self.closure.gamma(q))

    def accelerations(self, t, q, v, tau=None, tau_loop=None, f_ext=None):
        """``ÿ`` (eq. 8.45); ``tau`` may be ``tau(t, q, qd)`` of the tree's state."""
        if callable(tau):
            tree_q, tree_v = self.tree_state(q, v)
            tau = tau(t, tree_q, tree_v)
        return reduced_forward_dynamics(self.model, self.closure, q, v, tau, tau_loop, f_ext)

    def __repr__(self) -> str:
        return f"ClosureSystem({self.model!r}, ny={self.closure.ny})"


class CoupledSystem:
    """A REDMAX tree coupled to mass-spring nodes (Sueda §2.7) as a smooth system.

    The state stacks the tree's joint variables and the world positions of the free nodes,
    ``q = (q_tree, x_free.ravel())`` and ``v = (q̇_tree, ẋ_free.ravel())``; nodes attached to
    bodies ride along and have no coordinates of their own.  The accelerations solve eq. 2.92
    (:func:`~spatial.reduced.coupled_forward_dynamics`).  ``energy`` counts the springs' energy
    with gravity's in the potential, so the total is conserved without damping.  Single
    (unbatched) states only, as in :mod:`spatial.reduced.deformable`.

    Parameters
    ----------
    model : Model
        A tree (no loop joints).
    particles : ParticleSystem

    Raises
    ------
    ValueError
        If ``model`` is not a ``Model`` or has loop joints (:meth:`~spatial.Model.check_tree`),
        or ``particles`` is not a ``ParticleSystem``.
    """

    def __init__(self, model: Model, particles: ParticleSystem):
        if not isinstance(model, Model):
            raise ValueError(f"CoupledSystem needs a spatial.Model, got {type(model).__name__}")
        model.check_tree("CoupledSystem")
        if not isinstance(particles, ParticleSystem):
            raise ValueError(f"particles must be a ParticleSystem, got {type(particles).__name__}")
        self.model, self.particles = model, particles
        self.n_free = len(particles.free)

    NB = property(lambda self: self.model.NB)

    def split(self, q, v=None):
        """``(q_tree, x_free)`` or, with ``v``, ``(q_tree, x_free, q̇_tree, ẋ_free)``."""
        nq, nv = self.model.nq, self.model.nv
        parts = [q[..., :nq], q[..., nq:].reshape(q.shape[:-1] + (self.n_free, 3))]
        if v is not None:
            parts += [v[..., :nv], v[..., nv:].reshape(v.shape[:-1] + (self.n_free, 3))]
        return tuple(parts)

    def check_state(self, q, v):
        sizes = (self.model.nq + 3 * self.n_free, self.model.nv + 3 * self.n_free)
        if np.shape(q) != (sizes[0],) or np.shape(v) != (sizes[1],):
            raise ValueError(
                f"CoupledSystem: q and v must have shapes ({sizes[0]},) and ({sizes[1]},) "
                f"(tree, then 3 per free node), got {np.shape(q)} and {np.shape(v)}"
            )
        q, v = vector(q, "q"), vector(v, "v")
        coupled_energy(self.model, self.particles, *self.split(q, v))  # validates the parts
        return q, v

    def integrate(self, q, v, dt):
        nq, nv = self.model.nq, self.model.nv
        q_tree = self.model.integrate(q[..., :nq], v[..., :nv], dt)
        return np.concatenate([q_tree, q[..., nq:] + dt * v[..., nv:]], axis=-1)

    def difference(self, q0, q1):
        nq = self.model.nq
        dq = self.model.difference(q0[..., :nq], q1[..., :nq])
        return np.concatenate([dq, q1[..., nq:] - q0[..., nq:]], axis=-1)

    def mass_matrix(self, q):
        q_tree, x = self.split(q)
        return coupled_mass_matrix(self.model, self.particles, q_tree, x)

    def energy(self, q, v):
        """``(T, V)`` per state (leading dimensions looped), springs included in ``V``."""
        lead = q.shape[:-1]
        rows = [
            coupled_energy(self.model, self.particles, *self.split(qk, vk))
            for qk, vk in zip(q.reshape(-1, q.shape[-1]), v.reshape(-1, v.shape[-1]), strict=True)
        ]
        T, V = np.array(rows).reshape(lead + (2,)).transpose((-1, *range(len(lead))))
        return T, V

    def poses(self, q):
        return _tree_poses(self.model, q[..., : self.model.nq])

    def accelerations(self, t, q, v, tau=None):
        """``(q̈_tree, ẍ_free)`` stacked; ``tau`` constant or ``tau(t, q, v)`` (tree joints)."""
        tau_t = _evaluate(tau, t, q, v)
        qdd, xdd = coupled_forward_dynamics(self.model, self.particles, *self.split(q, v), tau_t)
        return np.concatenate([qdd, xdd.ravel()])

    def _accelerations(self, t, q, v, tau=None):
        """:meth:`accelerations` for ``q`` and ``v`` that :meth:`check_state` has validated.

        The core :func:`spatial.simulate`'s loop calls at every stage: only ``tau`` is checked.
        """
        tau_t = _evaluate(tau, t, q, v)
        if tau_t is not None:
            tau_t = self.model.check_state(tau=tau_t)[3]
        qdd, xdd = _coupled_forward_dynamics(self.model, self.particles, *self.split(q, v), tau_t)
        return np.concatenate([qdd, xdd.ravel()])

    def __repr__(self) -> str:
        return f"CoupledSystem({self.model!r}, {len(self.particles.masses)} nodes)"


def _core(system, name: str):
    """The system's method ``name``, or its unvalidating core ``_name`` when it has one.

    The loop validates the state once (``check_state``) and checks every result, so a system
    may offer cores that skip validating ``q`` and ``v`` again (``TreeSystem._accelerations``,
    ``TreeSystem._integrate``, ``maximal.System._force_jacobians``).  A core is used only if
    the class that defines the method defines the core too, so that a subclass overriding the
    method is never bypassed.
    """
    for klass in type(system).__mro__:
        if name in vars(klass):
            if "_" + name in vars(klass):
                return getattr(system, "_" + name)
            break
    return getattr(system, name)


class _Cores:
    """``system`` seen through its unvalidating cores (:func:`_core`) for a loop whose state is
    already validated: ``accelerations`` and ``integrate`` (when the system has them) are the
    cores, every other attribute is the system's own."""

    def __init__(self, system):
        self._system = system
        for name in ("accelerations", "integrate", "force_jacobians"):
            if hasattr(system, name):
                setattr(self, name, _core(system, name))

    def __getattr__(self, name: str):
        if name == "_system":
            raise AttributeError(name)
        return getattr(self._system, name)


def as_system(system) -> MechanicalSystem:
    """``system`` as a :class:`MechanicalSystem`: a ``Model`` becomes a :class:`TreeSystem`.

    Raises
    ------
    ValueError
        If ``system`` neither is a ``Model`` nor implements the interface.
    """
    if isinstance(system, Model):
        return TreeSystem(system)
    if isinstance(system, SmoothSystem | SteppedSystem):
        return system
    missing = [
        name
        for name in (*_INTERFACE, "accelerations or step")
        if not any(hasattr(system, n) for n in name.split(" or "))
    ]
    raise ValueError(
        f"{type(system).__name__} is not a mechanical system: it lacks {', '.join(missing)}"
    )


_INTERFACE: tuple[str, ...] = (
    "NB",
    "check_state",
    "integrate",
    "difference",
    "mass_matrix",
    "energy",
    "poses",
)
