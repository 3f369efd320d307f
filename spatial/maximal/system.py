"""Rigid bodies in maximal coordinates: joints and contact as constraints (Sueda §1.9–1.13).

Every body ``i = 0 … N-1`` keeps its own state, the frame ``E_i = E_world,i`` (4x4) and the body
twist ``φ_i = [ω; v]`` (Sueda §1.1–1.2); the generalized velocity is the stack
``Φ = [φ_0; …; φ_{N-1}]`` (6N) and the mass matrix is block diagonal with the constant body
inertias (Sueda §1.7).  Joints do not remove coordinates: they add *constraint rows*.  Body
indices follow :mod:`spatial.forces` (``0 … N-1``, ``None`` = the fixed world).

Joint constraints (Sueda §1.10)
-------------------------------
A joint connects a predecessor frame F_p, fixed on the parent body (``parent_frame =
E_parent,Fp``), with a successor frame F_s fixed on the child (``child_frame = E_child,Fs``).
Any joint of :mod:`spatial.joints` describes the allowed relative motion: F_s moves relative to
F_p with the twist ``v_J = S α`` (F_s coordinates, Featherstone §4.4).  In maximal coordinates
the relative twist of the two frames, in F_s coordinates, is

    v_rel = Ad(E_s,child) φ_child - Ad(E_s,parent) φ_parent,

with ``E_s,b`` the pose of body ``b`` seen from F_s (the blocks of Sueda eq. 1.69, whose printed
form is garbled; this is our derivation).  The joint allows ``v_rel`` in the range of ``S`` and
forbids the rest.  The joint's constraint-force subspace ``T`` (``Tᵀ S = 0``, Featherstone eq.
3.36) picks out the forbidden components, so the joint contributes the ``6 - nv`` rows

    G_joint Φ = Tᵀ v_rel = 0                                          (Sueda eqs. 1.69–1.70)

to the constraint matrix ``G``.  When ``T`` selects coordinate axes these are literally rows of
the adjoint matrices, as in Sueda's presentation ("drop the rows of the allowed motions").

The multipliers have a physical meaning: ``T λ`` is the constraint impulse (``T λ / h`` the
constraint wrench) that the parent exerts on the child, in F_s coordinates about F_s's origin,
the same quantity as the joint force ``f_i`` of the RNEA (Featherstone eq. 5.10) minus its
motion part ``S τ``.

Position-level constraint (Sueda §1.12)
---------------------------------------
The joint variables ``q̂`` that best explain the current relative pose
``E_ps = E_world,Fp⁻¹ E_world,Fs`` are found by Gauss–Newton on SE(3): repeat
``e = log(E_J(q̂)⁻¹ E_ps)``, ``q̂ ← integrate(q̂, S⁺ e)`` until the step vanishes (the joint's own
``integrate`` keeps quaternions unit).  The position error is ``g = Tᵀ e``: zero exactly when the
joint is intact, and its derivative along ``E_b ← E_b exp([δ_b])`` equals ``G δ`` on the
constraint manifold.  The search starts from a warm start (the previous step's ``q̂``), so joints
that turn through many revolutions (helical, rack and pinion) keep the right branch.

The step (Sueda §1.8–1.12, ArtiSynth §0.6, §0.10–0.11)
--------------------------------------------------------
With the forces of :mod:`spatial.forces` linearized as ``f + K δx + D δφ`` (``K = ∂f/∂x``,
``D = ∂f/∂φ``, that package's conventions), the linearly implicit Euler step (Sueda eq. 1.30,
written with the sign conventions of :mod:`spatial.forces`) and the constraints give the KKT
system

    M̂ Φ⁺ = f̃ + Gᵀλ,      G Φ⁺ = -γ g,                     (Sueda eqs. 1.73–1.74, 1.82)
    M̂ = M - h D - h² K,   f̃ = M Φ + h (ad(φ)ᵀMφ + f_gravity + f - D Φ),

followed by ``E_i⁺ = E_i exp(h [φ_i⁺])`` (Sueda eq. 1.29).

Gyroscopic wrench.  Sueda eq. 1.28 evaluates ``c(φ) = ad(φ)ᵀMφ`` at the start of the step.  Its
error is first order like the rest of the step, but it always has the same sign: ``c`` does no work
(``φᵀc = 0``), so for a free body the step changes the kinetic energy by ``+½ h² cᵀM⁻¹c >= 0``,
every step.  A chain that turns quickly (ball and cylindrical joints) gains energy this way, faster
the faster it spins.  The ``gyroscopic`` option of :func:`kkt_step` treats ``c`` like a damping
force instead, linearized about the current twist with ``D_gyro = ∂c/∂φ``
(:func:`gyroscopic_jacobian`) and weighted by ``θ``: ``M̂`` gains ``-θ h D_gyro`` and ``f̃`` gains
``-θ h D_gyro Φ`` (the role of ``D`` in Sueda eq. 1.30).  Since ``φᵀ D_gyro = -cᵀ``, the kinetic
energy change of a free body becomes ``(1 - 2θ) ½ h² cᵀM⁻¹c + O(h³)``: ``θ = 1`` ("implicit") loses
what the explicit step gains, ``θ = ½`` ("midpoint") leaves only the ``O(h³)`` remainder.  All three
are first-order accurate.  ``D_gyro`` is not symmetric, so the two linearized treatments are not
available with contact (whose friction solvers need a symmetric Delassus matrix).

``γ`` is the Baumgarte gain (velocity-level stabilization, Sueda eq. 1.82): the error shrinks by
about ``1 - hγ`` per step, ``γ = 1/h`` removes it in one step and ``γ > 2/h`` is unstable.  We use
the sign convention of :mod:`spatial.contact` (``+Gᵀλ``); Sueda writes ``+Gᵀ`` in the KKT matrix, so
his ``λ`` is minus ours and his reaction ``-Gᵀλ/h`` is our ``+Gᵀλ/h``.

Contact with a ground plane (Sueda §1.11–1.13)
----------------------------------------------
Body-fixed contact points (:meth:`System.add_contact_points`) meet a plane
``nᵀx = offset``.  Each candidate point within ``margin`` of the plane contributes a normal row
``nᵀ R Γ(r)`` (Sueda eqs. 1.75–1.76) with ``N Φ⁺ >= b`` and two tangent rows
``t_kᵀ R Γ(r)``.  The bound ``b = -max(gap, 0)/h - γ min(gap, 0)`` lets a separated point
approach just until it touches at the end of the step and pushes a penetrating one out with the
Baumgarte gain.  The mixed problem (joints as equalities, contacts as complementarity) is
reduced to contact space with :func:`spatial.contact.mixed_lcp_to_lcp`, then solved by
:func:`spatial.contact.solve_impulses` with a friction model of :mod:`spatial.contact.friction`
(Sueda's pyramid QP, eq. 1.88, by default; Lemke on the normal rows when ``μ = 0``).

Redundant constraints (more rows than independent constraints, e.g. a closed loop of hinges
whose axes are parallel) make ``G M⁻¹ Gᵀ`` singular: the step reports it with a ``ValueError``
unless a ``regularization`` ``ε > 0`` is given, which solves ``G Φ⁺ + ε λ = -γ g`` instead
(constraint regularization, ArtiSynth §0.11, with ``ε = γα/h²`` in its notation).

Batching: the states ``E (..., N, 4, 4)``, ``φ (..., N, 6)`` may carry leading batch dimensions
(a fan of initial conditions) for everything except contact, whose complementarity solvers work
on one problem at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .._batched import T as _T
from .._batched import force_cross_bar
from .._batched import mv as _mv
from .._validate import as_array, as_scalar_array, nonnegative_scalar, positive_scalar
from ..forces import Force, assemble
from ..inertia import validate_inertia
from ..joints import Joint
from ..se3 import Ad, _as_frame, exp_se3, frame_inverse, log_se3, material_jacobian
from ..vectors import crm, pluho
from .rigid_body import _coriolis, _gravity

__all__ = [
    "JointConstraint",
    "System",
    "GroundPlane",
    "ContactResult",
    "StepResult",
    "Trajectory",
    "mass_matrix",
    "bias_wrenches",
    "gyroscopic_jacobian",
    "joint_coordinates",
    "constraint_jacobian",
    "constraint_error",
    "contact_jacobian",
    "kkt_step",
    "simulate_system",
]

_DEFAULT_GRAVITY = (0.0, 0.0, -9.81)
_GN_MAX_ITER = 50  # Gauss–Newton iterations when recovering joint variables
_GN_TOL = 1e-12  # converged when the largest step is below this (times max(1, |q|))
_RANK_TOL = 1e-10  # relative singular-value threshold that declares G rank deficient
# friction models of spatial.contact.solve_impulses (spatial.contact itself is imported on first
# use, so that ``import spatial`` does not load the solvers)
_FRICTION = ("pyramid", "polyhedral", "box", "gauss-seidel")
# treatments of the gyroscopic wrench ad(φ)ᵀMφ in kkt_step: the weight θ of its Jacobian in M̂
_GYROSCOPIC = {"explicit": 0.0, "implicit": 1.0, "midpoint": 0.5}


def _single_frame(E, name: str) -> np.ndarray:
    E = _as_frame(E, name)
    if E.shape != (4, 4):
        raise ValueError(f"{name} must be a single 4x4 frame, got shape {E.shape}")
    return E


def _joint_pose_inverse(joint: Joint, q: np.ndarray) -> np.ndarray:
    """``E_J(q)⁻¹ = E_sp``: F_p seen from F_s, the frame with ``Ad(E_sp) = X_J`` (``pluho``)."""
    return pluho(joint.transform(q))


# ----------------------------------------------------------------------------- the system


@dataclass(frozen=True)
class JointConstraint:
    """One joint of a :class:`System`: a joint model between a frame on the parent and the child.

    Attributes
    ----------
    joint : Joint
        The joint model (:mod:`spatial.joints`); it allows ``v_J = S α`` of F_s relative to F_p.
    parent : int or None
        Parent body index, ``None`` for the fixed world.
    child : int
        Child body index.
    parent_frame : ndarray, shape (4, 4)
        ``E_parent,Fp``: the predecessor frame in the parent's coordinates (world coordinates when
        the parent is the world).
    child_frame : ndarray, shape (4, 4)
        ``E_child,Fs``: the successor frame in the child's coordinates.
    name : str
    rows : slice
        This joint's rows of the constraint matrix ``G`` (``6 - nv`` of them).
    q_index, v_index : slice
        Where its variables sit in the stacked joint variables (:func:`joint_coordinates`).
    """

    joint: Joint
    parent: int | None
    child: int
    parent_frame: np.ndarray
    child_frame: np.ndarray
    name: str
    rows: slice
    q_index: slice
    v_index: slice


@dataclass(frozen=True)
class GroundPlane:
    """A fixed plane ``nᵀx = offset`` that the contact points of a :class:`System` cannot cross.

    Parameters
    ----------
    normal : array_like, shape (3,)
        Unit normal pointing out of the ground (world coordinates); default ``+z``.
    offset : float
        The plane's signed distance from the world origin along ``normal``.
    mu : float
        Coulomb friction coefficient, >= 0 (0: frictionless contact, normal rows only).
    friction : {"pyramid", "polyhedral", "box", "gauss-seidel"}
        Friction model of :func:`spatial.contact.solve_impulses` (pyramid: Sueda eq. 1.88, with
        4 facets; polyhedral: Anitescu–Stewart with 8; box; Gauss–Seidel with the disc).
    margin : float
        Contact points up to this height above the plane (m) are kept as contacts, higher ones
        are ignored.  The default 1e-6 keeps the touching and penetrating points, with room for
        round-off so that a resting contact does not flicker; a larger margin adds speculative
        contacts that stop an approaching point just as it reaches the plane.

    Raises
    ------
    ValueError
        If the normal is not a unit 3-vector, ``mu`` or ``margin`` is negative, or the friction
        model is unknown.
    """

    normal: np.ndarray = field(default_factory=lambda: np.array([0.0, 0.0, 1.0]))
    offset: float = 0.0
    mu: float = 0.0
    friction: str = "pyramid"
    margin: float = 1e-6

    def __post_init__(self) -> None:
        n = as_array(self.normal, "normal", (3,))
        if n.shape != (3,) or abs(np.linalg.norm(n) - 1.0) > 1e-9:
            raise ValueError(f"normal must be a unit 3-vector, got {self.normal!r}")
        object.__setattr__(self, "normal", n)
        offset = as_scalar_array(self.offset, "offset")
        if offset.shape != ():
            raise ValueError(f"offset must be a number, got {self.offset!r}")
        object.__setattr__(self, "offset", float(offset))
        object.__setattr__(self, "mu", nonnegative_scalar(self.mu, "mu"))
        # an infinite margin keeps every contact point (used to read off contact rows)
        if not (np.ndim(self.margin) == 0 and self.margin == np.inf):
            object.__setattr__(self, "margin", nonnegative_scalar(self.margin, "margin"))
        if self.friction not in _FRICTION:
            raise ValueError(f"friction must be one of {_FRICTION}, got {self.friction!r}")

    def tangents(self) -> np.ndarray:
        """Two unit tangents ``t₁, t₂`` with ``(t₁, t₂, n)`` right-handed, shape (2, 3).

        :func:`spatial.contact.tangent_basis` of the normal.
        """
        from ..contact import tangent_basis

        return tangent_basis(self.normal)


@dataclass
class System:
    """Rigid bodies in maximal coordinates with joints and contact points (Sueda part 1).

    Build it with :meth:`add_body`, :meth:`add_joint` and :meth:`add_contact_points`; the state
    ``(E, φ)`` lives outside, in arrays ``E (..., N, 4, 4)`` and ``φ (..., N, 6)``.
    :func:`spatial.maximal.from_model` builds the system of a kinematic tree.

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
        Body index and body-fixed points that can touch a :class:`GroundPlane`.
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
    >>> top = sp.frame(np.eye(3), [0.0, 0.0, 0.5])  # the hinge in the rod's (centre) frame
    >>> system.add_joint(Revolute("y"), None, rod, child_frame=top)
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

    def _body_index(self, b, name: str, allow_world: bool) -> int | None:
        if b is None and allow_world:
            return None
        if isinstance(b, str):
            return self.body(b)
        if isinstance(b, bool) or not isinstance(b, int | np.integer) or not 0 <= b < self.N:
            world = "; None is the world" if allow_world else ""
            raise ValueError(
                f"{name} body {b!r} is not in the system (bodies 0 … {self.N - 1}{world})"
            )
        return int(b)

    def body(self, name: str) -> int:
        """Index of the body called ``name`` (ValueError if there is none)."""
        try:
            return self.names.index(name)
        except ValueError:
            raise ValueError(f"no body named {name!r}") from None

    def add_body(self, inertia, name: str | None = None) -> int:
        """Append a body with spatial inertia ``inertia`` (body coordinates); return its index.

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
        i = self.N
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
        """Connect ``child`` to ``parent`` (``None`` = world) by ``joint``; return the joint index.

        Parameters
        ----------
        joint : Joint
            Any joint of :mod:`spatial.joints` (``Free`` adds no rows).
        parent : int, str or None
            Parent body (index or name), ``None`` for the fixed world.
        child : int or str
            Child body.
        parent_frame : array_like, shape (4, 4), optional
            ``E_parent,Fp``: the joint's predecessor frame in parent coordinates (world
            coordinates for the world); default identity.
        child_frame : array_like, shape (4, 4), optional
            ``E_child,Fs``: the successor frame in child coordinates; default identity.
        name : str, optional
            Default ``"joint<j>"``.

        Raises
        ------
        ValueError
            If a body is not in the system, parent and child coincide, a frame is not rigid, or
            the joint is not a usable joint model (not a :class:`~spatial.joints.Joint`, or its
            ``transform``, ``motion_subspace`` or ``constraint_subspace`` is missing or
            inconsistent: ``T`` must be 6 x (6 - nv) with ``Tᵀ S = 0`` and full rank).
        """
        j = len(self.joints)
        if not isinstance(joint, Joint):
            raise ValueError(f"unsupported joint type {joint!r}: expected a spatial.joints.Joint")
        _check_joint_model(joint)
        p = self._body_index(parent, "parent", allow_world=True)
        c = self._body_index(child, "child", allow_world=False)
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
        points : array_like, shape (k, 3)
            In body coordinates.

        Raises
        ------
        ValueError
            If the body is not in the system or ``points`` is not a finite (k, 3) array.
        """
        b = self._body_index(body, "contact", allow_world=False)
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

    def __repr__(self) -> str:
        return f"System(N={self.N}, joints={len(self.joints)}, m={self.m})"


