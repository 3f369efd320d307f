"""The system model of a kinematic tree (Featherstone §4.1–4.2, §4.6, Table 4.3).

Bodies are numbered ``1 … NB`` with a *regular numbering* (every body's parent has a smaller
number); body ``0`` is the fixed base.  Joint ``i`` connects body ``i`` to its parent ``λ(i)``.
Per-body lists (``parent``, ``joints``, ``X_tree``, ``inertia``, ``names``) are indexed by body
number, so entry 0 is a placeholder for the base and ``model.parent[i]`` reads as the book's
``λ(i)``.  Joint ``i``'s position and velocity variables are ``q[..., model.q_index[i]]`` and
``qd[..., model.v_index[i]]``.

A model is plain data built once with :meth:`Model.add_body`; every algorithm is a function
``f(model, q, qd, ...)`` that reads it.  Validation happens here, at construction, and in
:meth:`Model.check_state`, never inside the algorithms.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ._validate import FLOAT_TYPES, as_array, as_float_array
from .inertia import validate_inertia
from .joints import Cylindrical, Fixed, Joint, Planar, Prismatic, Revolute, Spherical, SphericalYPR
from .vectors import _as_plucker

__all__ = ["Model", "LoopJoint", "LOOP_JOINT_TYPES"]

#: Joint types that can close a loop (Featherstone §8.2–8.3): their constraint-force subspace
#: ``T`` is constant in successor coordinates, so ``Ṫ = v_s ×* T`` (the assumption of Table 8.4)
#: and the loop position error ``δ`` of Table 8.1 has a closed form
#: (:func:`spatial.dynamics.loops.loop_jcalc`).  ``Fixed`` is the universal loop joint.
LOOP_JOINT_TYPES = (Fixed, Revolute, Prismatic, Cylindrical, Planar, Spherical, SphericalYPR)


@dataclass(frozen=True)
class LoopJoint:
    """A loop-closing joint between two bodies of the spanning tree (Featherstone §4.2, §8.1).

    The joint connects frame ``F_p`` on the predecessor body to frame ``F_s`` on the successor
    body; it adds no position variables, only constraints (``6 - joint.nv`` of them).

    Attributes
    ----------
    predecessor, successor : int
        Body numbers ``p(k)`` and ``s(k)`` (0 is the fixed base).
    joint : Joint
        The joint model (``jtype(k)``); one of :data:`LOOP_JOINT_TYPES`.
    X_p : ndarray, shape (6, 6)
        ``X_P(l) = ^{p(k),k}X_{p(k)}``: from predecessor-body coordinates to ``F_p``.
    X_s : ndarray, shape (6, 6)
        ``X_S(l) = ^{s(k),k}X_{s(k)}``: from successor-body coordinates to ``F_s``.
    name : str
    """

    predecessor: int
    successor: int
    joint: Joint
    X_p: np.ndarray
    X_s: np.ndarray
    name: str

    @property
    def nc(self) -> int:
        """Number of constraints the joint imposes, ``n^c_k = 6 - n_k`` (eq. 8.1)."""
        return 6 - self.joint.nv


class MotionConstants(NamedTuple):
    """The ``q``-independent motion data of a model's joints (:meth:`Model.motion_constants`)."""

    S: list  # S[i] (6, n_i) for a joint with constant S, else None; S[0] is None
    rows: np.ndarray  # body rows (i - 1) of the one-DoF joints with a constant S
    columns: np.ndarray  # their velocity variables
    S_one: np.ndarray  # (m, 6): their S
    others: list  # the bodies whose joints are not among them (jcalc is called for these)
    axis: list  # axis[i] = unit_motion_axis(i)
    inertia: np.ndarray | None  # (NB, 6, 6) body inertias


