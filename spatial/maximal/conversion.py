"""The same mechanism in reduced and in maximal coordinates (Sueda §2 intro, Featherstone §4.1).

A kinematic tree (:class:`~spatial.model.Model`, state ``q, q̇``) becomes a maximal-coordinate
:class:`~spatial.maximal.System` with one body per tree body and one joint constraint per tree
joint.  Both number the bodies alike (``0`` the fixed base/world, ``1 … NB`` the bodies), so tree
body ``i`` is maximal body ``i``, with the same name and parent ``λ(i)``; tree joint ``i`` is
``system.joints[i - 1]``.  The joint's predecessor frame sits on the parent at
``T_parent,Fp = pluho(X_T(i))⁻¹``
(``Ad(T_parent,Fp) = X_T(i)⁻¹``) and its successor frame is the child's body frame, as in the tree
(``X_λ(i)→i = X_J X_T(i)``, Featherstone eq. 4.4).  The states convert by forward kinematics
(4x4 frames ``T_0i``, which Sueda writes E, and body twists ``v_i``, :mod:`spatial.kinematics`;
the state arrays drop the base row, so body ``i`` is row ``i - 1``) and back by recovering the
joint variables from the relative poses (:func:`~spatial.maximal.joint_coordinates`).

A model with loop joints (Featherstone §4.2, ch. 8) is a spanning tree plus joints that close
its loops.  By default :func:`from_model` refuses such a model (it would drop the loops; the
open tree is ``from_model(model.spanning_tree())``); ``loops=True`` adds every loop joint after
the tree's joints, as ``system.joints[NB + l]`` between its predecessor ``p(k)`` (parent) and
successor ``s(k)`` (child), with
``T_p(k),Fp = pluho(X_P(l))⁻¹`` and ``T_s(k),Fs = pluho(X_S(l))⁻¹``.  In maximal coordinates
every joint writes all its ``6 - nv`` rows: a hinge that closes a planar loop writes three
rows the plane already satisfies, the KKT matrix becomes singular, and ``loop_joint`` lets the
loops be closed by a joint that writes only the independent rows instead (e.g. a pin that only
holds the two in-plane directions, Sueda eq. 2.94).
"""

from __future__ import annotations

import numpy as np

from ..joints import Joint
from ..kinematics import body_poses, body_velocities
from ..model import Model
from ..se3 import frame_inverse
from ..vectors import pluho
from .constraints import joint_coordinates
from .system import System

__all__ = ["from_model", "maximal_state", "reduced_state"]


def _check_model(model) -> Model:
    if not isinstance(model, Model):
        raise ValueError(f"model must be a spatial.Model, got {model!r}")
    return model


def from_model(model: Model, loops: bool = False, loop_joint: Joint | None = None) -> System:
    """The maximal-coordinate system of a kinematic tree: bodies plus joint constraints.

    Parameters
    ----------
    model : Model
        Every body needs a positive definite inertia (a point mass cannot be inverted; the
        named pendulums of :mod:`spatial.builders` take ``bob_radius > 0``).
    loops : bool
        Also add the model's loop joints (module docstring).  ``False`` (the default) refuses a
        model with loop joints, since they would be dropped (Raises); the open tree is asked
        for explicitly, ``from_model(model.spanning_tree())``.
    loop_joint : Joint, optional
        With ``loops=True``: close every loop with this joint instead of the model's loop joint,
        between the same two frames (e.g. ``Composite(Prismatic("z"), Spherical())``, which
        forbids only the two translations perpendicular to z).

    Returns
    -------
    System
        Bodies ``1 … NB`` = tree bodies ``1 … NB`` (same numbers and names), the model's
        gravity, and ``joints[i - 1]`` = tree joint ``i`` from ``parent = λ(i)`` (``0`` = the
        base) to ``child = i``; with ``loops=True`` then ``joints[NB + l]`` = loop joint ``l``,
        named as in the model.

    Raises
    ------
    ValueError
        If ``model`` is not a Model, a body inertia is singular, ``loops`` is not a bool, or
        ``loop_joint`` is given without ``loops=True`` or is not a usable joint model; with
        ``loops=False``, if the model has loop joints (:meth:`~spatial.Model.check_tree`),
        which the conversion would drop: pass ``loops=True`` to keep them as joints, or convert
        ``model.spanning_tree()`` for the open tree.
    """
    model = _check_model(model)
    if not isinstance(loops, bool):
        raise ValueError(f"loops must be True or False, got {loops!r}")
    if loop_joint is not None and not loops:
        raise ValueError("loop_joint closes the loops: it needs loops=True")
    if not loops:
        try:
            model.check_tree("maximal.from_model")
        except ValueError as refusal:
            raise ValueError(
                f"{refusal}; or keep the loops as joints of the maximal system with "
                "maximal.from_model(model, loops=True)"
            ) from None
    system = System(gravity=model.gravity)
    for i in range(1, model.NB + 1):
        system.add_body(model.inertia[i], name=model.names[i])
    for i in range(1, model.NB + 1):
        system.add_joint(
            model.joints[i],
            model.parent[i],
            i,
            parent_frame=frame_inverse(pluho(model.X_tree[i])),
            name=f"joint{i}",
        )
    for loop in model.loop_joints if loops else ():
        system.add_joint(
            loop.joint if loop_joint is None else loop_joint,
            loop.predecessor,
            loop.successor,
            parent_frame=frame_inverse(pluho(loop.X_p)),
            child_frame=frame_inverse(pluho(loop.X_s)),
            name=loop.name,
        )
    return system