def _check_joint_model(joint: Joint) -> None:
    """Raise ``ValueError`` unless the joint gives consistent ``X_J``, ``S`` and ``T`` at rest."""
    try:
        q = joint.neutral()
        X = joint.transform(q)
        S = joint.motion_subspace(q)
        T = joint.constraint_subspace(q)
    except NotImplementedError:
        raise ValueError(
            f"unsupported joint type {type(joint).__name__}: it must implement transform, "
            "motion_subspace and constraint_subspace"
        ) from None
    r = 6 - joint.nv
    ok = (
        np.shape(X) == (6, 6)
        and np.shape(S) == (6, joint.nv)
        and np.shape(T) == (6, r)
        and np.abs(T.T @ S).max(initial=0.0) < 1e-9
        and np.linalg.matrix_rank(T) == r
    )
    if not ok:
        raise ValueError(
            f"unsupported joint type {type(joint).__name__}: its X_J, S (6 x nv) and "
            "T (6 x (6 - nv), Tᵀ S = 0, full rank) are inconsistent"
        )


# ----------------------------------------------------------------------------- state checks


def _check_system_state(system: System, E, phi=None):
    """Validate ``E (..., N, 4, 4)`` (and ``φ (..., N, 6)``) against the system's body count."""
    E = _as_frame(E, "E")
    if E.ndim < 3 or E.shape[-3] != system.N:
        raise ValueError(
            f"E must have shape (..., {system.N}, 4, 4), one frame per body, got {E.shape}"
        )
    if phi is None:
        return E, None
    phi = as_array(phi, "phi", (6,))
    if phi.ndim < 2 or phi.shape[-2] != system.N:
        raise ValueError(f"phi must have shape (..., {system.N}, 6), got {phi.shape}")
    batch = np.broadcast_shapes(E.shape[:-3], phi.shape[:-2])
    return (
        np.broadcast_to(E, batch + E.shape[-3:]),
        np.broadcast_to(phi, batch + phi.shape[-2:]),
    )


