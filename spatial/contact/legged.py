"""Legged robots on flat ground: feet as contact points, a posture controller, impulse bookkeeping.

A walking robot touches the ground with its feet, which for rigid contact are points (§11.6:
a small foot on a plane is replaced by its contact point).  :func:`ground_scene` puts a
floating-base model of a URDF robot (:func:`spatial.urdf.load_urdf`) on the plane ``z = 0``
with one contact point per foot, :func:`stand_on_ground` places its trunk so that its feet are
at a given height, :func:`gravity_compensation` solves the floating-base equation at rest for the
joint torques and foot forces that carry the weight (Featherstone §9.3), :func:`posture_controller`
holds a posture with joint springs and dampers (optionally plus those torques),
and :func:`simulate_legged` runs the package's one loop (:func:`spatial.simulate`) with rigid
contact (:class:`~spatial.contact.RigidContact`, Featherstone §11.4–11.7) or compliant contact
(:class:`~spatial.contact.SoftContact`, §11.8), while keeping what the whole-body checks need:
every step's normal and friction impulses, impacts included, so that the robot's vertical
momentum can be balanced against gravity and the ground (Newton's law for the whole system,
Featherstone §9.3) and every impulse tested against its friction cone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .._validate import nonnegative_scalar, positive_scalar
from ..dynamics import rnea
from ..joints import Free
from ..kinematics import body_poses, point_jacobian
from ..model import Model
from ..simulation import SimulationDiverged
from ..simulation import simulate as _simulate
from ..solvers import friction_cone_violation
from ..vectors import unplux
from .geometry import Plane, Points
from .scene import Scene
from .soft import SoftContact, SoftContactParams
from .stepping import ContactParams, RigidContact, _step_records

__all__ = [
    "LeggedRun",
    "foot_points",
    "ground_scene",
    "stand_on_ground",
    "gravity_compensation",
    "posture_controller",
    "legged_system",
    "simulate_legged",
]


def _floating(model: Model, what: str, one_variable: bool = False) -> None:
    """Refuse a model without a floating base (and, if asked, with multi-variable joints)."""
    if not isinstance(model, Model) or model.NB < 1 or not isinstance(model.joints[1], Free):
        raise ValueError(f"{what} needs a floating-base Model (body 1 on a Free joint)")
    if one_variable and model.nq - 7 != model.nv - 6:
        raise ValueError(f"{what} needs one-variable joints below the floating base")


def _one_configuration(model: Model, q, what: str) -> np.ndarray:
    """``q`` validated as one configuration of ``model``, shape (nq,)."""
    q, _, _, _ = model.check_state(q)
    if q.ndim != 1:
        raise ValueError(f"{what} takes one configuration, shape (nq,)")
    return q


def _check_feet(model: Model, feet) -> list:
    """``feet`` as a list, each on one of the bodies 1 … NB."""
    feet = list(feet)
    for body, _ in feet:
        if not 1 <= int(body) <= model.NB:
            raise ValueError(f"a foot is on body {body}, not one of 1 … {model.NB}")
    return feet


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
    for body, point in _check_feet(model, feet):
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
    q = _one_configuration(model, q, "stand_on_ground")
    poses = body_poses(model, q)
    lowest = min(float((poses[b] @ np.r_[p, 1.0])[2]) for b, p in feet)
    out = q.copy()
    out[6] += height - lowest  # the Free joint's q: quaternion, then position (x, y, z)
    return out


def gravity_compensation(model: Model, q, feet) -> tuple[np.ndarray, np.ndarray]:
    """Joint torques and foot forces that hold a standing robot still against gravity.

    At rest (``q̇ = q̈ = 0``) the floating-base equation of motion (Featherstone §9.3, eq. 9.13;
    the contact forces enter through the feet's Jacobians as in §11.2) reduces to

    ``g(q) = Sᵀ τ + J_cᵀ f``,   ``g(q) = rnea(q, 0, 0)``,

    where ``g`` is the generalized gravity force, ``S = [0 1]`` selects the actuated joints
    (the floating base has no motor), ``J_c`` stacks the feet's world linear point Jacobians
    (:func:`~spatial.point_jacobian`) and ``f`` the world forces of the ground on the feet.
    Its first six rows involve only ``f``: the feet must carry the robot's weight wrench,
    6 equations for ``3 n_feet`` unknowns.  We take their **minimum-norm** solution (for a
    symmetric stance: ``m g / n_feet`` straight up under each foot, no friction), then the
    other rows give ``τ = g_joints - J_c,jointsᵀ f``.

    Parameters
    ----------
    model : Model
        Floating-base model (body 1 on a Free joint) with one-variable joints below it.
    q : array_like, shape (nq,)
        The standing configuration.
    feet : list of (int, array_like of shape (3,))
        ``(body, point in body coordinates)`` per foot on the ground (:func:`foot_points`).

    Returns
    -------
    tau : ndarray, shape (nv - 6,)
        Joint torques (N m).
    forces : ndarray, shape (n_feet, 3)
        Ground force on each foot, world coordinates (N).

    Raises
    ------
    ValueError
        If the model has no floating base, ``q`` is not one configuration, a foot is invalid,
        or the feet cannot carry the weight wrench (fewer than three feet not on one line).
    """
    _floating(model, "gravity_compensation", one_variable=True)
    q = _one_configuration(model, q, "gravity_compensation")
    feet = _check_feet(model, feet)
    if not feet:
        raise ValueError("feet must list at least one (body, point)")
    zero = np.zeros(model.nv)
    g = rnea(model, q, zero, zero)
    Jc = np.concatenate([point_jacobian(model, q, int(b), p) for b, p in feet])
    base = Jc[:, :6].T  # 6 × 3 n_feet: the weight wrench's rows
    if np.linalg.matrix_rank(base) < 6:
        raise ValueError("the feet cannot carry the robot: need three or more feet not on a line")
    f = np.linalg.pinv(base) @ g[:6]  # minimum-norm solution of the six base rows
    tau = g[6:] - Jc[:, 6:].T @ f
    return tau, f.reshape(-1, 3)


def posture_controller(
    model: Model, q_ref, stiffness: float, damping: float, feet=None
) -> Callable:
    """Joint springs and dampers holding a posture: ``τ = K (q_ref - q) - D q̇`` at every joint.

    The trunk (the Free joint) gets no force: only the joints act, as on the real robot.  With
    ``feet`` the controller also compensates gravity: it adds the torques ``τ_g`` of
    :func:`gravity_compensation` at ``q_ref`` (computed once), ``τ = τ_g + K (q_ref - q) - D q̇``,
    so that the springs need not stretch to carry the weight.

    Parameters
    ----------
    model : Model
        Floating-base model whose other joints have one variable each.
    q_ref : array_like, shape (nq,)
        The posture (only its joint entries ``q_ref[7:]`` count for the springs; all of it for
        the gravity compensation).
    stiffness, damping : float
        ``K`` (N m/rad) and ``D`` (N m s/rad), >= 0.
    feet : list of (int, array_like of shape (3,)), optional
        The feet on the ground at ``q_ref``: add gravity compensation.

    Returns
    -------
    callable
        ``tau(t, q, v)`` returning the ``nv`` generalized forces.

    Raises
    ------
    ValueError
        If the model has no floating base, a joint has several variables, a gain is negative,
        or (with ``feet``) :func:`gravity_compensation` rejects the stance.
    """
    _floating(model, "posture_controller", one_variable=True)
    q_ref, _, _, _ = model.check_state(q_ref)
    K = nonnegative_scalar(stiffness, "stiffness")
    D = nonnegative_scalar(damping, "damping")
    bias = np.zeros(model.nv)
    if feet is not None:
        bias[6:] = gravity_compensation(model, q_ref, feet)[0]

    def tau(t, q, v):
        return bias + np.r_[np.zeros(6), K * (q_ref[7:] - q[7:]) - D * v[6:]]

    return tau


@dataclass
class LeggedRun:
    """What :func:`simulate_legged` records (built from its Trajectory's records).

    With soft contact the "impulses" are the step's spring–damper forces times its ``h``.

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

    def until(self, t_end: float) -> LeggedRun:
        """The part of the run up to time ``t_end`` (s): its states with ``t <= t_end`` and the
        steps between them.

        Raises
        ------
        ValueError
            If ``t_end`` is not a number >= 0.
        """
        t_end = nonnegative_scalar(t_end, "t_end")
        n = int(np.searchsorted(self.t, t_end + 1e-12 * max(1.0, t_end), side="right"))
        n = max(n, 1)
        steps = (self.normal, self.tangent, self.contacts, self.cone_violation)
        return LeggedRun(
            self.t[:n], self.q[:n], self.v[:n], *(a[: n - 1] for a in steps), self.penetration[:n]
        )


def _world_tangents(tangent, contacts, scene: Scene) -> np.ndarray:
    """Friction impulses (or forces) of one step summed in world x, y (the scene's tangents)."""
    if len(contacts) == 0:
        return np.zeros(2)
    world = np.einsum("ck,ckj->j", tangent, scene.tangents(contacts.normal))
    return world[:2]


def _cone(normal, tangent, mu, cone, k) -> float:
    """:func:`~spatial.solvers.friction_cone_violation` with the polygon's ``k`` when it has one."""
    if len(normal) == 0:
        return 0.0
    if cone == "polygon":
        return float(friction_cone_violation(normal, tangent, mu, cone="polygon", k=k))
    return float(friction_cone_violation(normal, tangent, mu, cone=cone))


class _LeggedRigid(RigidContact):
    """:class:`RigidContact` whose steps also record the ground's impulses (:class:`LeggedRun`).

    Each step adds ``normal`` (summed normal impulse, impact included), ``tangent`` (summed
    friction impulse, world x and y) and ``cone_violation`` (of the step's and the impact's
    impulses) to the records.
    """

    def __init__(self, scene: Scene, params: ContactParams | None = None):
        super().__init__(scene, params)
        p = self.params
        self._k = p.k if p.k is not None else (8 if p.friction == "polyhedral" else 4)
        self._cone = "polygon" if p.friction in ("polyhedral", "pyramid") else "disk"

    def _records(self, info) -> dict:
        mu, cone, k, scene = self.params.mu, self._cone, self._k, self.scene
        res, c = info.impulses, info.contacts
        normal = float(np.sum(res.normal))
        tangent = _world_tangents(res.tangent, c, scene)
        worst = _cone(res.normal, res.tangent, mu, cone, k) if len(c) else 0.0
        if info.impact is not None:
            normal += float(np.sum(info.impact.normal))
            tangent = tangent + _world_tangents(info.impact.tangent, c, scene)
            worst = max(worst, _cone(info.impact.normal, info.impact.tangent, mu, cone, k))
        return _step_records(info) | {
            "normal": normal,
            "tangent": tangent,
            "cone_violation": worst,
        }


class _LeggedSoft(SoftContact):
    """:class:`SoftContact` with the records of :class:`_LeggedRigid`: the spring–damper
    forces at the start of each step times ``h`` (the impulses the step applies) and their
    distance outside the Coulomb disc."""

    def _records(self, info, h: float) -> dict:
        mu, scene = self.params.mu, self.scene
        return _step_records(info) | {
            "normal": h * float(np.sum(info.normal)),
            "tangent": h * _world_tangents(info.tangent, info.contacts, scene),
            "cone_violation": h * _cone(info.normal, info.tangent, mu, "disk", None),
        }


def legged_system(scene: Scene, params: ContactParams | SoftContactParams | None = None):
    """The stepped system :func:`simulate_legged` runs: rigid or soft contact with impulse records.

    Parameters
    ----------
    scene : Scene
    params : ContactParams or SoftContactParams, optional
        Rigid contact (:class:`~spatial.contact.ContactParams`, default ``ContactParams()``,
        Featherstone §11.4–11.7) or compliant contact
        (:class:`~spatial.contact.SoftContactParams`, §11.8).

    Returns
    -------
    RigidContact or SoftContact
        A subclass whose steps add ``normal``, ``tangent`` and ``cone_violation`` to the
        records, for ``spatial.simulate(system, q0, v0, h, duration=..., tau=controller)``.

    Raises
    ------
    ValueError
        If ``scene`` is not a Scene or ``params`` is neither kind of parameters.
    """
    if isinstance(params, SoftContactParams):
        return _LeggedSoft(scene, params)
    return _LeggedRigid(scene, params)


def simulate_legged(
    scene: Scene,
    q0,
    v0,
    duration: float,
    h: float,
    params: ContactParams | SoftContactParams | None = None,
    controller: Callable | None = None,
) -> LeggedRun:
    """Simulate a legged scene for ``duration`` with rigid or soft contact, keeping its impulses.

    A thin wrapper of the package's one loop: ``spatial.simulate(legged_system(scene, params),
    q0, v0, h, duration=duration, tau=controller)``.  With :class:`ContactParams` each step is
    the rigid-contact step (:func:`~spatial.contact.step`, Featherstone Table 11.1); with
    :class:`~spatial.contact.SoftContactParams` it is the spring–damper step
    (:func:`~spatial.contact.soft_step`, §11.8), whose recorded impulses are the step's
    forces times ``h``.  ``controller(t, q, v)`` gives the joint forces of each step (held
    over the step).

    Returns
    -------
    LeggedRun

    Raises
    ------
    ValueError
        For an invalid state, ``duration``, ``h`` or ``params``.
    spatial.contact.LCPError
        If a rigid contact problem cannot be solved.
    spatial.SimulationDiverged
        If the run blows up (e.g. a soft contact too stiff for ``h``, or joint dampers too
        strong for ``h`` on light links swinging freely); its ``.trajectory`` is then the
        :class:`LeggedRun` up to the last good state.
    """
    duration = positive_scalar(duration, "duration")
    h = positive_scalar(h, "h")
    if params is not None and not isinstance(params, ContactParams | SoftContactParams):
        raise ValueError(
            f"params must be a ContactParams or SoftContactParams, got {type(params).__name__}"
        )
    if controller is not None and not callable(controller):
        raise TypeError("controller must be a callable tau(t, q, v) or None")
    system = legged_system(scene, params)
    try:
        traj = _simulate(system, q0, v0, h, duration=duration, tau=controller)
    except SimulationDiverged as err:  # keep the motion up to the last good state, as a run
        err.trajectory = _legged_run(err.trajectory)
        raise
    return _legged_run(traj)


def _legged_run(traj) -> LeggedRun:
    """A :class:`LeggedRun` from the Trajectory of :func:`legged_system` (finished or not)."""
    r = traj.records

    def steps(key, dtype=float):
        return np.asarray(r.get(key, []), dtype=dtype)

    return LeggedRun(
        traj.t,
        traj.q,
        traj.v,
        steps("normal").reshape(-1),
        steps("tangent").reshape(-1, 2),
        steps("contacts", int)[1:],
        steps("cone_violation").reshape(-1),
        steps("penetration"),
    )