def maximal_state(model: Model, q, qd) -> tuple[np.ndarray, np.ndarray]:
    """Frames and body twists of every body of a tree from ``(q, q̇)`` (forward kinematics).

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qd : array_like, shape (..., nv)

    Returns
    -------
    T : ndarray, shape (..., NB, 4, 4)
        ``T_0i`` of tree bodies ``1 … NB`` (:func:`spatial.body_poses` without the base row).
    phi : ndarray, shape (..., NB, 6)
        Their body twists (:func:`spatial.body_velocities` in body coordinates).

    Raises
    ------
    ValueError
        If ``model`` is not a Model or the state is invalid.
    """
    model = _check_model(model)
    T = body_poses(model, q)[..., 1:, :, :]
    phi = body_velocities(model, q, qd)[..., 1:, :]
    batch = np.broadcast_shapes(T.shape[:-3], phi.shape[:-2])
    return np.broadcast_to(T, batch + T.shape[-3:]).copy(), phi


def reduced_state(model: Model, system: System, T, phi, q0=None) -> tuple[np.ndarray, np.ndarray]:
    """The tree state ``(q, q̇)`` of a maximal-coordinate state of ``from_model(model)``.

    Parameters
    ----------
    model : Model
    system : System
        The system of ``model`` (:func:`from_model`, with or without its loops).
    T : array_like, shape (..., NB, 4, 4)
    phi : array_like, shape (..., NB, 6)
    q0 : array_like, shape (..., nq), optional
        Warm start for the tree's joint variables (see
        :func:`~spatial.maximal.joint_coordinates`); loop joints start from their neutral
        positions.

    Returns
    -------
    q : ndarray, shape (..., nq)
    qd : ndarray, shape (..., nv)
        The tree's joint variables (those of the loop joints left out).

    Raises
    ------
    ValueError
        If the system does not have the model's bodies and joints, or as
        :func:`~spatial.maximal.joint_coordinates`.
    """
    model = _check_model(model)
    same = (
        system.N == model.NB
        and len(system.joints) in (model.NB, model.NB + model.NL)
        and all(
            jc.joint is model.joints[i] and jc.child == i and jc.parent == model.parent[i]
            for i, jc in enumerate(system.joints[: model.NB], start=1)
        )
    )
    if not same:
        raise ValueError("system is not the maximal-coordinate system of model (use from_model)")
    if q0 is not None and system.nq > model.nq:  # warm start the loop joints at neutral
        q0 = np.asarray(q0, dtype=float)
        rest = system.neutral_joint_coordinates()[model.nq :]
        q0 = np.concatenate([q0, np.broadcast_to(rest, q0.shape[:-1] + rest.shape)], -1)
    q, qd = joint_coordinates(system, T, phi, q0)
    return q[..., : model.nq], qd[..., : model.nv]