def _check_q0(system: System, q0, batch: tuple) -> np.ndarray:
    if q0 is None:
        return np.broadcast_to(system.neutral_joint_coordinates(), batch + (system.nq,))
    q0 = as_array(q0, "q0", (system.nq,))
    return np.broadcast_to(q0, np.broadcast_shapes(batch, q0.shape[:-1]) + (system.nq,))


def _gyroscopic_weight(gyroscopic) -> float:
    """``θ`` of a ``gyroscopic`` treatment: the weight of ``D_gyro`` in the step's matrix."""
    if not isinstance(gyroscopic, str) or gyroscopic not in _GYROSCOPIC:
        raise ValueError(f"gyroscopic must be one of {tuple(_GYROSCOPIC)}, got {gyroscopic!r}")
    return _GYROSCOPIC[gyroscopic]


# ----------------------------------------------------------------------------- joint kinematics


@dataclass
class _JointState:
    """What one joint contributes at a configuration (batched arrays)."""

    q: np.ndarray  # (..., nq) recovered joint variables q̂
    S: np.ndarray  # (..., 6, nv) motion subspace at q̂
    T: np.ndarray  # (..., 6, 6 - nv) constraint subspace at q̂
    e: np.ndarray  # (..., 6) residual twist log(E_J(q̂)⁻¹ E_ps), F_s coordinates
    A_child: np.ndarray  # (6, 6) Ad(E_s,child): child twist -> F_s coordinates
    A_parent: np.ndarray | None  # (..., 6, 6) Ad(E_s,parent), None for the world


