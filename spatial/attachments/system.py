"""Rigid bodies and particles with attachments as one smooth system (ArtiSynth §0.17–0.19).

:class:`AttachedSystem` collects *components*, rigid bodies (state: frame ``T`` and body twist
``φ = [ω; v]``, as in :mod:`spatial.maximal`) and particles (state: world position ``x`` and
velocity ``ẋ``), and attaches some of them to others: a particle to a point of a body, a particle
to a weighted average of other particles (a point on a segment, a node inside an element), a body
to another body by a fixed transform.  Springs and cables (a spring along a path of particles, a
muscle over via points) act on particles, attached or not; gravity
on everything.

The state of the system is the state of the *active* components only (the ones not attached),
packed in one position vector (16 numbers per body frame, 3 per particle) and one velocity vector
(6 per body, 3 per particle): attached components are not unknowns.  Their positions follow from
their masters' (``x = p + R c``, ``x = Σ w_j x_j``, ``T_child = T_parent X``) masters first, in the
reverse of the elimination order, so an attached point is *exactly* where its masters put it; there
is nothing to drift.  Their velocities follow the same way through ``G``.

The forward dynamics of a state is one null-space reduction (:mod:`spatial.attachments.reduction`)
at the acceleration level: the attachments ``a_k = Σ_j G_kj a_j + g_k`` carry the velocity-product
offsets ``g_k = Ġ v`` (:func:`~spatial.attachments.point_bias` for a point on a body, zero for
weighted points and fixed frames, whose ``G`` is constant), the masters gain the attached inertia
and the fictitious forces (§0.19), and ``M' a_α = f'`` gives the accelerations of the active
components.  So every stepper of :mod:`spatial.integrators` (``sp.simulate(system, q0, v0, h,
integrator="rk4")``) steps an attached system, with the cost of the active components only.

Joints between bodies (:meth:`AttachedSystem.add_joint`, the rows of :mod:`spatial.maximal`) are
not eliminated: they make the system a time-stepped one, whose :meth:`~AttachedSystem.step`
(:mod:`spatial.attachments.stepping`) solves the reduced KKT system with the joint rows.
"""

from __future__ import annotations

import copy

import numpy as np

from .._validate import (
    as_array,
    as_scalar_array,
    nonnegative_scalar,
    positive_scalar,
)
from ..inertia import validate_inertia
from ..maximal.rigid_body import _coriolis, _gravity
from ..maximal.system import System as _MaximalSystem
from ..se3 import _as_frame, exp_se3, frame_inverse, log_se3
from ..systems import Step
from .bodies import _gamma, frame_on_body
from .graph import Attachment, Attachments, weighted_point
from .reduction import _expand, _reduce
from .stepping import _joint_rows, _step

__all__ = ["AttachedSystem"]

_BODY, _PARTICLE = "body", "particle"


def _com(I: np.ndarray) -> tuple[float, np.ndarray]:
    """Mass and centre of mass of a spatial inertia (upper-right block ``m [c]``)."""
    m = I[3, 3]
    S = I[:3, 3:]
    return m, np.array([S[2, 1], S[0, 2], S[1, 0]]) / m


