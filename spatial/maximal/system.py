"""Rigid bodies in maximal coordinates: the system, its joints and its ground (Sueda §1.9–1.13).

Bodies are numbered ``1 … N`` and ``0`` is the fixed world (ground), as in Featherstone's regular
numbering, :class:`spatial.Model` and :mod:`spatial.forces`; a system built from a tree by
:func:`~spatial.maximal.from_model` gives every body the number it has in the tree.  Every body
``b`` keeps its own state, the 4x4 frame ``T_b = T_world,b`` (Sueda writes E for this frame) and
the body twist ``φ_b = [ω; v]`` (Sueda §1.1–1.2).  The state arrays hold the ``N`` bodies
without the world: body ``b`` is row ``b - 1`` of ``T (..., N, 4, 4)`` and ``φ (..., N, 6)`` and
block ``b - 1`` of the generalized velocity ``Φ = [φ_1; …; φ_N]`` (6N).  The mass matrix is block
diagonal with the constant body inertias (Sueda §1.7).  Joints do not remove coordinates: they
add *constraint rows*.

This module holds the data: a :class:`System` of bodies, the :class:`JointConstraint` of each
joint (a joint model between a frame on the parent and a frame on the child) and the
:class:`GroundPlane` that contact points meet.  The formulation lives next to it:

* :mod:`~spatial.maximal.constraints` — joint rows ``G`` and position errors ``g`` (Sueda
  §1.10, §1.12), joint variables recovered from the frames;
* :mod:`~spatial.maximal.dynamics` — mass matrix, bias wrenches, gyroscopic Jacobian (Sueda
  §1.7, eq. 1.21);
* :mod:`~spatial.maximal.contact` — contact rows against the ground (Sueda §1.11);
* :mod:`~spatial.maximal.step` — the KKT step and the simulation loop (Sueda §1.8–1.13).

The state ``(T, φ)`` lives outside the system, in arrays ``T (..., N, 4, 4)`` and
``φ (..., N, 6)`` that may carry leading batch dimensions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._batched import skew_matrix
from .._validate import as_array, as_scalar_array
from ..forces.base import _assemble, _assemble_force
from ..inertia import validate_inertia
from ..joints import Joint
from ..se3 import _as_frame, _exp_se3, frame_inverse, log_se3
from ..systems import Step
from .constraints import _errors, _joint_states_at, _stack_q
from .dynamics import _bias, _gyroscopic_jacobian, mass_matrix
from .rigid_body import potential_energy
from .state import _check_system_state
from .step import _check_forces, kkt_step

__all__ = ["JointConstraint", "System"]

_DEFAULT_GRAVITY = (0.0, 0.0, -9.81)


def _single_frame(T, name: str) -> np.ndarray:
    T = _as_frame(T, name)
    if T.shape != (4, 4):
        raise ValueError(f"{name} must be a single 4x4 frame, got shape {T.shape}")
    return T


# ----------------------------------------------------------------------------- the system


@dataclass(frozen=True)
class JointConstraint:
    """One joint of a :class:`System`: a joint model between a frame on the parent and the child.

    Attributes
    ----------
    joint : Joint
        The joint model (:mod:`spatial.joints`); it allows ``v_J = S α`` of F_s relative to F_p.
    parent : int
        Parent body number, ``0`` for the fixed world.
    child : int
        Child body number, ``1 … N``.
    parent_frame : ndarray, shape (4, 4)
        ``T_parent,Fp``: the predecessor frame in the parent's coordinates (world coordinates when
        the parent is the world).
    child_frame : ndarray, shape (4, 4)
        ``T_child,Fs``: the successor frame in the child's coordinates.
    name : str
    rows : slice
        This joint's rows of the constraint matrix ``G`` (``6 - nv`` of them).
    q_index, v_index : slice
        Where its variables sit in the stacked joint variables (:func:`joint_coordinates`).
    """

    joint: Joint
    parent: int
    child: int
    parent_frame: np.ndarray
    child_frame: np.ndarray
    name: str
    rows: slice
    q_index: slice
    v_index: slice


@dataclass
class System:
    """Rigid bodies in maximal coordinates with joints and contact points (Sueda part 1).

    Build it with :meth:`add_body`, :meth:`add_joint` and :meth:`add_contact_points`; the state
    ``(T, φ)`` lives outside, in arrays ``T (..., N, 4, 4)`` and ``φ (..., N, 6)``.
    :func:`spatial.maximal.from_model` builds the system of a kinematic tree.

    Bodies are numbered ``1 … N`` in the order they are added and ``0`` is the fixed world (the
    numbering of :class:`spatial.Model`).  The state arrays have no row for the world: body ``b``
    is row ``b - 1`` of ``T`` and ``φ`` and block ``b - 1`` of the 6N generalized vectors.

    Parameters
    ----------
    gravity : array_like, shape (3,)
        Gravitational acceleration in world coordinates, default ``[0, 0, -9.81]``.

    Attributes
    ----------
    inertia : list of ndarray (6, 6)
        Body inertias in body coordinates (positive definite).
    names : list of str
    joints : list of JointConstraint
    contact_points : list of (int, ndarray (k, 3))
        Body number and body-fixed points that can touch a :class:`GroundPlane`.
    nq, nv : int
        Total numbers of joint position and velocity variables.
    m : int
        Number of joint constraint rows (rows of ``G``).

    Examples
    --------
    A pendulum: a rod hinged to the world at its top end.

    >>> import numpy as np, spatial as sp
    >>> from spatial.joints import Revolute
    >>> system = sp.maximal.System()
    >>> rod = system.add_body(sp.cylinder_inertia(1.0, 0.02, 1.0))
    >>> rod  # body 1; 0 is the world
    1
    >>> top = sp.frame(np.eye(3), [0.0, 0.0, 0.5])  # the hinge in the rod's (centre) frame
    >>> system.add_joint(Revolute("y"), 0, rod, child_frame=top)
    0
    >>> system.N, system.m
    (1, 5)
    """

    gravity: np.ndarray = field(default_factory=lambda: np.array(_DEFAULT_GRAVITY))
    inertia: list = field(default_factory=list, init=False)
    names: list = field(default_factory=list, init=False)
    joints: list = field(default_factory=list, init=False)
    contact_points: list = field(default_factory=list, init=False)
    nq: int = field(default=0, init=False)
    nv: int = field(default=0, init=False)
    m: int = field(default=0, init=False)

    def __post_init__(self):
        g = as_array(self.gravity, "gravity", (3,))
        if g.shape != (3,):
            raise ValueError(f"gravity must be a 3-vector, got shape {g.shape}")
        self.gravity = g

    @property
    def N(self) -> int:
        """Number of bodies."""
        return len(self.inertia)

    def _body_number(self, b, role: str, allow_world: bool) -> int:
        """Validated body number of a ``role`` ("parent", "child", "contact") body or name."""
        if isinstance(b, str):
            return self.body(b)
        bodies = f"bodies are numbered 1 … {self.N} and 0 is the world"
        if b is None:
            raise ValueError(f"{role} body None is not accepted: {bodies}")
        if isinstance(b, bool) or not isinstance(b, int | np.integer) or not 0 <= b <= self.N:
            raise ValueError(f"{role} body {b!r} is not in the system ({bodies})")
        if b == 0 and not allow_world:
            raise ValueError(f"{role} body 0 is the fixed world; it must be a body 1 … {self.N}")
        return int(b)

    def body(self, name: str) -> int:
        """Number ``1 … N`` of the body called ``name`` (ValueError if there is none)."""
        try:
            return self.names.index(name) + 1
        except ValueError:
            raise ValueError(f"no body named {name!r}") from None

    def add_body(self, inertia, name: str | None = None) -> int:
        """Append a body with spatial inertia ``inertia`` (body coordinates); return its number.

        The first body is number 1 (0 is the world), the next 2, and so on.

        Parameters
        ----------
        inertia : array_like, shape (6, 6)
            Positive definite rigid-body inertia about the body frame (e.g. :func:`spatial.mcI`).
        name : str, optional
            Unique name; default ``"body<i>"``.

        Raises
        ------
        ValueError
            If the inertia is not a single rigid-body inertia with a positive definite
            rotational inertia (:func:`spatial.validate_inertia`; a point mass is rejected,
            maximal coordinates need to invert the inertia), or the name is taken.
        """
        i = self.N + 1
        M = validate_inertia(inertia, f"inertia of body {i}")
        if M.shape != (6, 6):
            raise ValueError(f"inertia of body {i} must be a single 6x6 matrix, got {M.shape}")
        name = f"body{i}" if name is None else str(name)
        if name in self.names:
            raise ValueError(f"body name {name!r} is already used")
        self.inertia.append(M.copy())
        self.names.append(name)
        return i

    def add_joint(
        self,
        joint: Joint,
        parent,
        child,
        parent_frame=None,
        child_frame=None,
        name: str | None = None,
    ) -> int:
        """Connect ``child`` to ``parent`` (``0`` = world) by ``joint``; return the joint index.

        Parameters
        ----------
        joint : Joint
            Any joint of :mod:`spatial.joints` (``Free`` adds no rows).
        parent : int or str
            Parent body (number or name), ``0`` for the fixed world.
        child : int or str
            Child body (number ``1 … N`` or name).
        parent_frame : array_like, shape (4, 4), optional
            ``T_parent,Fp``: the joint's predecessor frame in parent coordinates (world
            coordinates for the world); default identity.
        child_frame : array_like, shape (4, 4), optional
            ``T_child,Fs``: the successor frame in child coordinates; default identity.
        name : str, optional
            Default ``"joint<j>"``.

        Raises
        ------
        ValueError
            If a body is not in the system (``None`` is not accepted: 0 is the world), the child
            is the world, parent and child coincide, a frame is not rigid, or
            the joint is not a usable joint model (not a :class:`~spatial.joints.Joint`, or its
            ``transform``, ``motion_subspace`` or ``constraint_subspace`` is missing or
            inconsistent: the constraint-force subspace ``T_c`` must be 6 x (6 - nv) with
            ``T_cᵀ S = 0`` and full rank).
        """
        j = len(self.joints)
        if not isinstance(joint, Joint):
            raise ValueError(f"unsupported joint type {joint!r}: expected a spatial.joints.Joint")
        _check_joint_model(joint)
        p = self._body_number(parent, "parent", allow_world=True)
        c = self._body_number(child, "child", allow_world=False)
        if p == c:
            raise ValueError(f"joint {j} connects body {c} to itself")
        frames = []
        for value, label in ((parent_frame, "parent_frame"), (child_frame, "child_frame")):
            frames.append(np.eye(4) if value is None else _single_frame(value, label).copy())
        r = 6 - joint.nv
        self.joints.append(
            JointConstraint(
                joint,
                p,
                c,
                frames[0],
                frames[1],
                f"joint{j}" if name is None else str(name),
                slice(self.m, self.m + r),
                slice(self.nq, self.nq + joint.nq),
                slice(self.nv, self.nv + joint.nv),
            )
        )
        self.m += r
        self.nq += joint.nq
        self.nv += joint.nv
        return j

    def add_contact_points(self, body, points) -> None:
        """Register body-fixed points that can touch a :class:`GroundPlane` (e.g. box corners).

        Parameters
        ----------
        body : int or str
            Body number ``1 … N`` or name.
        points : array_like, shape (k, 3)
            In body coordinates.

        Raises
        ------
        ValueError
            If the body is not a body of the system (the world has no contact points) or
            ``points`` is not a finite (k, 3) array.
        """
        b = self._body_number(body, "contact", allow_world=False)
        pts = as_array(points, "points", (3,))
        if pts.ndim != 2:
            raise ValueError(f"points must have shape (k, 3), got {pts.shape}")
        self.contact_points.append((b, pts.copy()))

    def neutral_joint_coordinates(self) -> np.ndarray:
        """Every joint at its zero position (stacked joint variables), shape (nq,)."""
        q = np.zeros(self.nq)
        for jc in self.joints:
            q[jc.q_index] = jc.joint.neutral()
        return q

    # ------------------------------------------------------------ the system interface
    # (spatial.systems): states are (T, φ); sp.simulate(system, T0, phi0, h, ...) runs kkt_step

    @property
    def NB(self) -> int:
        """Number of bodies (bodies ``1 … NB``, 0 is the world), as in the other formulations."""
        return self.N

    def check_state(self, T, phi) -> tuple[np.ndarray, np.ndarray]:
        """Validate ``T (..., N, 4, 4)`` and ``φ (..., N, 6)`` and broadcast their batches."""
        return _check_system_state(self, T, phi)

    def integrate(self, T, phi, dt) -> np.ndarray:
        """Every frame moved along its body twist: ``T_b exp(dt [φ_b])`` (Sueda eq. 1.29).

        Raises
        ------
        ValueError
            If the state does not match the system or ``dt`` is not finite.
        """
        T, phi = self.check_state(T, phi)
        return self._integrate(T, phi, as_scalar_array(dt, "dt"))

    def _integrate(self, T, phi, dt) -> np.ndarray:
        """:meth:`integrate` of a state :meth:`check_state` has validated (the loop's core)."""
        return T @ _exp_se3(dt * phi)

    def difference(self, T0, T1) -> np.ndarray:
        """Body twists ``φ`` with ``integrate(T0, φ, 1) == T1``: ``log(T0⁻¹ T1)`` per body."""
        return log_se3(frame_inverse(T0) @ T1)

    def mass_matrix(self, T=None) -> np.ndarray:
        """The constant block-diagonal ``M`` (6N x 6N) of the body inertias (Sueda §1.7)."""
        return mass_matrix(self)

    def energy(self, T, phi) -> tuple[np.ndarray, np.ndarray]:
        """Kinetic ``Σ ½ φ_bᵀ M_b φ_b`` and gravitational ``-Σ m_b g·c_b`` energy."""
        inertia = np.stack(self.inertia)
        kinetic = 0.5 * np.einsum("...bi,bij,...bj->...", phi, inertia, phi)
        return kinetic, potential_energy(inertia, T, self.gravity).sum(-1)

    def poses(self, T) -> np.ndarray:
        """The world frames of bodies ``1 … N``: the state itself."""
        return T

    def _free_forces(self, forces, what: str) -> tuple:
        """The validated ``forces`` of a system without joints (else ``ValueError``)."""
        if self.m:
            raise ValueError(
                f"{what} applies to free bodies only: this system's {len(self.joints)} joint(s) "
                "need its constrained KKT step (integrator=None)"
            )
        return _check_forces(forces)

    def force_jacobians(self, t, T, phi, *, forces=()) -> tuple:
        """``(f, K, D)`` of free bodies for the implicit steppers of :mod:`spatial.integrators`.

        ``f`` (6N) is the gyroscopic and gravity wrench ``ad(φ)ᵀMφ + M[0; Rᵀg]`` (Sueda eq. 1.21)
        plus ``forces`` (:mod:`spatial.forces`).  The Jacobians are complete: ``D`` holds the
        gyroscopic Jacobian (:func:`~spatial.maximal.gyroscopic_jacobian`) and the forces' ``D``;
        ``K`` the forces' ``K`` and gravity's, ``M_b [[0, 0], [[Rᵀg], 0]]`` per body (turning the
        body by ``α`` turns ``Rᵀg`` by ``[Rᵀg] α``).  Without gravity, backward Euler with these
        is :func:`~spatial.maximal.kkt_step` with ``gyroscopic="implicit"`` and no joints.

        Raises
        ------
        ValueError
            If the system has joints (they need the KKT step), a force is not a ``Force`` or
            the state does not match the system.
        """
        T, phi = self.check_state(T, phi)
        return self._force_jacobians(t, T, phi, forces=forces)

    def _force_jacobians(self, t, T, phi, *, forces=()) -> tuple:
        """:meth:`force_jacobians` of a state :meth:`check_state` has validated (the core)."""
        forces = self._free_forces(forces, "force_jacobians")
        f = _bias(self, T, phi)
        D = _gyroscopic_jacobian(self, phi)
        inertia = np.stack(self.inertia)
        g_body = np.einsum("...bji,j->...bi", T[..., :3, :3], self.gravity)  # Rᵀg per body
        blocks = inertia[..., :, 3:] @ skew_matrix(g_body)  # (..., N, 6, 3)
        K = np.zeros(D.shape)
        for i in range(self.N):
            K[..., 6 * i : 6 * i + 6, 6 * i : 6 * i + 3] = blocks[..., i, :, :]
        if forces:
            fa, Ka, Da = _assemble(forces, T, phi)
            f, K, D = f + fa, K + Ka, D + Da
        return f, K, D

    def accelerations(self, t, T, phi, *, forces=()) -> np.ndarray:
        """``φ̇ = M⁻¹(ad(φ)ᵀMφ + gravity + forces)`` of free bodies, shape ``(..., N, 6)``.

        Raises
        ------
        ValueError
            As :meth:`force_jacobians`.
        """
        T, phi = self.check_state(T, phi)
        return self._accelerations(t, T, phi, forces=forces)

    def _accelerations(self, t, T, phi, *, forces=()) -> np.ndarray:
        """:meth:`accelerations` of a state :meth:`check_state` has validated (the core)."""
        forces = self._free_forces(forces, "accelerations")
        f = _bias(self, T, phi)
        if forces:
            f = f + _assemble_force(forces, T, phi)
        a = np.linalg.solve(mass_matrix(self), f[..., None])[..., 0]
        return a.reshape(a.shape[:-1] + (self.N, 6))

    def initial_records(self, T, phi) -> dict:
        """The records of :meth:`step` for the start of a simulation (no wrench, no contact)."""
        joint_q, error = self._joints_at(T, None)
        wrench = np.zeros(joint_q.shape[:-1] + (len(self.joints), 6))
        return {"joint_q": joint_q, "error": error, "joint_wrench": wrench, "contact": None}

    def step(self, t, T, phi, h, carry=None, *, q0=None, **options) -> Step:
        """One :func:`~spatial.maximal.kkt_step` as a step of :func:`spatial.simulate`.

        ``options`` are those of ``kkt_step`` (``forces``, ``baumgarte``, ``regularization``,
        ``ground``, ``gyroscopic``); ``q0`` warm-starts the first step's joint variables, and
        the joint variables recovered at the end of a step warm-start the next (``carry``).
        The step records, at its end state, the joint variables ``joint_q``, the joint errors
        ``error``, and for the step the joint wrenches ``joint_wrench`` and the ground contacts
        ``contact``.
        """
        result = kkt_step(self, T, phi, h, q0=q0 if carry is None else carry, **options)
        joint_q, error = self._joints_at(result.T, result.q)
        info = {
            "joint_q": joint_q,
            "error": error,
            "joint_wrench": result.joint_wrench,
            "contact": result.contact,
        }
        return Step(result.T, result.phi, h, info, joint_q)

    def _joints_at(self, T, q0) -> tuple[np.ndarray, np.ndarray]:
        """Joint variables recovered at ``T`` (warm start ``q0``) and the joint errors ``g``."""
        states, batch = _joint_states_at(self, T, q0)
        return _stack_q(self, states, batch), _errors(self, states, batch)

    def __repr__(self) -> str:
        return f"System(N={self.N}, joints={len(self.joints)}, m={self.m})"


def _check_joint_model(joint: Joint) -> None:
    """Raise ``ValueError`` unless the joint gives consistent ``X_J``, ``S`` and ``T_c`` at rest."""
    try:
        q = joint.neutral()
        X = joint.transform(q)
        S = joint.motion_subspace(q)
        T_c = joint.constraint_subspace(q)
    except NotImplementedError:
        raise ValueError(
            f"unsupported joint type {type(joint).__name__}: it must implement transform, "
            "motion_subspace and constraint_subspace"
        ) from None
    r = 6 - joint.nv
    ok = (
        np.shape(X) == (6, 6)
        and np.shape(S) == (6, joint.nv)
        and np.shape(T_c) == (6, r)
        and np.abs(T_c.T @ S).max(initial=0.0) < 1e-9
        and np.linalg.matrix_rank(T_c) == r
    )
    if not ok:
        raise ValueError(
            f"unsupported joint type {type(joint).__name__}: its X_J, S (6 x nv) and "
            "T_c (6 x (6 - nv), T_cᵀ S = 0, full rank) are inconsistent"
        )