def _recover_joint_variables(joint: Joint, E_ps: np.ndarray, q: np.ndarray, name: str):
    """Gauss–Newton for ``q̂`` with ``E_J(q̂) ≈ E_ps`` (module docstring); returns ``(q̂, e)``."""
    for _ in range(_GN_MAX_ITER):
        e = log_se3(_joint_pose_inverse(joint, q) @ E_ps)
        if joint.nv == 0:
            return q, e
        S = joint.motion_subspace(q)
        St = _T(S)
        step = np.linalg.solve(St @ S, _mv(St, e)[..., None])[..., 0]  # least squares S⁺ e
        if np.all(np.abs(step) <= _GN_TOL * np.maximum(1.0, np.abs(q).max(-1, keepdims=True))):
            return q, e
        q = joint.integrate(q, step, 1.0)
    raise ValueError(
        f"{name}: could not recover the joint variables from the two frames (Gauss–Newton did "
        f"not converge in {_GN_MAX_ITER} iterations); the joint is far from its constraint "
        "or q0 is a poor warm start"
    )


def _joint_states(system: System, E: np.ndarray, q0: np.ndarray) -> list[_JointState]:
    states = []
    for jc in system.joints:
        E_child = E[..., jc.child, :, :]
        E_wS = E_child @ jc.child_frame
        if jc.parent is None:
            E_wP = np.broadcast_to(jc.parent_frame, E_wS.shape)
        else:
            E_wP = E[..., jc.parent, :, :] @ jc.parent_frame
        E_Sw = frame_inverse(E_wS)
        q, e = _recover_joint_variables(
            jc.joint, frame_inverse(E_wP) @ E_wS, q0[..., jc.q_index], jc.name
        )
        A_parent = None if jc.parent is None else Ad(E_Sw @ E[..., jc.parent, :, :])
        states.append(
            _JointState(
                q,
                jc.joint.motion_subspace(q),
                jc.joint.constraint_subspace(q),
                e,
                Ad(frame_inverse(jc.child_frame)),
                A_parent,
            )
        )
    return states


def _assemble_G(system: System, states: list[_JointState], batch: tuple) -> np.ndarray:
    """Constraint matrix ``G (..., m, 6N)``: joint ``j``'s rows ``Tᵀ [-A_parent, A_child]``."""
    G = np.zeros(batch + (system.m, 6 * system.N))
    for jc, st in zip(system.joints, states, strict=True):
        Tt = _T(st.T)
        c = 6 * jc.child
        G[..., jc.rows, c : c + 6] = Tt @ st.A_child
        if jc.parent is not None:
            p = 6 * jc.parent
            G[..., jc.rows, p : p + 6] = -Tt @ st.A_parent
    return G


def _errors(system: System, states: list[_JointState], batch: tuple) -> np.ndarray:
    g = np.zeros(batch + (system.m,))
    for jc, st in zip(system.joints, states, strict=True):
        g[..., jc.rows] = _mv(_T(st.T), st.e)
    return g


def _stack_q(system: System, states: list[_JointState], batch: tuple) -> np.ndarray:
    q = np.zeros(batch + (system.nq,))
    for jc, st in zip(system.joints, states, strict=True):
        q[..., jc.q_index] = st.q
    return q


def joint_coordinates(system: System, E, phi=None, q0=None):
    """Joint variables ``q̂`` (and velocities ``α``) that reproduce the bodies' relative motion.

    ``q̂`` of each joint comes from Gauss–Newton on SE(3) (module docstring); the velocity
    variables are ``α = S⁺ v_rel``, the least-squares fit of the relative twist.  For a system
    built by :func:`spatial.maximal.from_model` these are the tree's ``(q, q̇)``.

    Parameters
    ----------
    system : System
    E : array_like, shape (..., N, 4, 4)
        Body frames (world from body).
    phi : array_like, shape (..., N, 6), optional
        Body twists; if given, the velocity variables are returned too.
    q0 : array_like, shape (..., nq), optional
        Warm start (default: every joint at its neutral position).  Needed for joints that have
        turned by more than half a revolution when the pose alone is ambiguous (helical, rack
        and pinion).

    Returns
    -------
    q : ndarray, shape (..., nq)
    qd : ndarray, shape (..., nv)
        Only if ``phi`` is given.

    Raises
    ------
    ValueError
        If a state array does not match the system, or the joint variables cannot be recovered
        (a joint far from its constraint).
    """
    E, phi = _check_system_state(system, E, phi)
    batch = E.shape[:-3]
    states = _joint_states(system, E, _check_q0(system, q0, batch))
    q = _stack_q(system, states, np.broadcast_shapes(batch, *(s.q.shape[:-1] for s in states)))
    if phi is None:
        return q
    qd = np.zeros(q.shape[:-1] + (system.nv,))
    for jc, st in zip(system.joints, states, strict=True):
        v_rel = _mv(st.A_child, phi[..., jc.child, :])
        if jc.parent is not None:
            v_rel = v_rel - _mv(st.A_parent, phi[..., jc.parent, :])
        qd[..., jc.v_index] = _mv(np.linalg.pinv(st.S), v_rel)
    return q, qd


