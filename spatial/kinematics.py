"""Kinematics of a kinematic tree: positions, velocities, accelerations, Jacobians, energy.

Every function here reads one shared forward pass over the bodies in their regular numbering
(Featherstone Example 4.3–4.4 and the first loop of the RNEA, eqs. 5.7–5.8):

* ``Xup[i] = X_J X_T(i)``, the transform ``^iX_λ(i)`` from the parent's frame to body ``i``'s,
* ``X0[i] = Xup[i] X0[λ(i)]``, the transform ``^iX_0`` from base to body coordinates,
* ``v[i] = Xup[i] v[λ(i)] + v_J`` (eq. 5.7, ``v_0 = 0``),
* ``a[i] = Xup[i] a[λ(i)] + S_i q̈_i + c_J + v[i] × v_J`` (eq. 5.8 with the joint's
  velocity-product term, eq. 3.40; ``a_0 = 0``: no gravity here),

all in body coordinates.  On top of it sit the body Jacobian ``J_i`` (eq. 4.6, filled by
walking up the support set as in Sueda §2.1 Alg. 1), ``J̇_i q̇`` (the acceleration at
``q̈ = 0``, Sueda §2.2), point Jacobians, kinetic and potential energy, total momentum and the
centre of mass (Featherstone §2.12–2.13).

The transforms ``Xup[i]`` depend on each joint's own variables only, so
:func:`_tree_transforms` computes them for all bodies before the recursion, the bodies of one
joint class together; :func:`_joint_motion` is the rest of the book's ``jcalc`` (``S``,
``v_J``, ``c_J``).  The dynamics algorithms share both.

Conventions (``spatial.__doc__``): ``q`` has shape ``(..., nq)`` and ``qd``/``qdd``
``(..., nv)``; results keep the leading batch shape.  Per-body outputs have shape
``(..., NB + 1, ...)`` with row ``i`` = body ``i`` and row 0 = the fixed base.  A ``body``
argument is a body number ``0 … NB`` or a body name (``model.names``).  "Body coordinates" are
Plücker coordinates at body ``i``'s frame; "world coordinates" are base coordinates, with
their origin at the base frame's origin (Featherstone's ``^0v_i``).  For a model with loop
joints every function describes its spanning tree: loop constraints are not enforced here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._batched import cross_motion, inv_motion, xinv  # unvalidated: the transforms are built here
from ._batched import mv as _mv
from ._validate import as_array
from .model import Model
from .se3 import material_jacobian
from .vectors import pluho, point_acceleration, unskew
from .vectors.factored import FactoredTransform, factor_transform, translation, translation_of

__all__ = [
    "forward_kinematics",
    "body_poses",
    "body_velocities",
    "body_accelerations",
    "body_jacobian",
    "jdot_qdot",
    "point_jacobian",
    "kinetic_energy",
    "potential_energy",
    "momentum",
    "center_of_mass",
]

_FRAMES = ("body", "world")


@dataclass
class _ForwardPass:
    """What one sweep from the base to the leaves computes (lists indexed by body number)."""

    Xup: list  # Xup[i] = ^iX_λ(i), (..., 6, 6); Xup[0] is None
    X0: list  # X0[i] = ^iX_0, (..., 6, 6); X0[0] = 1
    S: list  # S[i], (..., 6, nv_i) in body i coordinates; S[0] is None
    v: list | None  # v[i], (..., 6) body coordinates; None unless qd was given
    a: list | None  # a[i], (..., 6) body coordinates, without gravity; None unless qdd was given


def _tree_transforms(model: Model, q: np.ndarray) -> list:
    """``Xup[i] = ^iX_λ(i) = X_J(q_i) X_T(i)`` of every body (the position part of ``jcalc``).

    The transforms depend on the joint's own variables only, so they need no recursion.
    Bodies whose joints are of one class with a transform basis (revolute, prismatic) are done
    together, the bodies as one more batch axis: ``f(q) K + K_0`` with the model's fused
    constants (:meth:`Model.fused_groups`) in one product.  ``Xup[0]`` is ``None``.
    """
    Xup = [None] * (model.NB + 1)
    batch = q.shape[:-1]
    for bodies, columns, features, K, K_0 in model.fused_groups(q.dtype):
        f = features(q[..., columns, None])  # (..., r, k)
        f = f.reshape(-1, len(bodies), f.shape[-1]).swapaxes(0, 1)  # (r, states, k): bodies first
        X = f @ K  # (r, states, 36): one small product per body
        X = X.reshape((len(bodies),) + batch + (6, 6))
        X += K_0.reshape((-1,) + (1,) * len(batch) + (6, 6))  # in place: one array less
        for r, i in enumerate(bodies):
            Xup[i] = X[r]  # contiguous (..., 6, 6)
    for i in range(1, model.NB + 1):
        if Xup[i] is None:
            X_J = model.joints[i].transform(q[..., model.q_index[i]])
            Xup[i] = (X_J @ model.X_tree[i]).astype(q.dtype, copy=False)
    return Xup


def _tree_translations(model: Model, dtype) -> list:
    """``r_i`` of ``^iX_λ(i) = rot(E_i) xlt(r_i)`` for the bodies whose joint never translates.

    When ``X_J`` is a pure rotation (the joint's :meth:`~spatial.joints.Joint.transform_basis`
    has zero lower-left blocks: revolute joints), ``^iX_λ(i) = rot(E_J E_T) xlt(r_T)``, so
    ``r_i = r_T(i)`` is a constant of the model (Table A.4's ``X_1 X_2``); its factor
    ``xlt(r_i)`` is kept too.  ``None`` for the other bodies.  Kept until a joint or tree
    transform is replaced.
    """

    def compute():
        out = [None] * (model.NB + 1)
        for i in range(1, model.NB + 1):
            basis = model.joints[i].transform_basis()
            if basis is None or np.any(basis[0][:, 3:, :3]) or np.any(basis[1][3:, :3]):
                continue
            r = translation_of(np.asarray(model.X_tree[i], dtype))
            # reading r back from E and B = -E r× leaves round-off where r has a zero (an
            # offset along one axis only): the zero is restored, so that code generated for
            # the model (spatial.symbolic) can drop its products
            r[np.abs(r) < 1e-14 * np.abs(r).max(initial=0.0)] = 0.0
            xlt = translation(r).astype(dtype)
            r.flags.writeable = xlt.flags.writeable = False
            out[i] = (r, xlt)
        return out

    return model._cached(("translations", np.dtype(dtype)), (*model.joints, *model.X_tree), compute)


def _tree_factors(
    model: Model, Xup: list, overwrite: bool = False, constant_only: bool = False
) -> list:
    """``Xup[i]`` as its factors ``rot(E_i) xlt(r_i)`` (a ``FactoredTransform``, Table A.4).

    ``r_i`` is the model's constant when the joint does not translate
    (:func:`_tree_translations`), else it is recovered from ``Xup[i]`` (with ``constant_only``
    such bodies get ``None``).  Entry 0 is ``None``.  With ``overwrite`` the factors
    ``rot(E_i)`` are ``Xup[i]`` itself, its lower-left block zeroed in place (the caller no
    longer needs ``Xup``): no copy per body.
    """
    dtype = Xup[1].dtype if model.NB else model.dtype
    constant = _tree_translations(model, model.dtype if dtype.kind == "O" else dtype)
    out = [None] * (model.NB + 1)
    for i in range(1, model.NB + 1):
        known = constant[i]
        if known is None:
            out[i] = None if constant_only else factor_transform(Xup[i])
        else:
            rot = Xup[i] if overwrite and Xup[i].flags.writeable else Xup[i].copy()
            rot[..., 3:, :3] = 0.0
            out[i] = FactoredTransform(rot, known[1], known[0])
    return out


def _joint_motion(model: Model, i: int, q_i: np.ndarray, qd_i=None):
    """The motion part of ``jcalc`` for joint ``i`` (Featherstone §4.4): ``S``, ``v_J``, ``c_J``.

    ``S`` (..., 6, n_i) in the joint's successor frame; when ``qd_i`` is given also
    ``v_J = S q̇_i`` (..., 6) and ``c_J`` (..., 6), which is ``None`` for joints with a constant
    ``S`` (``c_J = 0``).  Everything in ``q_i``'s floating type.
    """
    joint, dtype = model.joints[i], q_i.dtype
    S = joint.motion_subspace(q_i).astype(dtype, copy=False)  # the joint's constants: float64
    if qd_i is None:
        return S, None, None
    v_J = (S @ qd_i[..., None])[..., 0]
    c_J = None if joint.constant_S else joint.bias(q_i, qd_i).astype(dtype, copy=False)
    return S, v_J, c_J


def _joint_motions(model: Model, constants, q: np.ndarray, qd: np.ndarray, batch: tuple):
    """The motion part of ``jcalc`` for every joint at once: ``S``, ``v_J`` and ``c_J``.

    ``S`` is a list (``S[i]`` (..., 6, n_i)); ``v_J`` is (NB, ..., 6), bodies first, with the
    batch shape ``batch``; ``c_J`` is a list with ``None`` for the joints with a constant ``S``
    (``c_J = 0``).  The one-DoF joints with a constant ``S`` share one product
    ``q̇_i S_i`` (``constants``, :meth:`Model.motion_constants` in ``q``'s type), built bodies
    first so that no copy reorders it; the others call their joint model.
    """
    S, c_J = list(constants.S), [None] * (model.NB + 1)
    m = len(constants.columns)
    qd_one = np.broadcast_to(qd[..., constants.columns], batch + (m,))  # a view
    qd_one = qd_one.reshape(math.prod(batch), m).T[..., None]  # (m, states, 1)
    v_one = (qd_one @ constants.S_one[:, None, :]).reshape((m,) + batch + (6,))  # q̇_i S_iᵀ rows
    if not constants.others:  # every joint is one of them, in body order
        return S, v_one, c_J
    v_J = np.empty((model.NB,) + batch + (6,), q.dtype)
    v_J[constants.rows] = v_one
    for i in constants.others:
        S[i], v_J[i - 1], c_J[i] = _joint_motion(
            model, i, q[..., model.q_index[i]], qd[..., model.v_index[i]]
        )
    return S, v_J, c_J


def _times_S(A: np.ndarray, S: np.ndarray, k: int | None) -> np.ndarray:
    """``A S`` (..., m, n_i); with ``S = e_k`` (``k`` not None) it is column ``k`` of ``A``.

    ``k`` is :meth:`Model.unit_motion_axis`: for such joints the products with ``S`` of the
    book's tables become selections (Featherstone §10.3.1).
    """
    return A @ S if k is None else A[..., k : k + 1]


def _S_T_times(S: np.ndarray, x: np.ndarray, k: int | None) -> np.ndarray:
    """``Sᵀ x`` (..., n_i, m); with ``S = e_k`` (``k`` not None) it is row ``k`` of ``x``."""
    return S.swapaxes(-1, -2) @ x if k is None else x[..., k : k + 1, :]


def _forward_pass(model: Model, q: np.ndarray, qd=None, qdd=None) -> _ForwardPass:
    """The base-to-leaves recursion of Example 4.4 and eqs. 5.7–5.8 on validated arrays.

    Velocities are computed when ``qd`` is given, accelerations when ``qdd`` is given too.
    """
    batch = np.broadcast_shapes(*(x.shape[:-1] for x in (q, qd, qdd) if x is not None))
    dtype = q.dtype
    Xup, X0, S = (
        _tree_transforms(model, q),
        [np.broadcast_to(np.eye(6, dtype=dtype), batch + (6, 6))],
        [None],
    )
    v = None if qd is None else [np.zeros(batch + (6,), dtype)]
    a = None if qdd is None else [np.zeros(batch + (6,), dtype)]
    for i in range(1, model.NB + 1):
        p = model.parent[i]
        qd_i = None if qd is None else qd[..., model.v_index[i]]
        S_i, v_J, c_J = _joint_motion(model, i, q[..., model.q_index[i]], qd_i)
        X0.append(Xup[i] @ X0[p])
        S.append(S_i)
        if v is not None:
            v.append(_mv(Xup[i], v[p]) + v_J)
        if a is not None:
            a_i = _mv(Xup[i], a[p]) + _mv(S_i, qdd[..., model.v_index[i]])
            a.append(a_i + cross_motion(v[i], v_J) + (0.0 if c_J is None else c_J))
    return _ForwardPass(Xup, X0, S, v, a)


def _stack(per_body: list, batch: tuple, tail: tuple) -> np.ndarray:
    """Stack a per-body list into one array of shape ``batch + (NB + 1,) + tail``."""
    return np.stack([np.broadcast_to(x, batch + tail) for x in per_body], axis=len(batch))


def _batch(*arrays) -> tuple:
    return np.broadcast_shapes(*(x.shape[:-1] for x in arrays))


def _body_index(model: Model, body) -> int:
    """Body number from an int ``0 … NB`` or a body name; ``ValueError`` otherwise."""
    if isinstance(body, str):
        return model.body(body)
    if isinstance(body, bool) or not isinstance(body, (int, np.integer)):
        raise ValueError(f"body must be a body number or a body name, got {body!r}")
    if not 0 <= body <= model.NB:
        raise ValueError(f"body must be in 0 … {model.NB} (0 is the base), got {body}")
    return int(body)


def _check_frame(frame: str) -> None:
    if frame not in _FRAMES:
        raise ValueError(f"frame must be 'body' or 'world', got {frame!r}")


def _pose(X0_i: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(R, o)`` of a body from ``^iX_0 = plux(E, o)``: ``R = Eᵀ`` (body → world), origin ``o``."""
    E = X0_i[..., :3, :3]
    R = np.swapaxes(E, -1, -2)
    return R, unskew(-R @ X0_i[..., 3:, :3])


# ----------------------------------------------------------------------------- positions


def forward_kinematics(model: Model, q) -> np.ndarray:
    """Transforms ``^iX_0`` from base to body coordinates of every body (Featherstone Ex. 4.3).

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)

    Returns
    -------
    X0 : ndarray, shape (..., NB + 1, 6, 6)
        ``X0[..., i, :, :] = ^iX_0``; row 0 (the base) is the identity.

    Raises
    ------
    ValueError
        If ``q`` has the wrong shape, is not finite, or is not a valid configuration.

    Examples
    --------
    >>> import numpy as np, spatial as sp
    >>> from spatial.joints import Revolute
    >>> model = sp.Model()
    >>> I = sp.mcI(1.0, [0.5, 0, 0], np.eye(3))
    >>> model.add_body(0, Revolute("z"), sp.xlt([1.0, 0, 0]), I)
    1
    >>> X0 = sp.forward_kinematics(model, [np.pi / 2])
    >>> np.allclose(X0[1], sp.rotz(np.pi / 2) @ sp.xlt([1.0, 0, 0]))
    True
    """
    q, _, _, _ = model.check_state(q)
    return _stack(_forward_pass(model, q).X0, q.shape[:-1], (6, 6))


def body_poses(model: Model, q) -> np.ndarray:
    """World frames ``T_0i = [[R_i, p_i], [0, 1]]`` of every body (Sueda eq. 2.6, where it is E_0i).

    ``T_0i`` maps point coordinates from body ``i`` to the base: its columns are body ``i``'s
    axes and origin in world coordinates.  It is ``pluho`` of ``^0X_i = (^iX_0)⁻¹`` (Featherstone
    eq. 2.28), so ``Ad(T_0i) == ^0X_i``.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)

    Returns
    -------
    ndarray, shape (..., NB + 1, 4, 4)
        Row 0 (the base) is the identity.

    Raises
    ------
    ValueError
        If ``q`` has the wrong shape, is not finite, or is not a valid configuration.
    """
    return pluho(xinv(forward_kinematics(model, q)))


# ----------------------------------------------------------------------------- velocities


def body_velocities(model: Model, q, qd, frame: str = "body") -> np.ndarray:
    """Spatial velocity of every body, ``v_i = v_λ(i) + S_i q̇_i`` (Featherstone eq. 5.7, Ex. 4.4).

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qd : array_like, shape (..., nv)
        Velocity variables.
    frame : {"body", "world"}
        ``"body"``: ``v_i`` in body ``i``'s coordinates, ``[ω; velocity of the body's origin]``
        (Sueda's body twist).  ``"world"``: ``^0v_i = ^0X_i v_i`` in base coordinates, whose
        linear part is the velocity of the body-fixed point at the base origin (Example 4.4).

    Returns
    -------
    ndarray, shape (..., NB + 1, 6)
        Row 0 (the base) is zero.

    Raises
    ------
    ValueError
        If a state array has the wrong shape or is invalid, or ``frame`` is unknown.
    """
    _check_frame(frame)
    q, qd, _, _ = model.check_state(q, qd)
    fp = _forward_pass(model, q, qd)
    batch = _batch(q, qd)
    v = _stack(fp.v, batch, (6,))
    return v if frame == "body" else inv_motion(_stack(fp.X0, batch, (6, 6)), v)


def body_accelerations(model: Model, q, qd, qdd, frame: str = "body") -> np.ndarray:
    """Spatial acceleration of every body (Featherstone eq. 5.8 with ``c_J``, eq. 3.40).

    ``a_i = a_λ(i) + S_i q̈_i + c_J + v_i × v_J`` with ``a_0 = 0``: the true accelerations,
    *without* the fictitious base acceleration that RNEA uses for gravity (§5.3).  Spatial
    accelerations are not classical ones: the classical acceleration of a body-fixed point
    follows from :func:`spatial.point_acceleration` (§2.11).

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qd, qdd : array_like, shape (..., nv)
    frame : {"body", "world"}
        Body coordinates (the derivative of the body-coordinate velocity) or base coordinates.

    Returns
    -------
    ndarray, shape (..., NB + 1, 6)

    Raises
    ------
    ValueError
        If a state array has the wrong shape or is invalid, or ``frame`` is unknown.
    """
    _check_frame(frame)
    q, qd, qdd, _ = model.check_state(q, qd, qdd)
    fp = _forward_pass(model, q, qd, qdd)
    batch = _batch(q, qd, qdd)
    a = _stack(fp.a, batch, (6,))
    return a if frame == "body" else inv_motion(_stack(fp.X0, batch, (6, 6)), a)


# ----------------------------------------------------------------------------- Jacobians


def _body_jacobian(model: Model, fp: _ForwardPass, i: int) -> np.ndarray:
    """Sueda's Alg. 1 on a forward pass: the blocks ``^iX_j S_j`` for ``j ∈ κ(i)``, (..., 6, nv)."""
    batch = fp.X0[0].shape[:-2]
    J = np.zeros(batch + (6, model.nv))
    iXj = np.broadcast_to(np.eye(6), batch + (6, 6))  # ^iX_j, starting at j = i
    for j in reversed(model.support(i)):
        J[..., model.v_index[j]] = iXj @ fp.S[j]
        iXj = iXj @ fp.Xup[j]
    return J


def body_jacobian(model: Model, q, body, frame: str = "body") -> np.ndarray:
    """Body Jacobian ``J_i`` with ``v_i = J_i q̇`` (Featherstone eq. 4.6, Sueda eq. 2.14).

    Column block ``j`` is ``^iX_j S_j`` if joint ``j`` supports body ``i`` (``j ∈ κ(i)``) and
    zero otherwise.  The blocks are filled by walking from body ``i`` towards the base and
    accumulating ``^iX_j = ^iX_λ(j') ⋯`` one parent transform at a time (Sueda §2.1, Alg. 1).

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    body : int or str
        Body number ``0 … NB`` or name (the base has ``J = 0``).
    frame : {"body", "world"}
        ``"body"``: ``v_i`` in body ``i``'s coordinates; ``"world"``: ``^0v_i`` in base
        coordinates (``^0X_i J_i``).

    Returns
    -------
    J : ndarray, shape (..., 6, nv)

    Raises
    ------
    ValueError
        If ``q`` is invalid, ``body`` is not a body of the model, or ``frame`` is unknown.
    """
    i = _body_index(model, body)
    _check_frame(frame)
    q, _, _, _ = model.check_state(q)
    fp = _forward_pass(model, q)
    J = _body_jacobian(model, fp, i)
    return J if frame == "body" else xinv(fp.X0[i]) @ J


def jdot_qdot(model: Model, q, qd, body, frame: str | None = None, point=None) -> np.ndarray:
    """``J̇ q̇`` of a body (or of a body-fixed point): its acceleration when ``q̈ = 0``.

    Differentiating ``v_i = J_i q̇`` gives ``a_i = J_i q̈ + J̇_i q̇``, so ``J̇_i q̇`` is the
    spatial acceleration of body ``i`` at ``q̈ = 0`` (Sueda eq. 2.2, §2.2), computed by the
    shared recursion without forming ``J̇``.  In body coordinates it is the time derivative of
    ``body_jacobian(q(t), i) q̇`` (the body-coordinate velocity), in world coordinates that of
    ``body_jacobian(q(t), i, frame="world") q̇``.

    With ``point`` (coordinates ``p`` in body ``i``'s frame) the result is instead the
    *classical* acceleration of that body-fixed point at ``q̈ = 0``, in world coordinates:
    ``R_i (a_O + α × p + ω × (v_O + ω × p))`` (Featherstone §2.11,
    :func:`spatial.point_acceleration`), the time derivative of
    ``point_jacobian(q(t), i, p) q̇``.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qd : array_like, shape (..., nv)
    body : int or str
    frame : {"body", "world"}, optional
        For the spatial result: default ``"body"``.  With ``point`` only ``"world"`` (the
        default) is accepted.
    point : array_like, shape (..., 3), optional
        A point fixed in body ``i``, in body coordinates.

    Returns
    -------
    ndarray, shape (..., 6), or (..., 3) with ``point``

    Raises
    ------
    ValueError
        If a state array, ``body``, ``point`` or ``frame`` is invalid (including
        ``frame="body"`` together with ``point``).
    """
    i = _body_index(model, body)
    if point is not None and frame == "body":
        raise ValueError("with point, the acceleration is in world coordinates: use frame='world'")
    frame = ("body" if point is None else "world") if frame is None else frame
    _check_frame(frame)
    p = None if point is None else as_array(point, "point", (3,))
    q, qd, _, _ = model.check_state(q, qd)
    fp = _forward_pass(model, q, qd, np.zeros(model.nv))
    a_i, v_i = fp.a[i], fp.v[i]
    if p is None:
        return a_i if frame == "body" else inv_motion(fp.X0[i], a_i)
    R, _ = _pose(fp.X0[i])
    return _mv(R, point_acceleration(v_i, a_i, p))


def point_jacobian(model: Model, q, body, point) -> np.ndarray:
    """Jacobian of the world velocity of a body-fixed point, ``ṗ_world = J_p q̇``.

    The point's velocity in body coordinates is ``v_O + ω × p = [-p×, 1] v_i`` (Featherstone
    §2.5); rotated into the world it is ``R_i Γ(p) v_i`` with Sueda's material Jacobian
    ``Γ(p) = [[p]ᵀ, 1]`` (Sueda eq. 1.12), so ``J_p = R_i Γ(p) J_i`` with ``J_i`` the body
    Jacobian in body coordinates.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    body : int or str
    point : array_like, shape (..., 3)
        The point in body ``i``'s coordinates.

    Returns
    -------
    ndarray, shape (..., 3, nv)

    Raises
    ------
    ValueError
        If ``q``, ``body`` or ``point`` is invalid.
    """
    i = _body_index(model, body)
    p = as_array(point, "point", (3,))
    q, _, _, _ = model.check_state(q)
    fp = _forward_pass(model, q)
    J = _body_jacobian(model, fp, i)
    R, _ = _pose(fp.X0[i])
    return R @ material_jacobian(p) @ J


# ----------------------------------------------------------------------------- energy, momentum


def _mass_moments(model: Model, X0: list) -> tuple[float, np.ndarray]:
    """Total mass and total first moment of mass ``Σ m_i c_i`` in world coordinates (..., 3).

    Body ``i``'s first moment ``h_i = m_i c_i`` sits in its inertia's upper-right block
    ``m_i c_i×`` (eq. 2.63); in the world it is ``R_i h_i + m_i o_i``.
    """
    mass, moment = 0.0, 0.0
    for i in range(1, model.NB + 1):
        m_i = model.inertia[i][3, 3]
        R, o = _pose(X0[i])
        mass += m_i
        moment = moment + _mv(R, unskew(model.inertia[i][:3, 3:])) + m_i * o
    return mass, np.broadcast_to(moment, X0[0].shape[:-2] + (3,))


def kinetic_energy(model: Model, q, qd) -> np.ndarray:
    """Kinetic energy ``T = ½ Σ_i v_i · I_i v_i`` (Featherstone eq. 2.67; ``= ½ q̇ᵀ H q̇``, eq. 3.2).

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qd : array_like, shape (..., nv)

    Returns
    -------
    ndarray, shape (...)

    Raises
    ------
    ValueError
        If a state array has the wrong shape or is invalid.
    """
    q, qd, _, _ = model.check_state(q, qd)
    return _kinetic(model, _forward_pass(model, q, qd).v, _batch(q, qd))


def _kinetic(model: Model, v: list, batch: tuple) -> np.ndarray:
    """``½ Σ_i v_i · I_i v_i`` from the body velocities of a forward pass."""
    T = np.zeros(batch)
    for i in range(1, model.NB + 1):
        T = T + 0.5 * np.einsum("...j,jk,...k->...", v[i], model.inertia[i], v[i])
    return T


def _potential(model: Model, X0: list) -> np.ndarray:
    """``-(Σ_i m_i c_i) · g`` from the transforms ``^iX_0`` of a forward pass."""
    _, moment = _mass_moments(model, X0)
    return -moment @ model.gravity


#: states per forward pass in :func:`_energies`: its per-body (…, 6, 6) arrays stay in cache
_ENERGY_CHUNK = 4096


def _energies(model: Model, q: np.ndarray, qd: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Kinetic and potential energy of validated states (a trajectory's), one forward pass each
    for both, over at most :data:`_ENERGY_CHUNK` states at a time.

    A whole trajectory of a fan of members is 10⁵ states or more, whose ``^iX_0`` alone fill
    tens of megabytes per body; in chunks that stay in the processor's cache the same
    arithmetic runs 3-4x faster.
    """
    batch = _batch(q, qd)
    n = math.prod(batch)
    if n <= _ENERGY_CHUNK:
        fp = _forward_pass(model, q, qd)
        return _kinetic(model, fp.v, batch), _potential(model, fp.X0)
    q = np.broadcast_to(q, batch + q.shape[-1:]).reshape(n, -1)
    qd = np.broadcast_to(qd, batch + qd.shape[-1:]).reshape(n, -1)
    parts = [_energies(model, q[k : k + _ENERGY_CHUNK], qd[k : k + _ENERGY_CHUNK])
             for k in range(0, n, _ENERGY_CHUNK)]  # fmt: skip
    T, V = (np.concatenate([part[j] for part in parts]).reshape(batch) for j in (0, 1))
    return T, V


def potential_energy(model: Model, q) -> np.ndarray:
    """Gravitational potential energy ``V = -Σ_i m_i g · c_i`` (``c_i``: world centre of mass).

    The zero level is the plane through the base origin perpendicular to ``model.gravity``: ``V``
    is the total weight times the height of the centre of mass above that plane.  Its gradient
    with respect to the velocity variables is the gravity part of the inverse dynamics,
    ``∂V/∂q = rnea(q, 0, 0)`` (Featherstone eq. 3.1: the bias force at rest).

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)

    Returns
    -------
    ndarray, shape (...)

    Raises
    ------
    ValueError
        If ``q`` is invalid.
    """
    q, _, _, _ = model.check_state(q)
    return _potential(model, _forward_pass(model, q).X0)


def center_of_mass(model: Model, q) -> tuple[np.ndarray, float]:
    """World position of the centre of mass of all moving bodies, and their total mass.

    ``c = Σ_i m_i c_i / Σ_i m_i`` with each body's centre of mass ``c_i`` taken from its
    spatial inertia (Featherstone eq. 2.63) and placed in the world by ``^0X_i``.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)

    Returns
    -------
    com : ndarray, shape (..., 3)
    mass : float

    Raises
    ------
    ValueError
        If ``q`` is invalid or the bodies have zero total mass.
    """
    q, _, _, _ = model.check_state(q)
    mass, moment = _mass_moments(model, _forward_pass(model, q).X0)
    if mass <= 0.0:
        raise ValueError("the model's bodies have zero total mass: no centre of mass")
    return moment / mass, float(mass)


def momentum(model: Model, q, qd) -> np.ndarray:
    """Total spatial momentum of the tree in base coordinates, ``Σ_i ^0X_i* I_i v_i``.

    Each body's momentum ``h_i = I_i v_i`` (Featherstone eq. 2.61) is a force-type vector; it
    is carried to base coordinates by the force transform ``^0X_i* = (^iX_0)ᵀ`` and summed
    (§2.12).  Its rate of change equals the total external force on the moving bodies
    (gravity, contacts, and the reaction from the base through the joints of ``μ(0)``).

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qd : array_like, shape (..., nv)

    Returns
    -------
    ndarray, shape (..., 6)
        ``[angular momentum about the base origin; linear momentum]``.

    Raises
    ------
    ValueError
        If a state array has the wrong shape or is invalid.
    """
    q, qd, _, _ = model.check_state(q, qd)
    fp = _forward_pass(model, q, qd)
    h = np.zeros(_batch(q, qd) + (6,))
    for i in range(1, model.NB + 1):
        h = h + _mv(np.swapaxes(fp.X0[i], -1, -2), _mv(model.inertia[i], fp.v[i]))
    return h