class AttachedSystem:
    """Rigid bodies and particles, some attached to others, as a smooth system.

    Build it with :meth:`add_body`, :meth:`add_particle`, the ``attach_*`` methods,
    :meth:`add_spring`, :meth:`add_cable` and :meth:`add_joint`.  Then :meth:`pack` turns the
    frames and positions of the active components into a state.

    **Numbering** (the package's one rule, as in trees, maximal coordinates, forces and contact):
    ``0`` is the fixed world and the components, bodies and particles alike, are numbered
    ``1, 2, …, N`` in the order they are added (:meth:`add_body` and :meth:`add_particle` return
    the number).  Every method takes these numbers: ``add_joint(joint, 0, b)`` joins body ``b``
    to the world; ``None`` is refused.  Lists with one entry per component and none for the
    world (:attr:`kinds`, :attr:`names`, :attr:`inertia`, :meth:`velocities`) keep component
    ``i`` in row ``i - 1``; :meth:`poses` has one row per body and :meth:`points` one per
    particle, in the order of :attr:`bodies` and :attr:`particles` (the components' numbers).

    Parameters
    ----------
    gravity : array_like (3,)
        World gravity, default ``[0, 0, -9.81]``.

    Notes
    -----
    States are single (no batch dimensions).  ``NB`` counts the bodies, attached ones included,
    and :meth:`poses` returns all their frames; :meth:`points` returns all particle positions.
    Internally, row ``i - 1`` of the lists and of the attachment graph
    (:class:`~spatial.attachments.Attachments`, a matrix-level object without a world) is
    component ``i``.
    """

    def __init__(self, gravity=(0.0, 0.0, -9.81)):
        self.gravity = as_array(gravity, "gravity", (3,))
        self.kinds: list[str] = []
        self.names: list[str] = []
        self.inertia: list[np.ndarray] = []  # 6x6 for a body, m·1₃ for a particle
        self._links: list[
            tuple
        ] = []  # ("point", k, body, c) | ("weights", k, js, w) | ("frame", …)
        self.springs: list[tuple] = []
        self._att: Attachments | None = None
        self._mirror = _MaximalSystem(gravity=self.gravity)  # the bodies, for joint rows
        self._mirror_number: dict[int, int] = {}  # body component -> its number in _mirror

    # ------------------------------------------------------------------ building

    def _add(self, kind, inertia, name) -> int:
        """Append a component; return its row ``i - 1`` (its number is ``i``)."""
        self.kinds.append(kind)
        self.inertia.append(inertia)
        self.names.append(name or f"{kind} {len(self.kinds)}")
        self._att = None
        return len(self.kinds) - 1

    def add_body(self, inertia, name: str | None = None) -> int:
        """A rigid body with spatial inertia ``inertia`` (body coordinates); its number ``1 … N``.

        The default name is ``"body <number>"``.
        """
        row = self._add(_BODY, validate_inertia(inertia, "inertia").copy(), name)
        self._mirror_number[row] = self._mirror.add_body(self.inertia[row])
        return row + 1

    @property
    def bodies(self) -> list[int]:
        """The bodies' component numbers, in the order of the rows of :meth:`poses`."""
        return [i + 1 for i, kind in enumerate(self.kinds) if kind == _BODY]

    @property
    def particles(self) -> list[int]:
        """The particles' component numbers, in the order of the rows of :meth:`points`."""
        return [i + 1 for i, kind in enumerate(self.kinds) if kind == _PARTICLE]

    def add_joint(self, joint, parent, child, parent_frame=None, child_frame=None) -> int:
        """A joint between two bodies (``parent=0``: the world), as constraint rows.

        The rows are those of :class:`spatial.maximal.System` (Sueda §1.10–1.12); they make the
        system a time-stepped one: :meth:`step` solves them with the attachments eliminated, and
        :meth:`accelerations` refuses.

        Parameters
        ----------
        joint : spatial.joints.Joint
        parent : int
            Body number, or ``0`` for the fixed world.
        child : int
            Body number (``1 … N``).
        parent_frame, child_frame : array_like (4, 4), optional
            The joint frames on the parent (world coordinates for the world) and on the child.

        Returns
        -------
        int
            The joint's index.

        Raises
        ------
        ValueError
            If ``parent`` or ``child`` is not a body's number (``parent`` may be ``0``; ``None``
            is refused: the world is ``0``), or as :meth:`spatial.maximal.System.add_joint`.
        """
        c = self._mirror_number[self._component(child, _BODY, "child")]
        world = self._is_world(parent, "parent")
        p = 0 if world else self._mirror_number[self._component(parent, _BODY, "parent")]
        return self._mirror.add_joint(joint, p, c, parent_frame, child_frame)

    def add_particle(self, mass, name: str | None = None) -> int:
        """A particle of mass ``mass >= 0`` (zero: a massless marker, which must be attached).

        Returns its number ``1 … N``; the default name is ``"particle <number>"``.
        """
        return self._add(_PARTICLE, nonnegative_scalar(mass, "mass") * np.eye(3), name) + 1

    def _is_world(self, i, role: str) -> bool:
        """True for ``0``; a clear error for ``None`` (the world's old name here)."""
        if i is None:
            raise ValueError(
                f"{role} None: the world is 0 (AttachedSystem numbers the world 0 and its "
                "components 1 … N, as the rest of the package does)"
            )
        return not isinstance(i, bool) and isinstance(i, (int, np.integer)) and i == 0

    def _component(self, i, kind: str, role: str) -> int:
        """The row ``i - 1`` of component number ``i``, checked to be a ``kind``."""
        n = len(self.kinds)
        if self._is_world(i, role):
            raise ValueError(f"{role} 0 is the fixed world, not a {kind} (components 1 … {n})")
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 1 <= i <= n:
            raise ValueError(f"{role} {i!r} is not a component (1 … {n}; 0 is the world)")
        row = int(i) - 1
        if self.kinds[row] != kind:
            raise ValueError(
                f"{role} {i} ({self.names[row]!r}) is a {self.kinds[row]}, not a {kind}"
            )
        return row

    def _require_unattached(self, row: int, role: str) -> None:
        for link in self._links:
            if link[1] == row:
                raise ValueError(
                    f"{role} {row + 1} ({self.names[row]!r}) is already attached; a component "
                    "follows one attachment"
                )

    def attach_point(self, particle, body, c) -> None:
        """Fix ``particle`` at the point ``c`` (body coordinates) of ``body`` (both numbers)."""
        k = self._component(particle, _PARTICLE, "particle")
        b = self._component(body, _BODY, "body")
        self._require_unattached(k, "particle")
        c = as_array(c, "c", (3,))
        self._links.append(("point", k, b, c.copy(), _gamma(c)))
        self._att = None

    def attach_weighted(self, particle, masters, weights) -> None:
        """Make ``particle`` follow ``Σ w_j x_j`` of the particles ``masters`` (``Σ w_j = 1``)."""
        k = self._component(particle, _PARTICLE, "particle")
        js = [self._component(j, _PARTICLE, "master") for j in masters]
        self._require_unattached(k, "particle")
        w = weighted_point(k, js, weights, name=self.names[k])  # checks the weights
        weights = np.array([G[0, 0] for G in w.blocks])
        self._links.append(("weights", k, tuple(js), weights, w.blocks))
        self._att = None

    def attach_frame(self, child, parent, X) -> None:
        """Fix body ``child`` to body ``parent`` with ``X = T_parent,child``."""
        k = self._component(child, _BODY, "child")
        p = self._component(parent, _BODY, "parent")
        self._require_unattached(k, "child")
        X = _as_frame(X, "X")
        G = frame_on_body(k, p, X).blocks
        self._links.append(("frame", k, p, X.copy(), G))
        self._att = None

    def add_spring(self, i, j, stiffness, rest_length, damping=0.0) -> None:
        """A linear axial spring-damper between particles ``i`` and ``j`` (a two-point cable)."""
        self.add_cable([i, j], stiffness, rest_length, damping)

    def add_cable(self, path, stiffness, rest_length, damping=0.0) -> None:
        """A spring along a path of particles with one tension (ArtiSynth §0.14).

        The tension ``F = k (L - L₀) + d L̇`` depends on the total length ``L = Σ lᵢ`` of the
        path; every segment carries it, so path point ``p`` feels ``F (u_p - u_(p-1))`` with
        ``uᵢ`` the unit direction of segment ``i`` (end points: ``u₀`` and ``-u_last``), like a
        cable over pulleys.  With massless particles attached to bones as the path points this
        is a muscle with via points (:class:`spatial.forces.MultiPointSpring` on the bodies).

        Parameters
        ----------
        path : sequence of int
            Two or more particle numbers, in order along the cable.
        stiffness, rest_length, damping : float
            ``k > 0``, ``L₀ >= 0``, ``d >= 0``.

        Raises
        ------
        ValueError
            If a path point is not a particle, the path has fewer than two points or repeats a
            point in consecutive places, or a parameter is out of range.
        """
        path = [self._component(i, _PARTICLE, "cable point") for i in path]
        if len(path) < 2 or any(a == b for a, b in zip(path[:-1], path[1:], strict=True)):
            numbers = [i + 1 for i in path]
            raise ValueError(
                f"a cable needs two or more distinct consecutive points, got {numbers}"
            )
        k = positive_scalar(stiffness, "stiffness")
        L = nonnegative_scalar(rest_length, "rest_length")
        self.springs.append((tuple(path), k, L, nonnegative_scalar(damping, "damping")))

    # ------------------------------------------------------------------ structure

    def _sizes(self) -> list[int]:
        return [6 if kind == _BODY else 3 for kind in self.kinds]

    def _attachments_at(self, R: dict) -> list:
        """The attachments with the blocks ``G`` of a configuration (body rotations ``R``)."""
        out = []
        for kind, k, m, _, blocks in self._links:
            masters = m if kind == "weights" else (m,)
            if kind == "point":
                blocks = (blocks if m not in R else R[m] @ blocks,)
            who = "its masters" if kind == "weights" else self.names[m]
            out.append(Attachment(k, masters, tuple(blocks), None, f"{self.names[k]} on {who}"))
        return out

    @property
    def attachments(self) -> Attachments:
        """The checked attachment graph (built on first use after a change)."""
        if self._att is None:
            self._att = Attachments(self._sizes(), self._attachments_at({}))
            for i in self._att.active:
                if self.kinds[i] == _PARTICLE and self.inertia[i][0, 0] == 0.0:
                    raise ValueError(f"massless particle {self.names[i]!r} must be attached")
        return self._att

    def _layout(self) -> tuple[dict, dict]:
        """Slices of every active component in ``q`` and in ``v`` (cached with the graph)."""
        att = self.attachments
        if getattr(self, "_layout_of", None) is att:
            return self._layout_cache
        qs, vs, iq, iv = {}, {}, 0, 0
        for i in self.attachments.active:
            nq = 16 if self.kinds[i] == _BODY else 3
            qs[i], vs[i] = slice(iq, iq + nq), slice(iv, iv + self._sizes()[i])
            iq, iv = iq + nq, iv + self._sizes()[i]
        self._layout_of, self._layout_cache = att, (qs, vs)
        return qs, vs

    @property
    def NB(self) -> int:
        """Number of bodies (attached or not)."""
        return self.kinds.count(_BODY)

    @property
    def nq(self) -> int:
        return sum(16 if self.kinds[i] == _BODY else 3 for i in self.attachments.active)

    @property
    def nv(self) -> int:
        return self.attachments.n_active

    # ------------------------------------------------------------------ states

    def pack(
        self, positions: dict, velocities: dict | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """The state ``(q, v)`` from ``{component: T or x}`` and ``{component: φ or ẋ}``.

        Keys are component numbers ``1 … N``.  Every active component needs a position (a 4x4
        frame for a body, a point for a particle); velocities default to zero.  Attached
        components (and the world, 0) must not be given.
        """
        qs, vs = self._layout()
        velocities = velocities or {}
        for i in list(positions) + list(velocities):
            if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or i - 1 not in qs:
                raise ValueError(f"component {i!r} is attached or does not exist: not a state")
        q, v = np.zeros(self.nq), np.zeros(self.nv)
        for row, s in qs.items():
            i = row + 1
            if i not in positions:
                raise ValueError(f"component {i} ({self.names[row]!r}) needs a position")
            if self.kinds[row] == _BODY:
                q[s] = _as_frame(positions[i], f"position of {i}").reshape(16)
            else:
                q[s] = as_array(positions[i], f"position of {i}", (3,))
            if i in velocities:
                v[vs[row]] = as_array(velocities[i], f"velocity of {i}", (self._sizes()[row],))
        return q, v

    def check_state(self, q, v) -> tuple[np.ndarray, np.ndarray]:
        """Validate a single state ``q (nq,)``, ``v (nv,)`` (frames must be rigid)."""
        q, v = as_array(q, "q", (self.nq,)), as_array(v, "v", (self.nv,))
        if q.ndim != 1 or v.ndim != 1:
            raise ValueError("AttachedSystem states are single vectors (no batch dimensions)")
        qs, _ = self._layout()
        for i, s in qs.items():
            if self.kinds[i] == _BODY:
                _as_frame(q[s].reshape(4, 4), f"frame of {self.names[i]!r}")
        return q, v

    def _configuration(self, q) -> list:
        """Frames and positions of all components, attached ones from their masters."""
        att = self.attachments
        qs, _ = self._layout()
        out: list = [None] * len(self.kinds)
        for i, s in qs.items():
            out[i] = q[s].reshape(4, 4) if self.kinds[i] == _BODY else q[s]
        links = {link[1]: link for link in self._links}
        for a in reversed(att.order):  # masters first
            kind, k, m, data, _ = links[att.attachments[a].component]
            if kind == "point":
                out[k] = out[m][:3, 3] + out[m][:3, :3] @ data
            elif kind == "weights":
                out[k] = sum(w * out[j] for j, w in zip(m, data, strict=True))
            else:
                out[k] = out[m] @ data
        return out

    def _at_state(self, config) -> Attachments:
        """The attachment graph with the blocks ``G`` of this configuration (no re-checking)."""
        att = copy.copy(self.attachments)
        R = {i: config[i][:3, :3] for i, kind in enumerate(self.kinds) if kind == _BODY}
        att.attachments = tuple(self._attachments_at(R))
        return att

    def _full_velocities(self, att, v) -> np.ndarray:
        _, vs = self._layout()
        return _expand(att, np.concatenate([v[vs[i]] for i in att.active]))

    def integrate(self, q, v, dt) -> np.ndarray:
        """Bodies ``T exp(dt [φ])`` (Sueda eq. 1.29), particles ``x + dt ẋ``."""
        q, v = as_array(q, "q", (self.nq,)), as_array(v, "v", (self.nv,))
        dt = as_scalar_array(dt, "dt")
        qs, vs = self._layout()
        out = q.copy()
        for i, s in qs.items():
            if self.kinds[i] == _BODY:
                out[s] = (q[s].reshape(4, 4) @ exp_se3(dt * v[vs[i]])).reshape(16)
            else:
                out[s] = q[s] + dt * v[vs[i]]
        return out

    def difference(self, q0, q1) -> np.ndarray:
        """``v`` with ``integrate(q0, v, 1) == q1``."""
        q0, q1 = as_array(q0, "q0", (self.nq,)), as_array(q1, "q1", (self.nq,))
        qs, vs = self._layout()
        out = np.zeros(self.nv)
        for i, s in qs.items():
            if self.kinds[i] == _BODY:
                T0, T1 = q0[s].reshape(4, 4), q1[s].reshape(4, 4)
                out[vs[i]] = log_se3(frame_inverse(T0) @ T1)
            else:
                out[vs[i]] = q1[s] - q0[s]
        return out

    def _collect(self, q, kind: str) -> np.ndarray:
        q = as_array(q, "q", (self.nq,))
        if q.ndim > 1:
            return np.stack([self._collect(qi, kind) for qi in q])
        config = self._configuration(q)
        return np.array([config[i] for i, k in enumerate(self.kinds) if k == kind])

    def poses(self, q) -> np.ndarray:
        """World frames of all bodies (attached ones included), ``(..., NB, 4, 4)``.

        Row ``j`` is body ``bodies[j]`` (:attr:`bodies`): the bodies in the order they were added.
        """
        return self._collect(q, _BODY)

    def points(self, q) -> np.ndarray:
        """World positions of all particles (attached ones included), ``(..., P, 3)``.

        Row ``j`` is particle ``particles[j]`` (:attr:`particles`), in the order they were added.
        """
        return self._collect(q, _PARTICLE)

    def velocities(self, q, v) -> list:
        """The velocity of every component (``φ`` of a body, ``ẋ`` of a particle), recovered.

        Row ``i - 1`` is component ``i``.
        """
        q, v = self.check_state(q, v)
        att = self._at_state(self._configuration(q))
        x = self._full_velocities(att, v)
        return [x[s] for s in att.slices]

    # ------------------------------------------------------------------ mechanics

    def _full_mass(self) -> np.ndarray:
        att = self.attachments
        M = np.zeros((att.n, att.n))
        for s, I in zip(att.slices, self.inertia, strict=True):
            M[s, s] = I
        return M

    def _forces(self, config, att, x) -> np.ndarray:
        """Gravity, gyroscopic wrenches of bodies and spring forces, full size."""
        f = np.zeros(att.n)
        for i, s in enumerate(att.slices):
            I = self.inertia[i]
            if self.kinds[i] == _BODY:
                f[s] = _coriolis(I, x[s]) + _gravity(I, config[i], self.gravity)
            else:
                f[s] = I[0, 0] * self.gravity
        for path, k, L, d in self.springs:
            e = np.array([config[j] - config[i] for i, j in zip(path[:-1], path[1:], strict=True)])
            lengths = np.linalg.norm(e, axis=1)
            u = e / lengths[:, None]
            rates = [
                x[att.slices[j]] - x[att.slices[i]]
                for i, j in zip(path[:-1], path[1:], strict=True)
            ]
            tension = k * (lengths.sum() - L) + d * float(np.sum(u * np.array(rates)))
            for n, i in enumerate(path):
                pull = (u[n] if n < len(u) else 0.0) - (u[n - 1] if n > 0 else 0.0)
                f[att.slices[i]] += tension * pull
        return f

    def _biases(self, config, att, x) -> Attachments:
        """Acceleration-level offsets ``Ġ v`` (points on bodies only; the rest is constant)."""
        links = {link[1]: link for link in self._links}
        out = []
        for a in att.attachments:
            kind, k, m, data, _ = links[a.component]
            if kind == "point":
                phi = x[att.slices[m]]
                b = np.cross(phi[:3], phi[3:] + np.cross(phi[:3], data))
                a = a.with_offset(config[m][:3, :3] @ b)
            out.append(a)
        new = copy.copy(att)
        new.attachments = tuple(out)
        return new

    def mass_matrix(self, q) -> np.ndarray:
        """The reduced mass matrix ``P M Pᵀ`` of the active components (ArtiSynth eq. 0.21)."""
        q = as_array(q, "q", (self.nq,))
        att = self._at_state(self._configuration(q))
        return _reduce(att, self._full_mass(), np.zeros(att.n), np.zeros((0, att.n)), np.zeros(0)).M

    def step(self, t, q, v, h, carry=None, *, baumgarte=0.0, q0=None) -> Step:
        """One semi-implicit Euler step with the joints as KKT rows (:mod:`.stepping`).

        ``baumgarte`` is the gain ``γ >= 0`` (1/s) on the joints' position error (Sueda eq. 1.82);
        ``q0`` (or the carry of the previous step) warm-starts the joint variables.  The step
        records ``joint_q``, the joint ``error`` at its start and the ``joint_force`` ``λ/h``.
        """
        q, v = self.check_state(q, v)
        h = positive_scalar(h, "h (time step)")
        gamma = nonnegative_scalar(baumgarte, "baumgarte")
        return _step(self, q, v, h, gamma, q0 if carry is None else carry)

    def initial_records(self, q, v) -> dict:
        """The records of :meth:`step` for the start of a simulation (no joint force yet)."""
        _, error, joint_q = _joint_rows(
            self, self._configuration(as_array(q, "q", (self.nq,))), None
        )
        return {"joint_q": joint_q, "error": error, "joint_force": np.zeros(len(error))}

    def accelerations(self, t, q, v) -> np.ndarray:
        """``v̇`` of the active components: one null-space reduction at the acceleration level.

        Raises
        ------
        ValueError
            If the system has joints (they need :meth:`step`: ``integrator=None``), or as
            :meth:`check_state`.
        """
        if self._mirror.m:
            raise ValueError(
                f"this system has {len(self._mirror.joints)} joint(s): they are constraint rows of "
                "its time step, simulate it with integrator=None"
            )
        q, v = self.check_state(q, v)
        config = self._configuration(q)
        att = self._at_state(config)
        x = self._full_velocities(att, v)
        att = self._biases(config, att, x)
        red = _reduce(
            att, self._full_mass(), self._forces(config, att, x), np.zeros((0, att.n)), np.zeros(0)
        )
        a = np.linalg.solve(red.M, red.f)
        _, vs = self._layout()
        out = np.zeros(self.nv)
        for i in att.active:
            out[vs[i]] = a[att.active_slices[i]]
        return out

    def energy(self, q, v) -> tuple:
        """Kinetic and potential (gravity and springs) energy of all components.

        ``q`` and ``v`` may carry leading dimensions (a trajectory): the energies then have them.
        """
        q, v = as_array(q, "q", (self.nq,)), as_array(v, "v", (self.nv,))
        if q.ndim > 1 or v.ndim > 1:
            batch = np.broadcast_shapes(q.shape[:-1], v.shape[:-1])
            qb = np.broadcast_to(q, batch + q.shape[-1:]).reshape(-1, q.shape[-1])
            vb = np.broadcast_to(v, batch + v.shape[-1:]).reshape(-1, v.shape[-1])
            pairs = np.array([self._energy(qi, vi) for qi, vi in zip(qb, vb, strict=True)])
            return pairs[:, 0].reshape(batch), pairs[:, 1].reshape(batch)
        return self._energy(q, v)

    def _energy(self, q, v) -> tuple[float, float]:
        config = self._configuration(q)
        att = self._at_state(config)
        x = self._full_velocities(att, v)
        kinetic = potential = 0.0
        for i, s in enumerate(att.slices):
            I = self.inertia[i]
            kinetic += 0.5 * x[s] @ I @ x[s]
            if self.kinds[i] == _BODY:
                m, c = _com(I)
                potential -= m * self.gravity @ (config[i][:3, 3] + config[i][:3, :3] @ c)
            else:
                potential -= I[0, 0] * self.gravity @ config[i]
        for path, k, L, _ in self.springs:
            length = sum(
                np.linalg.norm(config[j] - config[i])
                for i, j in zip(path[:-1], path[1:], strict=True)
            )
            potential += 0.5 * k * (length - L) ** 2
        return kinetic, potential

    def __repr__(self) -> str:
        return (
            f"AttachedSystem({self.NB} bodies, {self.kinds.count(_PARTICLE)} particles, "
            f"{len(self._links)} attachments, {len(self.springs)} springs or cables)"
        )