def constraint_jacobian(system: System, E, q0=None) -> np.ndarray:
    """The joint constraint matrix ``G`` with ``ġ = G Φ`` (Sueda eqs. 1.69–1.70, 1.81).

    Joint ``j`` fills its rows ``system.joints[j].rows`` with ``Tᵀ Ad(E_s,child)`` in the child's
    columns and ``-Tᵀ Ad(E_s,parent)`` in the parent's (module docstring).

    Parameters
    ----------
    system : System
    E : array_like, shape (..., N, 4, 4)
    q0 : array_like, shape (..., nq), optional
        Warm start for the joint variables (:func:`joint_coordinates`).

    Returns
    -------
    ndarray, shape (..., m, 6N)

    Raises
    ------
    ValueError
        As :func:`joint_coordinates`.
    """
    E, _ = _check_system_state(system, E)
    states = _joint_states(system, E, _check_q0(system, q0, E.shape[:-3]))
    return _assemble_G(system, states, _batch(E, states))


def constraint_error(system: System, E, q0=None) -> np.ndarray:
    """Position-level joint errors ``g = Tᵀ log(E_J(q̂)⁻¹ E_ps)`` (Sueda §1.12, eq. 1.81).

    Zero when every joint is intact; its derivative along ``E_b ← E_b exp([δ_b])`` is ``G δ`` on
    the constraint manifold (:func:`constraint_jacobian`).  Angular rows are in radians and
    linear rows in metres, in each joint's F_s coordinates.

    Parameters
    ----------
    system : System
    E : array_like, shape (..., N, 4, 4)
    q0 : array_like, shape (..., nq), optional
        Warm start for the joint variables.

    Returns
    -------
    ndarray, shape (..., m)

    Raises
    ------
    ValueError
        As :func:`joint_coordinates`.
    """
    E, _ = _check_system_state(system, E)
    states = _joint_states(system, E, _check_q0(system, q0, E.shape[:-3]))
    return _errors(system, states, _batch(E, states))


def _batch(E: np.ndarray, states: list[_JointState]) -> tuple:
    return np.broadcast_shapes(E.shape[:-3], *(s.q.shape[:-1] for s in states))


# ----------------------------------------------------------------------------- dynamics terms


def mass_matrix(system: System) -> np.ndarray:
    """Block-diagonal mass matrix ``M = diag(M_0, …, M_{N-1})`` (6N x 6N), Sueda §1.7, §1.10.

    Each block is the body's spatial inertia in its own coordinates, constant in time.

    Parameters
    ----------
    system : System

    Returns
    -------
    ndarray, shape (6N, 6N)
    """
    n = system.N
    M = np.zeros((6 * n, 6 * n))
    for i, I in enumerate(system.inertia):
        M[6 * i : 6 * i + 6, 6 * i : 6 * i + 6] = I
    return M


def _bias(system: System, E: np.ndarray, phi: np.ndarray) -> np.ndarray:
    I = np.stack(system.inertia)
    f = _coriolis(I, phi) + _gravity(I, E, system.gravity)
    return f.reshape(f.shape[:-2] + (6 * system.N,))


def bias_wrenches(system: System, E, phi) -> np.ndarray:
    """Stacked Coriolis and gravity wrenches ``ad(φ)ᵀ M φ + M [0; Rᵀ g]`` (Sueda eq. 1.21).

    Parameters
    ----------
    system : System
    E : array_like, shape (..., N, 4, 4)
    phi : array_like, shape (..., N, 6)

    Returns
    -------
    ndarray, shape (..., 6N)
        Body wrenches in body coordinates, body by body.

    Raises
    ------
    ValueError
        If the state does not match the system.
    """
    E, phi = _check_system_state(system, E, phi)
    return _bias(system, E, phi)


def _gyroscopic_blocks(I: np.ndarray, phi: np.ndarray) -> np.ndarray:
    """``∂(ad(φ)ᵀMφ)/∂φ = ad(φ)ᵀM + [[n×], [f×]; [f×], 0]`` with ``[n; f] = Mφ``, per body.

    The second term is the derivative in the first slot: ``ad(δ)ᵀ [n; f] = [n × ω_δ + f × v_δ;
    f × ω_δ]`` for ``δ = [ω_δ; v_δ]`` (the block form of Sueda eq. 1.23 read as a function of
    ``δ``).
    """
    return _T(crm(phi)) @ I - force_cross_bar(_mv(I, phi))


def _gyroscopic_jacobian(system: System, phi: np.ndarray) -> np.ndarray:
    blocks = _gyroscopic_blocks(np.stack(system.inertia), phi)
    n = 6 * system.N
    D = np.zeros(blocks.shape[:-3] + (n, n))
    for i in range(system.N):
        D[..., 6 * i : 6 * i + 6, 6 * i : 6 * i + 6] = blocks[..., i, :, :]
    return D


def gyroscopic_jacobian(system: System, phi) -> np.ndarray:
    """Velocity Jacobian ``D_gyro = ∂(ad(φ)ᵀMφ)/∂φ`` of the stacked gyroscopic wrenches.

    Block diagonal: body ``i`` contributes ``ad(φ_i)ᵀM_i + [[n_i×], [f_i×]; [f_i×], 0]`` with
    ``[n_i; f_i] = M_i φ_i``, the derivative of the first term of Sueda eq. 1.21.
    :func:`kkt_step` uses it as a damping matrix in the linearly implicit step (Sueda eq. 1.30)
    unless ``gyroscopic="explicit"``.  The wrench is quadratic in ``φ``, so
    ``D_gyro Φ = 2 ad(φ)ᵀMφ``, and it does no work, so ``Φᵀ D_gyro = -(ad(φ)ᵀMφ)ᵀ``.

    Parameters
    ----------
    system : System
    phi : array_like, shape (..., N, 6)
        Body twists.

    Returns
    -------
    ndarray, shape (..., 6N, 6N)
        In the sign convention of :mod:`spatial.forces` (``D = ∂f/∂φ``): the step's matrix is
        ``M - h D_gyro``.

    Raises
    ------
    ValueError
        If ``phi`` does not match the system.
    """
    phi = as_array(phi, "phi", (6,))
    if phi.ndim < 2 or phi.shape[-2] != system.N:
        raise ValueError(
            f"phi must have shape (..., {system.N}, 6) for this system, got {phi.shape}"
        )
    return _gyroscopic_jacobian(system, phi)


