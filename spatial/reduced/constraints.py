"""Constraint rows for REDMAX: maximal and reduced, bilateral and unilateral (Sueda §2.8,
eqs. 2.93–2.97, 2.102, 2.104).

A tree in reduced coordinates satisfies its joints by construction.  Everything else — a loop
that closes the tree, a coupling between joints, a prescribed joint motion, a contact with the
ground — is added as a constraint on the velocities, in one of two coordinate sets:

* **maximal** constraints ``G_m φ = 0`` act on the stacked body twists ``φ = J_mr q̇``; in reduced
  coordinates they become ``G_m J_mr q̇ = 0`` (eq. 2.98).  Here ``G_m J_mr`` is formed row by row
  with the ``O(n)`` transpose product of Alg. 6 (``(G_m J)ᵀ = Jᵀ G_mᵀ``), and the acceleration
  term ``(Ġ_m J_mr + G_m J̇_mr) q̇ = Ġ_m φ + G_m (J̇_mr q̇)`` with Alg. 5;
* **reduced** constraints ``G_r q̇ = 0`` act on the joint velocities directly (eq. 2.100).

Stacking both gives ``Ḡ_r`` and ``Ḡ̇_r q̇`` (eq. 2.102), and likewise ``C̄_r`` and ``C̄̇_r q̇`` for the
unilateral ones (eq. 2.104): :func:`constraint_rows`.  The systems that use them are in
:mod:`.constrained`.

The point constraint (eqs. 2.93–2.97).  A point ``x_A`` fixed in body ``A`` moves in world
coordinates with ``ṗ_A = R_A Γ(x_A) φ_A``, ``Γ(x) = [-[x]×, 1]`` (``R_A`` the body-to-world
rotation).  Asking ``ṗ_A = ṗ_B`` along the three world axes closes a ball joint.  A loop closed
by a *hinge* in a planar mechanism must not use all three: the four-bar has three joints and
one degree of freedom, so only two constraints are independent, and the third row (along the
hinge axis) makes ``Ḡ_r`` rank deficient and the KKT matrix singular.  Eq. 2.94 builds two unit
directions perpendicular to the hinge axis ``a``; here they are built in body ``A``'s
coordinates, so they turn with ``A``, and ``Ġ_m`` then has two parts: the rotating body frames
(``d/dt (R Γ) = R [ω]× Γ``, eq. 2.97) and the rotating directions
(``v̇_k = R_A [ω_A]× v_k^A``).  Eq. 2.97 keeps only the first; the second multiplies the
relative velocity ``ṗ_A - ṗ_B``, which vanishes in every direction for a planar loop, so the
book's form is exact there but not for a general spatial hinge.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from .._batched import skew_matrix
from .._validate import as_array, as_scalar_array, integer, real
from ..dynamics.rnea import _check_f_ext
from ..joints import Revolute, Spherical, SphericalYPR
from ..kinematics import _forward_pass
from ..model import Model
from ..vectors import unplux
from .jacobian import _rows
from .products import _dot_product, _product, _transpose_product

__all__ = [
    "hinge_directions",
    "PointConstraint",
    "JointConstraint",
    "PointContact",
    "JointLimit",
    "ConstraintRows",
    "maximal_constraint_jacobian",
    "constraint_rows",
    "loop_point_constraints",
]


# ----------------------------------------------------------------------------- the constraint kinds


def hinge_directions(axis) -> np.ndarray:
    """Two orthonormal directions perpendicular to a hinge axis (Sueda eq. 2.94).

    ``v₁`` starts as the coordinate axis along which ``|a|`` is smallest (so that ``a × v₁`` is
    well away from zero), ``v₂ = a × v₁ / |a × v₁|`` and finally ``v₁ = v₂ × a / |v₂ × a|``.

    Parameters
    ----------
    axis : array_like, shape (3,)
        Nonzero hinge axis (normalized here).

    Returns
    -------
    ndarray, shape (2, 3)
        Rows ``v₁``, ``v₂``; ``(v₁, v₂, a)`` is a right-handed orthonormal frame.

    Raises
    ------
    ValueError
        If ``axis`` is not a finite nonzero 3-vector.

    Examples
    --------
    >>> hinge_directions([0.0, 0.0, 2.0])
    array([[1., 0., 0.],
           [0., 1., 0.]])
    """
    a = as_array(axis, "axis", (3,))
    if a.ndim != 1 or np.linalg.norm(a) < 1e-12:
        raise ValueError(f"axis must be one nonzero 3-vector, got {axis!r}")
    return _hinge_directions(a)


def _hinge_directions(axis) -> np.ndarray:
    """Kernel of :func:`hinge_directions` for a checked nonzero axis."""
    a = np.asarray(axis, dtype=float)
    a = a / np.sqrt(a @ a)
    v1 = np.zeros(3)
    v1[int(np.argmin(np.abs(a)))] = 1.0
    v2 = skew_matrix(a) @ v1  # a × v₁
    v2 /= np.sqrt(v2 @ v2)
    v1 = skew_matrix(v2) @ a  # v₂ × a
    return np.stack([v1 / np.sqrt(v1 @ v1), v2])


@dataclass(frozen=True)
class PointConstraint:
    """Bilateral maximal constraint: point ``point_a`` of body ``body_a`` stays on point
    ``point_b`` of body ``body_b`` (Sueda eqs. 2.93–2.97).

    Body 0 is the world.  Points are in their body's coordinates.  With ``axis`` (a hinge axis
    in ``body_a``'s coordinates) only the two directions of eq. 2.94 perpendicular to it are
    constrained; without it all three world directions are (a ball joint).
    """

    body_a: int
    point_a: tuple
    body_b: int = 0
    point_b: tuple = (0.0, 0.0, 0.0)
    axis: tuple | None = None


@dataclass(frozen=True)
class PointContact:
    """Unilateral maximal constraint: ``n · p ≥ height`` for point ``point`` of body ``body``,
    with ``n`` a fixed world direction (ground contact, Sueda eq. 2.104)."""

    body: int
    point: tuple
    normal: tuple = (0.0, 0.0, 1.0)
    height: float = 0.0


@dataclass(frozen=True)
class JointConstraint:
    """Bilateral reduced constraint ``G_r q̇ = 0`` with constant rows (Sueda eq. 2.100)."""

    rows: np.ndarray = field(repr=False)


@dataclass(frozen=True)
class JointLimit:
    """Unilateral reduced constraint ``lower ≤ q_i ≤ upper`` on the velocity variable ``index``
    of a joint whose configuration is its velocity variable (Sueda eq. 2.104)."""

    index: int
    lower: float | None = None
    upper: float | None = None


class ConstraintRows(NamedTuple):
    """Stacked constraint rows at one state (Sueda eqs. 2.102, 2.104).

    ``G`` (k, nv) is ``Ḡ_r``, ``Gdot_qd`` (k,) is ``Ḡ̇_r q̇`` and ``error`` (k,) the position
    error ``C(q)`` (the gap ``≥ 0`` for unilateral rows; zero for reduced bilateral rows).
    """

    G: np.ndarray
    Gdot_qd: np.ndarray
    error: np.ndarray


# ----------------------------------------------------------------------------- kernels


def _frame(fp, body: int) -> tuple[np.ndarray, np.ndarray]:
    """Body-to-world rotation ``R`` and origin ``r`` (world) from ``^iX_0 = [E 0; -E r× E]``."""
    X = fp.X0[body]
    E = X[:3, :3]
    r_cross = -E.T @ X[3:, :3]
    return E.T, np.array([r_cross[2, 1], r_cross[0, 2], r_cross[1, 0]])


def _gamma(x: np.ndarray) -> np.ndarray:
    """``Γ(x) = [-[x]×, 1]`` (3, 6): the body-frame velocity of point ``x`` is ``Γ(x) φ``."""
    return np.hstack([-skew_matrix(x), np.eye(3)])


def _point_rows(model, fp, phi, ends, V, V_dot):
    """``G_m``, ``Ġ_m`` (k, 6 NB) and ``C`` (k,) of ``V (p_a - p_b) = 0`` (eqs. 2.95, 2.97).

    ``ends`` is ``((body_a, x_a, +1), (body_b, x_b, -1))``; ``V``, ``V_dot`` (k, 3) the world
    directions and their rates.
    """
    k = V.shape[0]
    G, Gd, gap = np.zeros((k, 6 * model.NB)), np.zeros((k, 6 * model.NB)), np.zeros(k)
    for body, x, sign in ends:
        x = np.asarray(x, dtype=float)
        if body == 0:
            gap += sign * (V @ x)
            continue
        R, r = _frame(fp, body)
        RG = R @ _gamma(x)
        omega = phi[_rows(body)][:3]
        G[:, _rows(body)] = sign * V @ RG
        Gd[:, _rows(body)] = sign * (V_dot @ RG + V @ R @ skew_matrix(omega) @ _gamma(x))
        gap += sign * (V @ (r + R @ x))
    return G, Gd, gap


def _maximal(model, fp, phi, item):
    """``G_m``, ``Ġ_m``, ``C`` of a :class:`PointConstraint` or :class:`PointContact`."""
    if isinstance(item, PointContact):
        n = np.asarray(item.normal, float)[None]
        G, Gd, gap = _point_rows(model, fp, phi, ((item.body, item.point, 1.0),), n, 0 * n)
        return G, Gd, gap - item.height
    ends = ((item.body_a, item.point_a, 1.0), (item.body_b, item.point_b, -1.0))
    if item.axis is None:
        return _point_rows(model, fp, phi, ends, np.eye(3), np.zeros((3, 3)))
    H = _hinge_directions(item.axis)
    if item.body_a == 0:
        return _point_rows(model, fp, phi, ends, H, np.zeros_like(H))
    R, _ = _frame(fp, item.body_a)
    omega = phi[_rows(item.body_a)][:3]
    return _point_rows(model, fp, phi, ends, H @ R.T, H @ skew_matrix(omega).T @ R.T)


def _rows_of(model, fp, q, phi, Jd_qd, item):
    """``Ḡ_r`` rows, ``Ḡ̇_r q̇`` and ``C`` of one item (eqs. 2.102, 2.104)."""
    if isinstance(item, JointConstraint):
        return item.rows, np.zeros(len(item.rows)), np.zeros(len(item.rows))
    if isinstance(item, JointLimit):
        rows, err = [], []
        for bound, sign in ((item.lower, 1.0), (item.upper, -1.0)):
            if bound is not None:
                rows.append(sign * np.eye(model.nv)[item.index])
                err.append(sign * (q[item.index] - bound))
        return np.array(rows).reshape(-1, model.nv), np.zeros(len(rows)), np.array(err)
    G_m, Gd_m, error = _maximal(model, fp, phi, item)
    G = _transpose_product(model, fp, G_m)  # (G_m J)ᵀ = Jᵀ G_mᵀ row by row (Alg. 6)
    return G, Gd_m @ phi + G_m @ Jd_qd, error


def _stack(model, fp, q, qd, items):
    """:class:`ConstraintRows` of a list of items on a validated state."""
    if not items:
        return ConstraintRows(np.zeros((0, model.nv)), np.zeros(0), np.zeros(0))
    x = _product(model, fp, qd)
    phi = np.concatenate(x[1:]) if model.NB else np.zeros(0)
    Jd_qd = np.concatenate(_dot_product(model, fp, q, qd, qd, x)[1:])
    parts = [_rows_of(model, fp, q, phi, Jd_qd, item) for item in items]
    return ConstraintRows(*(np.concatenate(p) for p in zip(*parts, strict=True)))


def _check_items(model: Model, items, kinds, what: str) -> tuple:
    """Validate constraint items once (bodies, points, shapes, signs)."""
    items = tuple(items)
    for item in items:
        if not isinstance(item, kinds):
            names = ", ".join(k.__name__ for k in kinds)
            raise TypeError(f"{what} must be instances of {names}; got {item!r}")
        if isinstance(item, JointConstraint):
            rows = np.asarray(real(item.rows, "JointConstraint rows"), float)
            if rows.ndim != 2 or rows.shape[1] != model.nv or not np.all(np.isfinite(rows)):
                raise ValueError(
                    f"JointConstraint rows must be finite with shape (k, nv={model.nv})"
                )
            continue
        if isinstance(item, JointLimit):
            index = integer(item.index, "JointLimit index")
            if not 0 <= index < model.nv or model.nq != model.nv:
                raise ValueError(
                    f"JointLimit index {index} must name a velocity variable 0 … "
                    f"{model.nv - 1} of a model whose q is its velocity variables (nq = nv)"
                )
            lo, hi = item.lower, item.upper
            for bound, which in ((lo, "lower"), (hi, "upper")):
                if bound is not None and as_scalar_array(bound, f"JointLimit {which}").shape:
                    raise ValueError(f"JointLimit {which} must be one number, got {bound!r}")
            if lo is not None and hi is not None and lo > hi:
                raise ValueError(f"JointLimit lower {lo} exceeds upper {hi}")
            continue
        bodies = (item.body,) if isinstance(item, PointContact) else (item.body_a, item.body_b)
        for b in bodies:
            if not 0 <= integer(b, f"body of {item!r}") <= model.NB:
                raise ValueError(f"body {b} of {item!r} is not 0 … NB = {model.NB}")
        if isinstance(item, PointConstraint):
            if item.body_a == item.body_b:
                raise ValueError(f"a point constraint needs two different bodies, got {item!r}")
            for p in (item.point_a, item.point_b) + (() if item.axis is None else (item.axis,)):
                as_array(p, "constraint point", (3,))
            if item.axis is not None:
                hinge_directions(item.axis)
        else:
            as_array(item.point, "contact point", (3,))
            n = as_array(item.normal, "contact normal", (3,))
            if abs(np.linalg.norm(n) - 1.0) > 1e-9:
                raise ValueError(f"contact normal must be a unit vector, got {item.normal!r}")
            if as_scalar_array(item.height, "contact height").shape:
                raise ValueError(f"contact height must be one number, got {item.height!r}")
    return items


def _check_state(model, q, qd, tau, f_ext, who=None):
    """One validated state; ``who`` names a dynamics function, which refuses loop joints."""
    q, qd, _, tau = model.check_state(q, qd, None, tau, tree_dynamics=who)
    if q.ndim != 1 or qd.ndim != 1 or (tau is not None and tau.ndim != 1):
        raise ValueError("constrained REDMAX takes one state: q, qd and tau must be 1-D")
    return q, qd, np.zeros(model.nv) if tau is None else tau, _check_f_ext(model, f_ext)


# ----------------------------------------------------------------------------- public API


def maximal_constraint_jacobian(model: Model, q, qd, constraint) -> tuple[np.ndarray, np.ndarray]:
    """``G_m`` and ``Ġ_m`` of one maximal constraint (Sueda eqs. 2.95, 2.97).

    Parameters
    ----------
    model : Model
    q : array_like, shape (nq,)
    qd : array_like, shape (nv,)
    constraint : PointConstraint or PointContact

    Returns
    -------
    G_m, Gdot_m : ndarray, shape (k, 6 NB)
        With ``k = 2`` for a hinge, 3 for a ball, 1 for a contact.

    Raises
    ------
    ValueError, TypeError
        For an invalid state or constraint.
    """
    q, qd, _, _ = _check_state(model, q, qd, None, None)
    (item,) = _check_items(model, (constraint,), (PointConstraint, PointContact), "constraint")
    fp = _forward_pass(model, q, qd)
    phi = np.concatenate(_product(model, fp, qd)[1:])
    G, Gd, _ = _maximal(model, fp, phi, item)
    return G, Gd


def constraint_rows(model: Model, q, qd, constraints) -> ConstraintRows:
    """Stacked ``Ḡ_r``, ``Ḡ̇_r q̇`` and position errors of a list of constraints (eq. 2.102).

    Maximal constraints are mapped with ``O(n)`` Jacobian products (Algs. 5–6).

    Parameters
    ----------
    model : Model
    q : array_like, shape (nq,)
    qd : array_like, shape (nv,)
    constraints : sequence of PointConstraint, PointContact, JointConstraint, JointLimit

    Returns
    -------
    ConstraintRows

    Raises
    ------
    ValueError, TypeError
        For an invalid state or constraint.
    """
    q, qd, _, _ = _check_state(model, q, qd, None, None)
    kinds = (PointConstraint, PointContact, JointConstraint, JointLimit)
    items = _check_items(model, constraints, kinds, "constraints")
    return _stack(model, _forward_pass(model, q, qd), q, qd, items)


def loop_point_constraints(model: Model) -> list[PointConstraint]:
    """The model's loop joints as REDMAX point constraints (Sueda §2.8, eqs. 2.93–2.94).

    Loop joint ``l`` connects frame ``F_p`` on its predecessor (``X_P(l)``) with ``F_s`` on its
    successor (``X_S(l)``), Featherstone §4.2.  Its point constraint holds the origins of the
    two frames together: all three directions for a ball joint (``Spherical``,
    ``SphericalYPR``), and for a ``Revolute`` joint only the two directions perpendicular to
    the hinge axis (eq. 2.94), so that a planar loop gets exactly its two independent rows.
    ``body_a`` is the predecessor (the successor when the predecessor is the world), and the
    axis is given in its coordinates.

    The hinge constraint of eq. 2.94 holds a position only: it is the whole loop joint in a
    planar mechanism, where the tree keeps every axis parallel, but it does not hold the two
    rotations a hinge also forbids in a spatial loop.

    Parameters
    ----------
    model : Model

    Returns
    -------
    list of PointConstraint
        One per loop joint, in the model's order (empty for a tree).

    Raises
    ------
    ValueError
        If a loop joint is neither revolute nor a ball joint.
    """
    if not isinstance(model, Model):
        raise ValueError(f"model must be a spatial.Model, got {model!r}")
    out = []
    for loop in model.loop_joints:
        joint = loop.joint
        if not isinstance(joint, Revolute | Spherical | SphericalYPR):
            raise ValueError(
                f"loop joint {loop.name!r} is a {type(joint).__name__}: only revolute and ball "
                "loop joints become point constraints (Sueda §2.8)"
            )
        ends = [(loop.predecessor, *unplux(loop.X_p)), (loop.successor, *unplux(loop.X_s))]
        if loop.predecessor == 0:
            ends.reverse()
        (a, E_a, r_a), (b, _, r_b) = ends
        axis = tuple(E_a.T @ joint.axis) if isinstance(joint, Revolute) else None
        out.append(PointConstraint(a, tuple(r_a), b, tuple(r_b), axis=axis))
    return out
