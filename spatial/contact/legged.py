"""Legged robots on flat ground: feet as contact points, a posture controller, impulse bookkeeping.

A walking robot touches the ground with its feet, which for rigid contact are points (§11.6:
a small foot on a plane is replaced by its contact point).  :func:`ground_scene` puts a
floating-base model of a URDF robot (:func:`spatial.urdf.load_urdf`) on the plane ``z = 0``
with one contact point per foot, :func:`stand_on_ground` places its trunk so that its feet are
at a given height, :func:`posture_controller` holds a posture with joint springs and dampers,
and :func:`simulate_legged` runs the rigid-contact stepper (:func:`~spatial.contact.step`)
while keeping what the whole-body checks need: every step's normal and friction impulses,
impacts included, so that the robot's vertical momentum can be balanced against gravity and the
ground (Newton's law for the whole system, Featherstone §9.4) and every impulse tested against
its friction cone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .._validate import nonnegative_scalar, positive_scalar
from ..joints import Free
from ..kinematics import body_poses
from ..model import Model
from ..solvers import friction_cone_violation
from ..vectors import unplux
from .geometry import Plane, Points
from .scene import Scene
from .stepping import ContactParams, _params, _step

__all__ = [
    "LeggedRun",
    "foot_points",
    "ground_scene",
    "stand_on_ground",
    "posture_controller",
    "simulate_legged",
]


def _floating(model: Model, what: str) -> None:
    if not isinstance(model, Model) or model.NB < 1 or not isinstance(model.joints[1], Free):
        raise ValueError(f"{what} needs a floating-base Model (body 1 on a Free joint)")


def foot_points(model: Model, suffix: str = "_FOOT") -> list[tuple[int, np.ndarray]]:
    """The feet of a URDF robot: ``(body, point in body coordinates)`` of each link ``*suffix``.

    :func:`~spatial.urdf.load_urdf` merges a link fixed to its parent (a foot frame) into that
    parent and keeps its frame in ``model.link_frames``; the foot's contact point is that
    frame's origin.

    Parameters
    ----------
    model : Model
        A model read by :func:`~spatial.urdf.load_urdf` (it has ``link_frames``).
    suffix : str
        How the names of the foot links end (Solo-12, Go1 and the builders' ``quadruped``:
        ``"_FOOT"``).

    Returns
    -------
    list of (int, ndarray of shape (3,))
        In the order of the URDF's links.

    Raises
    ------
    ValueError
        If the model has no link frames or no link name ends with ``suffix``.
    """
    frames = getattr(model, "link_frames", None)
    if not frames:
        raise ValueError("foot_points needs a model read from URDF (with link_frames)")
    feet = []
    for name, (body, X) in frames.items():
        if name.upper().endswith(suffix.upper()):
            feet.append((int(body), unplux(X)[1]))  # X = rot(E) xlt(p): the frame's origin
    if not feet:
        raise ValueError(f"no link of the model ends with {suffix!r}")
    return feet


def ground_scene(model: Model, feet) -> Scene:
    """A scene of ``model`` above the ground ``z = 0``, with one contact point per foot.

    Parameters
    ----------
    model : Model
        Floating-base model with gravity along ``-z``.
    feet : list of (int, array_like of shape (3,))
        ``(body, point in body coordinates)`` per foot (:func:`foot_points`).

    Returns
    -------
    Scene
        The ground on body 0 (collider ``"ground"``), the feet of each body as one
        :class:`~spatial.contact.Points` collider.

    Raises
    ------
    ValueError
        If the model has no floating base, or a foot is not on a body ``1 … NB``.
    """
    _floating(model, "ground_scene")
    scene = Scene(model)
    scene.add(0, Plane([0.0, 0.0, 1.0], 0.0), name="ground")
    by_body: dict[int, list] = {}
    for body, point in feet:
        if not 1 <= int(body) <= model.NB:
            raise ValueError(f"a foot is on body {body}, not one of 1 … {model.NB}")
        by_body.setdefault(int(body), []).append(np.asarray(point, dtype=float))
    for body, points in by_body.items():
        scene.add(body, Points(np.array(points)), name=f"feet of {model.names[body]}")
    return scene


def stand_on_ground(model: Model, q, feet, height: float = 0.0) -> np.ndarray:
    """``q`` with the trunk moved vertically so that the lowest foot is ``height`` above z = 0.

    Raises
    ------
    ValueError
        If the model has no floating base, ``q`` is invalid or ``height`` is negative.
    """
    _floating(model, "stand_on_ground")
    height = nonnegative_scalar(height, "height")
    q, _, _, _ = model.check_state(q)
    if q.ndim != 1:
        raise ValueError("stand_on_ground takes one configuration, shape (nq,)")
    poses = body_poses(model, q)
    lowest = min(float((poses[b] @ np.r_[p, 1.0])[2]) for b, p in feet)
    out = q.copy()
    out[6] += height - lowest  # the Free joint's q: quaternion, then position (x, y, z)
    return out


def posture_controller(model: Model, q_ref, stiffness: float, damping: float) -> Callable:
    """Joint springs and dampers holding a posture: ``τ = K (q_ref - q) - D q̇`` at every joint.

    The trunk (the Free joint) gets no force: only the joints act, as on the real robot.

    Parameters
    ----------
    model : Model
        Floating-base model whose other joints have one variable each.
    q_ref : array_like, shape (nq,)
        The posture (only its joint entries ``q_ref[7:]`` count).
    stiffness, damping : float
        ``K`` (N m/rad) and ``D`` (N m s/rad), >= 0.

    Returns
    -------
    callable
        ``tau(t, q, v)`` returning the ``nv`` generalized forces.

    Raises
    ------
    ValueError
        If the model has no floating base, a joint has several variables, or a gain is negative.
    """
    _floating(model, "posture_controller")
    if model.nq - 7 != model.nv - 6:
        raise ValueError("posture_controller needs one-variable joints below the floating base")
    q_ref, _, _, _ = model.check_state(q_ref)
    K = nonnegative_scalar(stiffness, "stiffness")
    D = nonnegative_scalar(damping, "damping")

    def tau(t, q, v):
        return np.r_[np.zeros(6), K * (q_ref[7:] - q[7:]) - D * v[6:]]

    return tau


@dataclass
class LeggedRun:
    """What :func:`simulate_legged` records.

    Attributes
    ----------
    t : ndarray, shape (N + 1,)
    q, v : ndarray, shape (N + 1, nq), (N + 1, nv)
    normal : ndarray, shape (N,)
        Sum of the normal impulses of each step, its impact's included (N s): with the ground
        ``z = 0`` the vertical impulse of the ground on the robot.
    tangent : ndarray, shape (N, 2)
        Sum of the friction impulses of each step, world ``x`` and ``y`` (N s).
    contacts : ndarray of int, shape (N,)
        Current contacts of each step.
    cone_violation : ndarray, shape (N,)
        :func:`~spatial.contact.friction_cone_violation` of each step's impulses (0 inside).
    penetration : ndarray, shape (N + 1,)
        Deepest penetration after each step (m).
    """

    t: np.ndarray
    q: np.ndarray
    v: np.ndarray
    normal: np.ndarray
    tangent: np.ndarray
    contacts: np.ndarray
    cone_violation: np.ndarray
    penetration: np.ndarray


def _world_tangents(res, contacts, scene: Scene) -> np.ndarray:
    """Friction impulses of one solve summed in world x, y (the scene's tangent directions)."""
    if len(contacts) == 0:
        return np.zeros(2)
    world = np.einsum("ck,ckj->j", res.tangent, scene.tangents(contacts.normal))
    return world[:2]


def simulate_legged(
    scene: Scene,
    q0,
    v0,
    duration: float,
    h: float,
    params: ContactParams | None = None,
    controller: Callable | None = None,
) -> LeggedRun:
    """Step a legged scene with rigid contact (:func:`~spatial.contact.step`) for ``duration``.

    ``controller(t, q, v)`` gives the joint forces of each step (held over the step); every
    step's impulses are kept (:class:`LeggedRun`).

    Raises
    ------
    ValueError
        For an invalid state, ``duration``, ``h`` or ``params``.
    spatial.contact.LCPError
        If a contact problem cannot be solved.
    """
    duration = positive_scalar(duration, "duration")
    h = positive_scalar(h, "h")
    p = _params(params, scene)
    q, v = scene.check_state(q0, v0)
    k = p.k if p.k is not None else (8 if p.friction == "polyhedral" else 4)
    cone = "polygon" if p.friction in ("polyhedral", "pyramid") else "disk"
    t, start = 0.0, None
    ts, qs, vs, normal, tangent, count, violation = [0.0], [q], [v], [], [], [], []
    penetration = [max(0.0, -float(np.min(scene.detect(q).gap, initial=0.0)))]
    while t < duration - 1e-12:
        tau = np.zeros(scene.nv) if controller is None else controller(t, q, v)
        q, v, info = _step(scene, q, v, min(h, duration - t), p, np.asarray(tau, float), start)
        start, t = info.end, t + info.h
        res, c = info.impulses, info.contacts
        n_step = float(np.sum(res.normal))
        t_step = _world_tangents(res, c, scene)
        worst = _cone(res.normal, res.tangent, p.mu, cone, k) if len(c) else 0.0
        if info.impact is not None:
            n_step += float(np.sum(info.impact.normal))
            t_step = t_step + _world_tangents(info.impact, c, scene)
            worst = max(worst, _cone(info.impact.normal, info.impact.tangent, p.mu, cone, k))
        ts.append(t), qs.append(q), vs.append(v), normal.append(n_step), tangent.append(t_step)
        count.append(len(c)), violation.append(worst), penetration.append(info.penetration)
    return LeggedRun(
        np.array(ts),
        np.array(qs),
        np.array(vs),
        np.array(normal),
        np.array(tangent).reshape(-1, 2),
        np.array(count),
        np.array(violation),
        np.array(penetration),
    )


def _cone(normal, tangent, mu, cone, k) -> float:
    """:func:`~spatial.solvers.friction_cone_violation` with the polygon's ``k`` when it has one."""
    if cone == "polygon":
        return float(friction_cone_violation(normal, tangent, mu, cone="polygon", k=k))
    return float(friction_cone_violation(normal, tangent, mu, cone=cone))