# ----------------------------------------------------------------------------- contact


@dataclass
class ContactResult:
    """Contacts with the ground during one step (single state).

    Attributes
    ----------
    body : ndarray of int, shape (nc,)
        Body of each contact point.
    point : ndarray, shape (nc, 3)
        The contact points in world coordinates at the start of the step.
    gap : ndarray, shape (nc,)
        Signed distance above the plane (negative: penetration).
    normal_impulse : ndarray, shape (nc,)
        ``λ_n >= 0`` (N s).
    tangent_impulse : ndarray, shape (nc, 2)
        Friction impulses along the plane's tangents (:meth:`GroundPlane.tangents`).
    """

    body: np.ndarray
    point: np.ndarray
    gap: np.ndarray
    normal_impulse: np.ndarray
    tangent_impulse: np.ndarray


def _contact_rows(system: System, E: np.ndarray, ground: GroundPlane):
    """Candidate contacts: bodies, world points, gaps and rows ``[N; T]`` (Sueda eqs. 1.75–1.76)."""
    n, tangents = ground.normal, ground.tangents()
    bodies, points, gaps, N_rows, T_rows = [], [], [], [], []
    for b, pts in system.contact_points:
        R, p = E[b, :3, :3], E[b, :3, 3]
        x = pts @ R.T + p
        gap = x @ n - ground.offset
        for r, xk, gk in zip(pts, x, gap, strict=True):
            if gk > ground.margin:
                continue
            RG = R @ material_jacobian(r)  # world velocity of the point = R Γ(r) φ_b
            row = np.zeros((3, 6 * system.N))
            row[:, 6 * b : 6 * b + 6] = np.vstack([n, tangents]) @ RG
            bodies.append(b)
            points.append(xk)
            gaps.append(gk)
            N_rows.append(row[0])
            T_rows.append(row[1:])
    nc = len(bodies)
    J = np.zeros((3 * nc, 6 * system.N))
    if nc:
        J[:nc] = np.array(N_rows)
        J[nc:] = np.concatenate(T_rows)
    return (
        np.array(bodies, dtype=int),
        np.array(points).reshape(nc, 3),
        np.array(gaps),
        J,
    )


def contact_jacobian(system: System, E, ground: GroundPlane):
    """Contact rows of the system's contact points against a ground plane (Sueda §1.11).

    For a point ``r`` on body ``b`` the normal row is ``nᵀ R_b Γ(r)`` in body ``b``'s columns
    (Sueda eq. 1.76) and the tangent rows are ``t_kᵀ R_b Γ(r)``: they map the stacked body
    twists to the point's world velocity along ``n``, ``t₁``, ``t₂``.

    Parameters
    ----------
    system : System
    E : array_like, shape (N, 4, 4)
        A single state.
    ground : GroundPlane

    Returns
    -------
    J : ndarray, shape (3 nc, 6N)
        ``[N; T]``: the ``nc`` normal rows, then two tangent rows per contact, contact by contact
        (the layout of :mod:`spatial.contact.friction`).
    gap : ndarray, shape (nc,)
        Signed distances of the contact points (within ``ground.margin``) above the plane.

    Raises
    ------
    ValueError
        If ``E`` does not match the system or has batch dimensions, or ``ground`` is not a
        :class:`GroundPlane`.
    """
    E, _ = _check_system_state(system, E)
    if E.ndim != 3:
        raise ValueError("contact needs a single state: E of shape (N, 4, 4), no batch dimensions")
    if not isinstance(ground, GroundPlane):
        raise ValueError(f"ground must be a GroundPlane, got {ground!r}")
    _, _, gap, J = _contact_rows(system, E, ground)
    return J, gap


# ----------------------------------------------------------------------------- the KKT step


@dataclass
class StepResult:
    """The outcome of one :func:`kkt_step`.

    Attributes
    ----------
    E : ndarray, shape (..., N, 4, 4)
        Frames after the step.
    phi : ndarray, shape (..., N, 6)
        Body twists after the step.
    q : ndarray, shape (..., nq)
        Joint variables recovered at the *start* of the step (a warm start for the next one).
    error : ndarray, shape (..., m)
        Position-level joint errors ``g`` at the start of the step.
    lam : ndarray, shape (..., m)
        Joint constraint impulses (N s, N m s), ``M̂ Φ⁺ = f̃ + Gᵀλ``.
    joint_wrench : ndarray, shape (..., n_joints, 6)
        ``T λ / h`` per joint: the constraint wrench ``[n; f]`` the parent exerts on the child,
        in the child's joint frame F_s (zero for joints without rows).
    contact : ContactResult or None
        Contacts with the ground (possibly none) if a ground was given, else None.
    """

    E: np.ndarray
    phi: np.ndarray
    q: np.ndarray
    error: np.ndarray
    lam: np.ndarray
    joint_wrench: np.ndarray
    contact: ContactResult | None = None


def _rank_check(G: np.ndarray) -> None:
    """Raise ``ValueError`` if ``G`` does not have full row rank (redundant constraints)."""
    s = np.linalg.svd(G, compute_uv=False)
    rank = np.sum(s > _RANK_TOL * s[..., :1], axis=-1)
    worst = int(np.min(rank))
    if worst < G.shape[-2]:
        raise ValueError(
            f"singular KKT system: the {G.shape[-2]} joint constraint rows have rank {worst} "
            "(redundant constraints, e.g. an over-constrained loop); pass regularization > 0 "
            "to solve G Φ + ε λ = rhs instead (ArtiSynth §0.11)"
        )