@dataclass
class Model:
    """A kinematic tree: parent array, joints, tree transforms, inertias and gravity (Table 4.3).

    Parameters
    ----------
    gravity : array_like, shape (3,)
        Gravitational acceleration in base coordinates, default ``[0, 0, -9.81]``.

    Attributes
    ----------
    NB : int
        Number of bodies (excluding the base).
    nq, nv : int
        Total numbers of position and velocity variables.
    parent : list[int]
        ``parent[i] = λ(i)``; ``parent[0] = -1``.
    joints : list[Joint | None]
        ``joints[i]`` is joint ``i`` (``jtype(i)``); ``joints[0] is None``.
    X_tree : list[ndarray | None]
        ``X_tree[i] = X_T(i)``, the transform from the parent's frame to joint ``i``'s
        predecessor frame F_p (so ``X_λ(i)→i = X_J X_T(i)``, Featherstone eq. 4.4).
    inertia : list[ndarray | None]
        Spatial inertia of each body in its own coordinates.
    q_index, v_index : list[slice]
        Where joint ``i``'s variables sit in ``q`` and ``qd``.
    loop_joints : list[LoopJoint]
        The loop-closing joints, in loop order ``l = 0 … NL-1`` (the book's ``k = NB + 1 + l``);
        added with :meth:`add_loop_joint`.

    Examples
    --------
    A planar double pendulum, as the book's Table 4.3 lists it:

    >>> import numpy as np, spatial as sp
    >>> from spatial.joints import Revolute
    >>> model = sp.Model(gravity=[0, -9.81, 0])
    >>> I = sp.mcI(1.0, [0.5, 0, 0], np.diag([1e-3, 1 / 12, 1 / 12]))
    >>> b1 = model.add_body(0, Revolute("z"), np.eye(6), I)
    >>> b2 = model.add_body(b1, Revolute("z"), sp.xlt([1.0, 0, 0]), I)
    >>> model.NB, model.nq, model.nv
    (2, 2, 2)
    """

    gravity: np.ndarray = field(default_factory=lambda: np.array([0.0, 0.0, -9.81]))
    parent: list = field(default_factory=lambda: [-1], init=False)
    joints: list = field(default_factory=lambda: [None], init=False)
    X_tree: list = field(default_factory=lambda: [None], init=False)
    inertia: list = field(default_factory=lambda: [None], init=False)
    names: list = field(default_factory=lambda: ["base"], init=False)
    q_index: list = field(default_factory=lambda: [slice(0, 0)], init=False)
    v_index: list = field(default_factory=lambda: [slice(0, 0)], init=False)
    nq: int = field(default=0, init=False)
    nv: int = field(default=0, init=False)
    loop_joints: list = field(default_factory=list, init=False)
    _fused: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    _is_spanning_tree: bool = field(default=False, init=False, repr=False, compare=False)

    def __post_init__(self):
        g = as_array(self.gravity, "gravity", (3,))
        if g.ndim != 1:
            raise ValueError(f"gravity must be a 3-vector, got shape {g.shape}")
        self.gravity = g

    # ------------------------------------------------------------------ construction

    @property
    def NB(self) -> int:
        """Number of bodies, excluding the fixed base."""
        return len(self.parent) - 1

    def add_body(self, parent: int, joint: Joint, X_tree, inertia, name: str | None = None) -> int:
        """Append a body connected to ``parent`` by ``joint``; return its body number.

        Parameters
        ----------
        parent : int
            Number of the parent body, ``0 ≤ parent ≤ NB`` (0 is the fixed base).
        joint : Joint
            The joint model, e.g. ``spatial.joints.Revolute("z")``.
        X_tree : array_like, shape (6, 6)
            Tree transform ``X_T(i)``: from the parent body's frame to the joint's predecessor
            frame, e.g. ``spatial.plux(E, r)``.
        inertia : array_like, shape (6, 6)
            The body's spatial inertia in its own frame, e.g. ``spatial.mcI(m, c, I_c)``.
        name : str, optional
            A unique name; defaults to ``"body<i>"``.

        Returns
        -------
        int
            The new body's number ``i = NB`` (after adding).

        Raises
        ------
        ValueError
            If the model is the :meth:`spanning_tree` of another model (build on that one), if
            the parent does not exist yet (parents must precede children), the joint is
            not a :class:`~spatial.joints.Joint`, ``X_tree`` is not a single Plücker
            transform, ``inertia`` is not the inertia of a rigid body that may be massless or
            concentrated in points (:func:`spatial.validate_inertia` with
            ``allow_massless=True``; e.g. its principal moments violate the triangle
            inequality), or the name is already taken.
        """
        self._require_own_model("add_body")
        i = self.NB + 1
        if isinstance(parent, bool) or not isinstance(parent, (int, np.integer)):
            raise ValueError(f"body {i}: parent must be an int body number, got {parent!r}")
        if not 0 <= parent < i:
            raise ValueError(
                f"body {i} has parent {parent}; parents must precede children"
                f" (0 ≤ parent ≤ {i - 1})"
            )
        if not isinstance(joint, Joint):
            raise ValueError(f"body {i}: joint must be a spatial.joints.Joint, got {joint!r}")
        X_tree = _as_plucker(X_tree, f"X_tree of body {i}")
        if X_tree.shape != (6, 6):
            raise ValueError(
                f"X_tree of body {i} must be a single 6x6 transform, got {X_tree.shape}"
            )
        inertia = as_array(inertia, f"inertia of body {i}", (6, 6))
        if inertia.shape != (6, 6):
            raise ValueError(f"inertia of body {i} must be a single 6x6 matrix")
        validate_inertia(inertia, f"inertia of body {i}", allow_massless=True)
        name = f"body{i}" if name is None else str(name)
        if name in self.names:
            raise ValueError(f"body name {name!r} is already used")

        self.parent.append(int(parent))
        self.joints.append(joint)
        self.X_tree.append(X_tree.astype(self.dtype))  # a copy
        self.inertia.append(inertia.astype(self.dtype))  # a copy
        self.names.append(name)
        self.q_index.append(slice(self.nq, self.nq + joint.nq))
        self.v_index.append(slice(self.nv, self.nv + joint.nv))
        self.nq += joint.nq
        self.nv += joint.nv
        return i

    @property
    def NL(self) -> int:
        """Number of loop joints (kinematic loops), ``N_L = N_J - N_B`` (Featherstone §4.1)."""
        return len(self.loop_joints)

    def add_loop_joint(
        self, predecessor: int, successor: int, joint: Joint, X_p, X_s, name: str | None = None
    ) -> int:
        """Close a kinematic loop with a joint between two bodies of the tree; return its ``l``.

        The joint connects frame ``F_p`` (``X_p`` from the predecessor body's frame) to frame
        ``F_s`` (``X_s`` from the successor body's frame); at a configuration that closes the
        loop, ``^{F_s}X_{F_p}`` is a joint transform ``X_J(q_k)`` of the joint for some ``q_k``
        (Featherstone §4.2, eq. 8.24).  Loop joints add no variables to ``q``: they constrain
        the tree's variables (§8.1–8.2).

        Parameters
        ----------
        predecessor, successor : int
            Body numbers ``p(k)``, ``s(k)`` in ``0 … NB`` (0 is the fixed base), different.
        joint : Joint
            One of :data:`LOOP_JOINT_TYPES` (``Fixed``, ``Revolute``, ``Prismatic``,
            ``Cylindrical``, ``Planar``, ``Spherical``, ``SphericalYPR``).  A loop's polarity is
            chosen by the order of ``predecessor`` and ``successor``, so ``Reversed`` is not
            accepted; a 6-DoF joint would impose no constraint.
        X_p, X_s : array_like, shape (6, 6)
            Plücker transforms ``X_P(l)`` and ``X_S(l)``.
        name : str, optional
            A unique name among the loop joints; defaults to ``"loop<l>"``.

        Returns
        -------
        int
            The loop number ``l`` (0-based index into :attr:`loop_joints`).

        Raises
        ------
        ValueError
            If the model is the :meth:`spanning_tree` of another model (which has no loop
            joints), a body number is not an int in ``0 … NB``, the two bodies are the same (the
            joint would close no loop), the joint imposes no constraint or is not a supported
            loop-joint type, a transform is not a single Plücker transform, or the name is taken.
        """
        self._require_own_model("add_loop_joint")
        l = self.NL
        for value, what in ((predecessor, "predecessor"), (successor, "successor")):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise ValueError(
                    f"loop joint {l}: {what} must be an int body number, got {value!r}"
                )
            if not 0 <= value <= self.NB:
                raise ValueError(
                    f"loop joint {l}: {what} {value} is not a body of the model (0 … {self.NB})"
                )
        if predecessor == successor:
            raise ValueError(
                f"loop joint {l} connects body {predecessor} to itself: it closes no loop"
            )
        if not isinstance(joint, Joint):
            raise ValueError(f"loop joint {l}: joint must be a spatial.joints.Joint, got {joint!r}")
        if joint.nv >= 6:
            raise ValueError(
                f"loop joint {l}: {joint!r} allows all 6 degrees of freedom and imposes no "
                "constraint, so it closes nothing; leave it out"
            )
        if not isinstance(joint, LOOP_JOINT_TYPES):
            supported = ", ".join(t.__name__ for t in LOOP_JOINT_TYPES)
            raise ValueError(
                f"loop joint {l}: {joint!r} is not supported as a loop joint (supported: "
                f"{supported}); to reverse a loop joint's polarity swap predecessor and successor"
            )
        X = []
        for value, what in ((X_p, "X_p"), (X_s, "X_s")):
            value = _as_plucker(value, f"{what} of loop joint {l}")
            if value.shape != (6, 6):
                raise ValueError(
                    f"{what} of loop joint {l} must be a single 6x6 transform, got {value.shape}"
                )
            X.append(value.copy())
        name = f"loop{l}" if name is None else str(name)
        if name in [lj.name for lj in self.loop_joints]:
            raise ValueError(f"loop joint name {name!r} is already used")
        self.loop_joints.append(
            LoopJoint(int(predecessor), int(successor), joint, X[0], X[1], name)
        )
        return l

    def _require_own_model(self, method: str) -> None:
        """Refuse to grow a spanning tree, which shares its parts with the model it came from."""
        if self._is_spanning_tree:
            raise ValueError(
                f"{method}: this model is the spanning tree of another model "
                "(Model.spanning_tree()), shared with it and cached there; add bodies and loop "
                "joints to that model and call its spanning_tree() again"
            )

    # ------------------------------------------------------------------ loop joints and trees

    def spanning_tree(self) -> Model:
        """The same model without its loop joints: the open spanning tree (Featherstone §8.1).

        The tree dynamics functions (:func:`~spatial.aba`, :func:`~spatial.rnea`,
        :func:`~spatial.crba`, ...) refuse a model with loop joints (:meth:`check_tree`), since
        they would silently answer for the open tree; ``f(model.spanning_tree(), ...)`` asks
        for that answer explicitly, as the ch. 8 algorithms do for ``H`` and ``C``.

        A model without loop joints is its own spanning tree (``self`` is returned).  Otherwise
        the result is a shallow copy that shares the joints, tree transforms, inertias and
        gravity with this model (nothing is copied but the lists), with ``loop_joints`` empty.
        It is made on first use and kept, so repeated calls return the same object and its
        constant caches (:meth:`motion_constants`, :meth:`fused_groups`) are computed once;
        adding a body, or replacing a joint, transform, inertia or the gravity vector, makes
        the next call build a new one (loop joints added later change nothing: they are not
        part of the tree).  The spanning tree itself cannot be grown: add bodies to this model.

        Returns
        -------
        Model
            A model with the same ``NB``, ``nq``, ``nv``, bodies and joints and ``NL = 0``.

        Examples
        --------
        >>> import spatial as sp
        >>> model = sp.builders.four_bar()
        >>> tree = model.spanning_tree()
        >>> (tree.NB, tree.NL, model.NL), tree is model.spanning_tree()
        ((3, 0, 1), True)
        """
        if not self.loop_joints:
            return self
        parts = (*self.parent, *self.joints, *self.X_tree, *self.inertia, *self.names)
        return self._cached("spanning_tree", (*parts, self.gravity), self._spanning_tree)

    def _spanning_tree(self) -> Model:
        """:meth:`spanning_tree`, built."""
        tree = copy.copy(self)
        for name in ("parent", "joints", "X_tree", "inertia", "names", "q_index", "v_index"):
            setattr(tree, name, list(getattr(self, name)))
        tree.loop_joints = []
        tree._fused = {}
        tree._is_spanning_tree = True
        return tree

    def check_tree(self, function: str) -> None:
        """Refuse a model with loop joints in ``function``, which computes a tree's dynamics.

        The equations of motion of the tree algorithms (RNEA, CRBA, ABA, the inertia-matrix
        method, hybrid and floating-base dynamics, REDMAX, ...) are those of the spanning tree:
        they would ignore the loop joints and answer for the open mechanism.  Such a function
        calls this once, at its entry (through :meth:`check_state`'s ``tree_dynamics``).
        Kinematics (poses, velocities, Jacobians, energy) stays well defined and is allowed.

        Parameters
        ----------
        function : str
            The name of the refusing function, for the message (``"aba"``).

        Raises
        ------
        ValueError
            If the model has loop joints; the message names them, the functions that honour
            them (:func:`spatial.dynamics.loops.loop_forward_dynamics`,
            :class:`spatial.systems.ClosureSystem`, REDMAX constraints through
            :func:`spatial.reduced.constrained_forward_dynamics`) and
            ``model.spanning_tree()`` for the open tree's answer.
        """
        if not self.loop_joints:
            return
        names = ", ".join(repr(lj.name) for lj in self.loop_joints)
        joints = "loop joint" if self.NL == 1 else "loop joints"
        raise ValueError(
            f"{function} computes the dynamics of a kinematic tree, but this model has "
            f"{self.NL} {joints} ({names}) that it would ignore. For the closed loops use "
            "spatial.dynamics.loops.loop_forward_dynamics or loop_inverse_dynamics "
            "(spatial.simulate runs the former on this model), spatial.systems.ClosureSystem "
            "(independent coordinates, §8.11) or REDMAX constraints "
            "(spatial.reduced.constrained_forward_dynamics on the spanning tree with the loops "
            "as PointConstraint rows); for the open spanning tree's answer call "
            f"{function}(model.spanning_tree(), ...)"
        )

    @property
    def a_grav(self) -> np.ndarray:
        """Spatial gravitational acceleration ``[0; g]`` in base coordinates (Featherstone §5.3)."""
        return np.concatenate([np.zeros(3, self.gravity.dtype), self.gravity])

    @property
    def dtype(self) -> np.dtype:
        """The floating type of the model's parameters (``float64`` unless :meth:`astype`)."""
        return self.gravity.dtype

    def astype(self, dtype) -> Model:
        """A copy whose gravity, tree transforms and inertias are of floating type ``dtype``.

        The tree algorithms compute in the promotion of the state's type and the model's, so
        ``model.astype(np.float32)`` with ``float32`` states runs them in single precision and
        ``model.astype(np.longdouble)`` in extended precision (where the platform has it).
        Joints are shared with the original (they hold no state).

        Raises
        ------
        ValueError
            If ``dtype`` is not ``float32``, ``float64`` or ``longdouble``.
        """
        try:
            dtype = np.dtype(dtype)
        except TypeError:  # not a type NumPy knows ("banana", 3.5): the promised ValueError
            raise ValueError(
                f"dtype must be float32, float64 or longdouble, got {dtype!r}"
            ) from None
        if dtype not in FLOAT_TYPES:
            raise ValueError(f"dtype must be float32, float64 or longdouble, got {dtype.name!r}")
        new = copy.copy(self)
        new.gravity = self.gravity.astype(dtype)
        for name in ("parent", "joints", "names", "q_index", "v_index", "loop_joints"):
            setattr(new, name, list(getattr(self, name)))
        new.X_tree = [None] + [X.astype(dtype) for X in self.X_tree[1:]]
        new.inertia = [None] + [I.astype(dtype) for I in self.inertia[1:]]
        new._fused = {}
        new._is_spanning_tree = False  # an independent model, whatever it was copied from
        return new

    def _cached(self, key, depends_on: tuple, compute, *args):
        """``compute(*args)``, kept under ``key`` while ``depends_on`` holds the same objects.

        The entry keeps those objects alive, so their ``id``s cannot be reused by new objects:
        comparing the ids is enough to see that a joint, transform or inertia was replaced.
        """
        ids = list(map(id, depends_on))
        entry = self._fused.get(key)
        if entry is None or entry[1] != ids:
            entry = self._fused[key] = (depends_on, ids, compute(*args))
        return entry[2]

    def fused_tree_transform(self, i: int, dtype=np.float64):
        """``(K, K_0)`` with ``^iX_λ(i) = f(q_i) K + K_0`` for body ``i``, or ``None``.

        ``^iX_λ(i) = X_J(q_i) X_T(i)`` (eq. 4.33's ``Xup``).  When the joint's transform is
        linear in a few functions of ``q_i`` (:meth:`~spatial.joints.Joint.transform_basis`),
        so is ``^iX_λ(i)``: ``K = B X_T(i)`` (k, 36) and ``K_0 = B_0 X_T(i)`` (6, 6) are
        constants of the model, computed on first use (in ``dtype``) and kept until the body's
        joint or tree transform is replaced.
        """
        joint, X_tree = self.joints[i], self.X_tree[i]
        return self._cached(
            (i, np.dtype(dtype)), (joint, X_tree), self._fused_tree_transform, i, dtype
        )

    def _fused_tree_transform(self, i: int, dtype):
        """:meth:`fused_tree_transform`, computed."""
        basis = self.joints[i].transform_basis()
        if basis is None:
            return None
        B, B_0 = basis
        B, B_0, X_tree = B.astype(dtype), B_0.astype(dtype), self.X_tree[i].astype(dtype)
        return (B @ X_tree).reshape(len(B), 36), B_0 @ X_tree

    def fused_groups(self, dtype=np.float64) -> list[tuple]:
        """The bodies whose ``^iX_λ(i)`` can be computed together, grouped by joint class.

        Each group is ``(bodies, columns, features, K, K_0)``: body numbers, their (single)
        position variables in ``q``, the class's :meth:`~spatial.joints.Joint.transform_features`
        and the stacked constants of :meth:`fused_tree_transform`, (r, k, 36) and (r, 6, 6).
        Only one-variable joints are grouped.  Kept until a joint or tree transform is replaced.
        """
        return self._cached(
            ("groups", np.dtype(dtype)), (*self.joints, *self.X_tree), self._fused_groups, dtype
        )

    def _fused_groups(self, dtype) -> list[tuple]:
        """:meth:`fused_groups`, computed."""
        members: dict[type, list[int]] = {}
        for i in range(1, self.NB + 1):
            if self.joints[i].nq == 1 and self.fused_tree_transform(i, dtype) is not None:
                members.setdefault(type(self.joints[i]), []).append(i)
        groups = []
        for bodies in members.values():
            constants = [self.fused_tree_transform(i, dtype) for i in bodies]
            columns = np.array([self.q_index[i].start for i in bodies])
            features = self.joints[bodies[0]].transform_features
            K, K_0 = np.stack([c[0] for c in constants]), np.stack([c[1] for c in constants])
            groups.append((bodies, columns, features, K, K_0))
        return groups

    def motion_constants(self, dtype=np.float64) -> MotionConstants:
        """What the recursive algorithms need of the joints' motion that does not depend on ``q``.

        ``S[i]`` (6, n_i) for every joint with a constant ``S``
        (:attr:`~spatial.joints.Joint.constant_S`); for the one-DoF joints among them the body
        rows ``i - 1``, their velocity variables and their ``S`` stacked (m, 6), so that
        ``v_J = S_i q̇_i`` of all of them is one product; the unit axes of
        :meth:`unit_motion_axis`; the body inertias stacked (NB, 6, 6).  All in ``dtype``,
        computed on first use and kept while the joints and inertias are the same objects (the
        precomputed constant structure of Featherstone §10.3 / App. A.5).
        """
        return self._cached(
            ("motion", np.dtype(dtype)),
            (*self.joints, *self.inertia),
            self._motion_constants,
            dtype,
        )

    def _motion_constants(self, dtype) -> MotionConstants:
        """:meth:`motion_constants`, computed."""
        S = [None] * (self.NB + 1)
        for i in range(1, self.NB + 1):
            if self.joints[i].constant_S:
                S[i] = np.array(self.joints[i].motion_subspace(self.joints[i].neutral()), dtype)
        one_dof = [i for i in range(1, self.NB + 1) if S[i] is not None and S[i].shape[1] == 1]
        rows = np.array([i - 1 for i in one_dof], dtype=int)
        columns = np.array([self.v_index[i].start for i in one_dof], dtype=int)
        S_one = np.array([S[i][:, 0] for i in one_dof], dtype).reshape(len(one_dof), 6)
        axis = [None] + [self.unit_motion_axis(i) for i in range(1, self.NB + 1)]
        inertia = np.stack([np.asarray(I, dtype) for I in self.inertia[1:]]) if self.NB else None
        for constant in (S_one, inertia, *S[1:]):
            if constant is not None:
                constant.flags.writeable = False  # shared by every call: never written
        others = [i for i in range(1, self.NB + 1) if i not in one_dof]
        return MotionConstants(S, rows, columns, S_one, others, axis, inertia)

    def unit_motion_axis(self, i: int) -> int | None:
        """``k`` if joint ``i`` has the constant motion subspace ``S = e_k``, else ``None``.

        Then ``A S`` is column ``k`` of ``A`` and ``Sᵀ f`` is entry ``k`` of ``f``: products
        with ``S`` become selections (the DH-frame saving of Featherstone §10.3.1, App. A.5).
        """
        return self._cached(("axis", i), (self.joints[i],), self._unit_motion_axis, i)

    def _unit_motion_axis(self, i: int) -> int | None:
        """:meth:`unit_motion_axis`, computed."""
        joint = self.joints[i]
        if not (joint.constant_S and joint.nv == 1):
            return None
        S = joint.motion_subspace(np.zeros(joint.nq))[:, 0]
        nonzero = np.flatnonzero(S)
        return int(nonzero[0]) if len(nonzero) == 1 and S[nonzero[0]] == 1.0 else None

    def body(self, name: str) -> int:
        """Body number of the body called ``name`` (ValueError if there is none)."""
        try:
            return self.names.index(name)
        except ValueError:
            raise ValueError(f"no body named {name!r}") from None

    # ------------------------------------------------------------------ connectivity (§4.1.2)

    def children(self, i: int) -> list[int]:
        """``μ(i)``: the bodies whose parent is ``i``."""
        return [j for j in range(1, self.NB + 1) if self.parent[j] == i]

    def support(self, i: int) -> list[int]:
        """``κ(i)``: the joints (body numbers) on the path from the base to body ``i``, in order."""
        path = []
        while i > 0:
            path.append(i)
            i = self.parent[i]
        return path[::-1]

    def subtree(self, i: int) -> list[int]:
        """``ν(i)``: body ``i`` and all its descendants, in increasing order."""
        if i == 0:
            return list(range(1, self.NB + 1))  # every body is supported by the base
        return [j for j in range(1, self.NB + 1) if i in self.support(j)]

    def expanded_parent(self) -> np.ndarray:
        """Expanded parent array ``λ'`` over velocity variables (Featherstone Table 6.4).

        Each multi-DoF joint becomes a chain of single-DoF arcs.  Indices are 0-based:
        ``lam[k]`` is the velocity variable that is variable ``k``'s parent, or ``-1`` at the
        root, and ``lam[k] < k`` always.  ``H[k, j]`` can be non-zero for ``j < k`` only if
        ``j`` is reached from ``k`` by repeatedly applying ``lam`` (branch-induced sparsity).
        """
        lam = np.arange(self.nv) - 1  # the book's initialisation (0, 1, …, n-1), 0-based
        for i in range(1, self.NB + 1):
            if self.joints[i].nv == 0:
                continue
            p = self.parent[i]
            # the last velocity variable of the nearest ancestor that has any
            while p > 0 and self.joints[p].nv == 0:
                p = self.parent[p]
            lam[self.v_index[i].start] = self.v_index[p].stop - 1 if p > 0 else -1
        return lam

    # ------------------------------------------------------------------ states

    def check_state(self, q=None, qd=None, qdd=None, tau=None, *, tree_dynamics: str | None = None):
        """Validate and convert state arrays; return them as float arrays (None stays None).

        The arrays come back in one floating type, NumPy's promotion of their own types and the
        model's :attr:`dtype`: ``float32``, ``float64`` and ``longdouble`` arrays keep their
        precision (the tree algorithms compute in it), anything else becomes ``float64``.

        Parameters
        ----------
        q : array_like, shape (..., nq), optional
        qd, qdd, tau : array_like, shape (..., nv), optional
        tree_dynamics : str, optional
            The name of the calling function when it computes the tree's dynamics: a model
            with loop joints is then refused (:meth:`check_tree`).

        Raises
        ------
        ValueError
            Naming the argument, if a shape is wrong, an array is complex, an entry is not
            finite, or a joint's configuration is invalid (e.g. a non-unit quaternion); with
            ``tree_dynamics``, if the model has loop joints.
        """
        if tree_dynamics is not None:
            self.check_tree(tree_dynamics)
        out = []
        for value, name, n in ((q, "q", self.nq), (qd, "qd", self.nv), (qdd, "qdd", self.nv)):
            out.append(None if value is None else as_float_array(value, name, (n,)))
        out.append(None if tau is None else as_float_array(tau, "tau", (self.nv,)))
        dtype = np.result_type(self.dtype, *(a.dtype for a in out if a is not None))
        out = [None if a is None else a.astype(dtype, copy=False) for a in out]
        if out[0] is not None:
            for i in range(1, self.NB + 1):
                if type(self.joints[i]).check_q is not Joint.check_q:  # the default accepts any q
                    self.joints[i].check_q(out[0][..., self.q_index[i]], f"q of joint {i}")
        return tuple(out)

    def neutral_configuration(self) -> np.ndarray:
        """The configuration with every joint at its zero position, shape (nq,)."""
        q = np.zeros(self.nq)
        for i in range(1, self.NB + 1):
            q[self.q_index[i]] = self.joints[i].neutral()
        return q

    def random_configuration(self, rng: np.random.Generator, shape: tuple = ()) -> np.ndarray:
        """A random valid configuration of shape ``shape + (nq,)``."""
        q = np.zeros(tuple(shape) + (self.nq,))
        for i in range(1, self.NB + 1):
            q[..., self.q_index[i]] = self.joints[i].random_configuration(rng, shape)
        return q

    def _per_joint(self, method: str, q: np.ndarray, v: np.ndarray, *args) -> np.ndarray:
        """Apply a joint's configuration-space method joint by joint."""
        out = np.zeros(np.broadcast_shapes(q.shape[:-1], v.shape[:-1]) + (self.nq,))
        for i in range(1, self.NB + 1):
            qi, vi = q[..., self.q_index[i]], v[..., self.v_index[i]]
            out[..., self.q_index[i]] = getattr(self.joints[i], method)(qi, vi, *args)
        return out

    def q_dot(self, q, qd) -> np.ndarray:
        """Derivative of the position variables, ``q̇``, from velocity variables (eq. 3.7)."""
        q, qd, _, _ = self.check_state(q, qd)
        return self._per_joint("q_dot", q, qd)

    def integrate(self, q, v, dt) -> np.ndarray:
        """Configuration reached from ``q`` moving with velocity variables ``v`` for time ``dt``.

        Quaternion joints integrate on the unit sphere, so the result stays valid.
        """
        q, v, _, _ = self.check_state(q, v)
        return self._per_joint("integrate", q, v, dt)

    def difference(self, q0, q1) -> np.ndarray:
        """Velocity variables ``v`` with ``integrate(q0, v, 1) == q1``, shape (..., nv)."""
        q0, _, _, _ = self.check_state(q0)
        q1, _, _, _ = self.check_state(q1)
        out = np.zeros(np.broadcast_shapes(q0.shape[:-1], q1.shape[:-1]) + (self.nv,))
        for i in range(1, self.NB + 1):
            qi = self.q_index[i]
            out[..., self.v_index[i]] = self.joints[i].difference(q0[..., qi], q1[..., qi])
        return out

    def __repr__(self) -> str:
        return f"Model(NB={self.NB}, nq={self.nq}, nv={self.nv}, gravity={self.gravity.tolist()})"