def _regularize(M: np.ndarray, G: np.ndarray, eps: float):
    """Augmented system for ``G Φ + ε λ = rhs``: variables ``(Φ, s)``, ``s = √ε λ``."""
    n, m = M.shape[-1], G.shape[-2]
    batch = np.broadcast_shapes(M.shape[:-2], G.shape[:-2])
    M_aug = np.zeros(batch + (n + m, n + m))
    M_aug[..., :n, :n] = M
    M_aug[..., n:, n:] = np.eye(m)
    G_aug = np.zeros(batch + (m, n + m))
    G_aug[..., :, :n] = G
    G_aug[..., :, n:] = np.sqrt(eps) * np.eye(m)
    return M_aug, G_aug


def _solve_contact(M, G, f, rhs, J, nc, bias, ground):
    """Joints (equalities) and ground contacts (complementarity), solved in contact space.

    The mixed problem is reduced to the contact rows by :func:`spatial.contact.mixed_lcp_to_lcp`
    (Delassus matrix ``W = J M̂⁻¹ P_f Jᵀ`` with the joints eliminated, free contact velocities
    ``u``), solved there by :func:`spatial.contact.solve_impulses`, and the impulses are mapped
    back to the velocities and joint impulses (Sueda §1.11–1.13, ArtiSynth §0.7).
    """
    from .. import contact as solvers

    G = None if G.shape[0] == 0 else G
    g = None if G is None else rhs
    reduced = solvers.mixed_lcp_to_lcp(M, G, J, f, g, np.zeros(J.shape[0]))
    res = solvers.solve_impulses(
        reduced.M, reduced.q, ground.mu, bias=bias, friction=ground.friction
    )
    if not res.converged:
        raise solvers.LCPError(f"contact problem with {nc} contacts: {res.message}")
    x, lam = reduced.recover(np.concatenate([res.normal, res.tangent.ravel()]))
    return x, lam, res.normal, res.tangent


def kkt_step(
    system: System,
    E,
    phi,
    h: float,
    *,
    forces: Sequence[Force] = (),
    baumgarte: float = 0.0,
    regularization: float = 0.0,
    ground: GroundPlane | None = None,
    q0=None,
    gyroscopic: str = "explicit",
) -> StepResult:
    """One constrained, linearly implicit Euler step on SE(3) (Sueda §1.8–1.13).

    Solves ``M̂ Φ⁺ = f̃ + Gᵀλ``, ``G Φ⁺ = -γ g`` (module docstring; Sueda eqs. 1.30, 1.73,
    1.82) with the contacts as complementarity rows when a ground is given (Sueda eqs.
    1.79–1.80, 1.88), then moves every frame, ``E_i⁺ = E_i exp(h [φ_i⁺])`` (Sueda eq. 1.29).

    Parameters
    ----------
    system : System
    E : array_like, shape (..., N, 4, 4)
        Body frames at the start of the step.
    phi : array_like, shape (..., N, 6)
        Body twists at the start of the step.
    h : float
        Time step, > 0.
    forces : sequence of spatial.forces.Force
        Springs, dampers, muscles, point forces; their ``K`` and ``D`` make the step linearly
        implicit (``M̂ = M - hD - h²K``, :mod:`spatial.forces` sign conventions).
    baumgarte : float
        Gain ``γ >= 0`` (1/s) of velocity-level Baumgarte stabilization (Sueda eq. 1.82);
        0 leaves position drift uncorrected, ``1/h`` removes it in one step.
    regularization : float
        ``ε >= 0``: solve ``G Φ⁺ + ε λ = -γ g`` (ArtiSynth §0.11), which makes redundant
        constraints solvable; 0 (default) enforces the constraints exactly.
    ground : GroundPlane, optional
        Contact of the system's contact points with a plane (single states only).
    q0 : array_like, shape (..., nq), optional
        Warm start for the joint variables (the previous step's ``result.q``).
    gyroscopic : {"explicit", "implicit", "midpoint"}
        The gyroscopic wrench ``ad(φ)ᵀMφ``: ``"explicit"`` (default, Sueda eq. 1.28) at the
        start of the step, which adds kinetic energy every step; ``"implicit"`` linearized at
        the end of the step (its Jacobian :func:`gyroscopic_jacobian` enters ``M̂`` like damping),
        which removes it; ``"midpoint"`` halfway (weight ½), whose energy error is of higher
        order (module docstring).  ``D_gyro`` is not symmetric, so the last two cannot be
        combined with ``ground`` (the friction solvers need a symmetric Delassus matrix).

    Returns
    -------
    StepResult

    Raises
    ------
    ValueError
        If an input is invalid or does not match the system, a joint cannot be recovered, the
        constraints are redundant (``regularization = 0``), contact is requested for a batch
        of states, or ``gyroscopic`` is not one of the three treatments or is not
        ``"explicit"`` with contact.
    spatial.contact.LCPError
        If the contact solver does not converge.
    """
    E, phi = _check_system_state(system, E, phi)
    theta = _gyroscopic_weight(gyroscopic)
    h = positive_scalar(h, "h (time step)")
    gamma = nonnegative_scalar(baumgarte, "baumgarte")
    eps = nonnegative_scalar(regularization, "regularization")
    if ground is not None and not isinstance(ground, GroundPlane):
        raise ValueError(f"ground must be a GroundPlane or None, got {ground!r}")
    if ground is not None and E.ndim != 3:
        raise ValueError("contact needs a single state: E of shape (N, 4, 4), no batch dimensions")
    if ground is not None and theta:
        raise ValueError(
            f"gyroscopic={gyroscopic!r} does not work with contact: D_gyro makes M̂ non-symmetric "
            "and the friction solvers need a symmetric Delassus matrix; use 'explicit'"
        )
    forces = tuple(forces)
    for force in forces:
        if not isinstance(force, Force):
            raise ValueError(f"forces must be spatial.forces.Force objects, got {force!r}")

    n = 6 * system.N
    states = _joint_states(system, E, _check_q0(system, q0, E.shape[:-3]))
    batch = _batch(E, states)
    E = np.broadcast_to(E, batch + E.shape[-3:])
    phi = np.broadcast_to(phi, batch + phi.shape[-2:])
    G = _assemble_G(system, states, batch)
    g = _errors(system, states, batch)
    rhs = -gamma * g

    # linearly implicit Euler: (M - hD - h²K) Φ⁺ = M Φ + h (f_bias + f - D Φ)   (Sueda eq. 1.30)
    M = np.broadcast_to(mass_matrix(system), batch + (n, n))
    Phi = phi.reshape(batch + (n,))
    f_tilde = _mv(M, Phi) + h * _bias(system, E, phi)
    if theta:
        D = theta * _gyroscopic_jacobian(system, phi)
        M = M - h * D
        f_tilde = f_tilde - h * _mv(D, Phi)
    if forces:
        f, K, D = assemble(forces, E, phi)
        M = M - h * D - h * h * K
        f_tilde = f_tilde + h * (f - _mv(D, Phi))

    m = system.m
    if m and eps == 0.0:
        _rank_check(G)
    if m and eps > 0.0:
        M_solve, G_solve = _regularize(M, G, eps)
        f_solve = np.concatenate([f_tilde, np.zeros(batch + (m,))], -1)
    else:
        M_solve, G_solve, f_solve = M, G, f_tilde

    contact, nc = None, 0
    if ground is not None:
        bodies, points, gap, J = _contact_rows(system, E, ground)
        nc = len(bodies)
        empty = np.zeros(0)
        contact = ContactResult(bodies, points, gap, empty, empty.reshape(0, 2))
    if nc:
        J_solve = np.zeros((3 * nc, M_solve.shape[-1]))
        J_solve[:, :n] = J
        bias = -np.maximum(gap, 0.0) / h - gamma * np.minimum(gap, 0.0)
        x, lam, normal, tangent = _solve_contact(
            M_solve, G_solve, f_solve, rhs, J_solve, nc, bias, ground
        )
        contact = ContactResult(bodies, points, gap, normal, tangent)
    elif m:
        from ..contact import solve_kkt

        x, lam = solve_kkt(M_solve, G_solve, f_solve, rhs)
    else:
        x, lam = np.linalg.solve(M, f_tilde[..., None])[..., 0], np.zeros(batch + (0,))

    phi_next = x[..., :n].reshape(batch + (system.N, 6))
    E_next = E @ exp_se3(h * phi_next)
    wrench = np.zeros(batch + (len(system.joints), 6))
    for j, (jc, st) in enumerate(zip(system.joints, states, strict=True)):
        wrench[..., j, :] = _mv(st.T, lam[..., jc.rows]) / h
    return StepResult(E_next, phi_next, _stack_q(system, states, batch), g, lam, wrench, contact)


@dataclass
class Trajectory:
    """A simulation by :func:`simulate_system`.

    Attributes
    ----------
    t : ndarray, shape (n_steps + 1,)
    E : ndarray, shape (n_steps + 1, ..., N, 4, 4)
    phi : ndarray, shape (n_steps + 1, ..., N, 6)
    q : ndarray, shape (n_steps + 1, ..., nq)
        Joint variables recovered at every stored state.
    error : ndarray, shape (n_steps + 1, ..., m)
        Position-level joint errors ``g`` at every stored state.
    joint_wrench : ndarray, shape (n_steps, ..., n_joints, 6)
        Constraint wrench of every joint during each step (:class:`StepResult`).
    contacts : list of ContactResult or None
        One entry per step (None without ground).
    """

    t: np.ndarray
    E: np.ndarray
    phi: np.ndarray
    q: np.ndarray
    error: np.ndarray
    joint_wrench: np.ndarray
    contacts: list


def simulate_system(
    system: System,
    E0,
    phi0,
    h: float,
    n_steps: int,
    *,
    forces: Sequence[Force] = (),
    baumgarte: float = 0.0,
    regularization: float = 0.0,
    ground: GroundPlane | None = None,
    q0=None,
    gyroscopic: str = "explicit",
) -> Trajectory:
    """Simulate a maximal-coordinate system with ``n_steps`` calls of :func:`kkt_step`.

    Each step is warm-started with the joint variables recovered in the previous one.

    Parameters
    ----------
    system, forces, baumgarte, regularization, ground, q0, gyroscopic
        As in :func:`kkt_step` (``q0`` warm-starts the first step only).
    E0 : array_like, shape (..., N, 4, 4)
    phi0 : array_like, shape (..., N, 6)
        Initial state.
    h : float
        Time step, > 0.
    n_steps : int
        Number of steps, >= 0.

    Returns
    -------
    Trajectory

    Raises
    ------
    ValueError
        As :func:`kkt_step`, or if ``n_steps`` is not a non-negative integer.
    """
    if isinstance(n_steps, bool) or not isinstance(n_steps, int | np.integer) or n_steps < 0:
        raise ValueError(f"n_steps must be a non-negative integer, got {n_steps!r}")
    h = positive_scalar(h, "h (time step)")
    E, phi = _check_system_state(system, E0, phi0)
    _gyroscopic_weight(gyroscopic)
    options = dict(
        forces=forces,
        baumgarte=baumgarte,
        regularization=regularization,
        ground=ground,
        gyroscopic=gyroscopic,
    )
    Es, phis, qs, errors, wrenches, contacts = [E], [phi], [], [], [], []
    for _ in range(n_steps):
        step = kkt_step(system, E, phi, h, q0=q0, **options)
        E, phi, q0 = step.E, step.phi, step.q
        Es.append(E)
        phis.append(phi)
        qs.append(step.q)
        errors.append(step.error)
        wrenches.append(step.joint_wrench)
        contacts.append(step.contact)
    states = _joint_states(system, E, _check_q0(system, q0, E.shape[:-3]))
    batch = _batch(E, states)
    qs.append(_stack_q(system, states, batch))
    errors.append(_errors(system, states, batch))
    shape = np.broadcast_shapes(E.shape[:-3], phi.shape[:-2], batch)
    Es = [np.broadcast_to(x, shape + x.shape[-3:]) for x in Es]
    phis = [np.broadcast_to(x, shape + x.shape[-2:]) for x in phis]
    qs = [np.broadcast_to(x, shape + x.shape[-1:]) for x in qs]
    errors = [np.broadcast_to(x, shape + x.shape[-1:]) for x in errors]
    wrench = np.stack(wrenches) if wrenches else np.zeros((0,) + shape + (len(system.joints), 6))
    return Trajectory(
        h * np.arange(n_steps + 1),
        np.stack(Es),
        np.stack(phis),
        np.stack(qs),
        np.stack(errors),
        wrench,
        contacts,
    )
