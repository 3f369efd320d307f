"""Ready-to-simulate contact scenarios (Featherstone ch. 11) and two problems without a solution.

Each scenario returns a :class:`Setup`: a :class:`~spatial.contact.Scene`, an initial state,
contact parameters, a step size and a duration, with ``setup.simulate()`` as a shortcut for
:func:`~spatial.contact.simulate`.  Where a closed form exists the docstring states it; the
tests compare against it.

* :func:`bouncing_ball` — apex heights ``e^{2n} h₀`` (Newton/Poisson restitution, §11.7);
* :func:`sliding_box` — stopping distance ``v²/(2 g (μ cos θ - sin θ))`` on an incline;
* :func:`tipping_box` — a box on one edge falls back iff ``tan θ < a/b``;
* :func:`double_pendulum_floor` — a planar double pendulum hitting the floor;
* :func:`box_stack` — boxes resting on each other (a stack at rest);
* :func:`example_11_1` and :func:`painleve_rod` — contact problems with no solution.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from .. import builders
from .._validate import as_array, integer, nonnegative_scalar, positive_scalar, real_array, vector
from ..inertia import cuboid_inertia, sphere_inertia
from ..joints import Free
from ..model import Model
from ..rotations import quat_from_matrix
from ..se3 import frame
from ..simulation import Trajectory
from ..simulation import simulate as _simulate
from ..vectors import roty
from .events import located_impacts
from .geometry import Box, Plane, Sphere
from .scene import FreeBodies, Scene
from .stepping import ContactParams, simulate

__all__ = [
    "ContactProblem",
    "Setup",
    "bouncing_ball",
    "box_stack",
    "double_pendulum_floor",
    "example_11_1",
    "painleve_rod",
    "sliding_box",
    "tipping_box",
]

_SYSTEMS = ("tree", "free")


@dataclass
class Setup:
    """A scene with an initial state and the options to simulate it.

    Attributes
    ----------
    scene : Scene
    q0, v0 : numpy.ndarray
        Initial configuration and velocity.
    params : ContactParams
    h : float
        Step size (s).
    duration : float
        Suggested simulated time (s).
    description : str
    """

    scene: Scene
    q0: np.ndarray
    v0: np.ndarray
    params: ContactParams
    h: float
    duration: float
    description: str

    def simulate(
        self, duration: float | None = None, h: float | None = None, **changes
    ) -> Trajectory:
        """Run :func:`~spatial.contact.simulate`; keyword arguments replace contact parameters.

        Raises
        ------
        ValueError
            For an invalid duration, step or parameter.
        """
        params = replace(self.params, **changes) if changes else self.params
        return simulate(
            self.scene,
            self.q0,
            self.v0,
            self.duration if duration is None else duration,
            self.h if h is None else h,
            params,
        )

    def simulate_impacts(
        self, duration: float | None = None, h: float | None = None, integrator: str = "rk4"
    ) -> Trajectory:
        """Run the scene event by event: free flight by ``integrator``, located impacts
        (:func:`~spatial.contact.located_impacts`; for scenes whose contacts are instantaneous,
        such as :func:`bouncing_ball`).

        Raises
        ------
        ValueError
            For an invalid duration, step or integrator.
        RuntimeError
            If a contact persists (approaches slower than ``params.threshold``: a body comes
            to rest on another).
        """
        return _simulate(
            located_impacts(self.scene, self.params, integrator),
            self.q0,
            self.v0,
            self.h if h is None else h,
            duration=self.duration if duration is None else duration,
        )


def _system(system: str) -> str:
    if system not in _SYSTEMS:
        raise ValueError(f"system must be 'tree' or 'free', got {system!r}")
    return system


def _bodies(inertias, poses, velocities, system: str, g: float):
    """Free bodies as a tree of Free joints on the base or as FreeBodies, with their state.

    ``poses`` are 4x4 world frames ``T_world,body`` (Sueda writes E for this frame),
    ``velocities`` body twists ``[ω; v]`` (identical velocity variables in both systems: the Free
    joint's are the body twist, Featherstone Table 4.1).
    """
    gravity = [0.0, 0.0, -g]
    v0 = np.concatenate(velocities)
    if system == "free":
        return FreeBodies(list(inertias), gravity), np.stack(poses), v0
    model = Model(gravity=gravity)
    q0 = []
    for i, (I, pose) in enumerate(zip(inertias, poses, strict=True)):
        model.add_body(0, Free(), np.eye(6), I, name=f"body{i + 1}")
        q0.append(np.concatenate([quat_from_matrix(pose[:3, :3]), pose[:3, 3]]))
    return model, np.concatenate(q0), v0


def bouncing_ball(
    restitution: float = 0.8,
    height: float = 1.0,
    radius: float = 0.1,
    mass: float = 1.0,
    *,
    mu: float = 0.0,
    law: str = "poisson",
    system: str = "free",
    g: float = 9.81,
    h: float = 1e-3,
) -> Setup:
    """A ball dropped on the floor ``z = 0``: the apex heights above the floor are ``e^{2n} h₀``.

    Each impact returns ``e`` times the impact speed ``sqrt(2 g hₙ)``, so the next apex is
    ``hₙ₊₁ = e² hₙ`` (Featherstone eq. 11.64; Newton and Poisson agree for one contact).
    The stepper's free flight is symplectic Euler, which lowers each apex by a further
    ``≈ h√(2 g hₙ)`` (0.44 % of 1 m at ``h = 1e-3``, even with ``e = 1``): its first-order error,
    explained in notebook 16 and avoided by ``setup.simulate_impacts()`` (RK4 free flight,
    located impacts: :func:`~spatial.contact.located_impacts`), which keeps the apexes at
    ``e^{2n} h₀`` to 1e-4 over ten bounces at ``h = 1e-3``.

    Parameters
    ----------
    restitution : float
        ``e`` in [0, 1].
    height : float
        Initial gap between the ball and the floor (m), > 0.
    radius, mass : float
        Of the ball, > 0.
    mu : float
        Friction coefficient (irrelevant for a vertical drop).
    law : {"poisson", "newton"}
    system : {"free", "tree"}
        A free body in maximal coordinates, or a tree with one Free joint.
    g : float
        Gravitational acceleration (m/s², > 0), along -z.
    h : float
        Step size.

    Returns
    -------
    Setup
        Duration: until shortly after the fourth bounce.

    Raises
    ------
    ValueError
        For a restitution outside [0, 1], a negative ``mu`` or non-positive sizes.
    """
    params = ContactParams(mu=mu, restitution=restitution, law=law)
    height, radius, mass, g = (
        positive_scalar(x, n)
        for x, n in ((height, "height"), (radius, "radius"), (mass, "mass"), (g, "g"))
    )
    pose = frame(np.eye(3), [0.0, 0.0, height + radius])
    system_, q0, v0 = _bodies(
        [sphere_inertia(mass, radius)], [pose], [np.zeros(6)], _system(system), g
    )
    scene = Scene(system_)
    scene.add(0, Plane([0.0, 0.0, 1.0], 0.0), name="floor")
    scene.add(1, Sphere(radius), name="ball")
    fall = np.sqrt(2 * height / g)
    e = params.restitution
    duration = fall * (1 + 2 * (e + e**2 + e**3)) + 0.5 * fall * e**4
    return Setup(scene, q0, v0, params, h, duration, f"ball dropped from {height} m, e = {e}")


def _box_on_plane(half_extents, slope: float, mass: float):
    """Inertia and world frame of a box resting on the plane through the origin, tilted by θ."""
    a = real_array(half_extents, "half_extents")
    R = roty(slope)[:3, :3].T  # active rotation about y: z -> (sin θ, 0, cos θ)
    normal = R[:, 2]
    pose = frame(R, normal * a[2])
    return cuboid_inertia(mass, *(2 * a)), pose, normal


def sliding_box(
    mu: float = 0.5,
    speed: float = 2.0,
    slope: float = 0.0,
    half_extents=(0.1, 0.1, 0.05),
    mass: float = 1.0,
    *,
    friction: str = "polyhedral",
    system: str = "tree",
    g: float = 9.81,
    h: float = 2e-3,
) -> Setup:
    """A box sliding down an incline of angle ``slope`` with initial speed ``speed``.

    The plane passes through the origin with normal ``(sin θ, 0, cos θ)``; the downhill
    direction is the box's x axis, ``(cos θ, 0, -sin θ)``.  Coulomb friction gives the
    deceleration ``a = g (μ cos θ - sin θ)``: with ``a > 0`` the box stops after
    ``v²/(2a)``; with ``tan θ < μ`` a box at rest stays at rest, with ``tan θ > μ`` it
    accelerates at ``-a``.

    Parameters
    ----------
    mu : float
        Friction coefficient, >= 0.
    speed : float
        Initial speed downhill (m/s), may be 0.
    slope : float
        Incline angle θ (rad), in [0, π/2).
    half_extents : array_like, shape (3,)
    mass : float
    friction : str
        Friction model (the polyhedral, box and Gauss–Seidel disc models are exact for slip along
        the x axis).
    system : {"tree", "free"}
    g, h : float

    Returns
    -------
    Setup
        The box's position is ``q[4:7]`` (tree) or ``q[0, :3, 3]`` (free).

    Raises
    ------
    ValueError
        For a negative ``mu``, a slope outside [0, π/2) or non-positive sizes.
    """
    params = ContactParams(mu=mu, friction=friction)
    if not 0 <= slope < np.pi / 2:
        raise ValueError(f"slope must lie in [0, pi/2), got {slope!r}")
    Box(half_extents)
    I, pose, normal = _box_on_plane(half_extents, slope, positive_scalar(mass, "mass"))
    g = positive_scalar(g, "g")
    v_body = np.array([0.0, 0.0, 0.0, float(speed), 0.0, 0.0])
    system_, q0, v0 = _bodies([I], [pose], [v_body], _system(system), g)
    scene = Scene(system_)
    scene.add(0, Plane(normal, 0.0), name="incline")
    scene.add(1, Box(half_extents), name="box")
    decel = g * (mu * np.cos(slope) - np.sin(slope))
    duration = 1.2 * speed / decel if decel > 0 and speed > 0 else 0.5
    return Setup(scene, q0, v0, params, h, duration, f"box sliding at {speed} m/s, mu = {mu}")


def tipping_box(
    tilt: float,
    half_extents=(0.1, 0.1, 0.2),
    mass: float = 1.0,
    *,
    mu: float = 1.0,
    system: str = "tree",
    g: float = 9.81,
    h: float = 2e-3,
) -> Setup:
    """A box released at rest standing on one bottom edge, tilted by ``tilt`` about y.

    With half extents ``a`` (x) and ``b`` (z) the centre of mass lies over the supporting edge
    when ``tan(tilt) = a/b``: below that angle gravity rotates the box back onto its face
    (where it rocks and settles), above it the box tips over.

    Parameters
    ----------
    tilt : float
        Tilt angle (rad), in (0, π/2).
    half_extents : array_like, shape (3,)
    mass, mu, g, h : float
    system : {"tree", "free"}

    Returns
    -------
    Setup

    Raises
    ------
    ValueError
        For a tilt outside (0, π/2), a negative ``mu`` or non-positive sizes.
    """
    params = ContactParams(mu=mu)
    if not 0 < tilt < np.pi / 2:
        raise ValueError(f"tilt must lie in (0, pi/2), got {tilt!r}")
    a, _, b = Box(half_extents).half_extents
    R = roty(tilt)[:3, :3].T
    pose = frame(R, [0.0, 0.0, a * np.sin(tilt) + b * np.cos(tilt)])
    system_, q0, v0 = _bodies(
        [cuboid_inertia(positive_scalar(mass, "mass"), *(2 * np.asarray(half_extents, float)))],
        [pose],
        [np.zeros(6)],
        _system(system),
        positive_scalar(g, "g"),
    )
    scene = Scene(system_)
    scene.add(0, Plane([0.0, 0.0, 1.0], 0.0), name="floor")
    scene.add(1, Box(half_extents), name="box")
    critical = np.degrees(np.arctan2(a, b))
    text = f"box tilted {np.degrees(tilt):.1f} deg (critical {critical:.1f} deg)"
    return Setup(scene, q0, v0, params, h, 1.0, text)


def double_pendulum_floor(
    floor: float = 1.5,
    *,
    restitution: float = 0.3,
    mu: float = 0.3,
    law: str = "poisson",
    bob_radius: float = 0.1,
    q0=(np.pi / 2, 0.0),
    h: float = 1e-3,
) -> Setup:
    """The planar double pendulum of :func:`spatial.builders.double_pendulum` above a floor.

    Unit rods and masses, spherical bobs, gravity along -y; the floor is the line
    ``y = -floor`` (the bobs hang down to ``2 + bob_radius``, so a floor closer than that is hit).
    Released from ``q0`` (default: straight out horizontally) at rest.  Planar scene (one
    tangent per contact).

    Returns
    -------
    Setup

    Raises
    ------
    ValueError
        For a non-positive floor distance or radius, or invalid contact parameters.
    """
    params = ContactParams(mu=mu, restitution=restitution, law=law)
    floor = positive_scalar(floor, "floor")
    model = builders.double_pendulum(bob_radius=positive_scalar(bob_radius, "bob_radius"))
    scene = Scene(model, planar=[0.0, 0.0, 1.0])
    scene.add(0, Plane([0.0, 1.0, 0.0], -floor), name="floor")
    for body in (1, 2):
        scene.add(body, Sphere(bob_radius), frame(np.eye(3), [0.0, -1.0, 0.0]), name=f"bob{body}")
    q0 = as_array(q0, "q0", (2,))
    return Setup(
        scene, q0, np.zeros(2), params, h, 2.0, f"double pendulum above a floor at y = -{floor}"
    )


def box_stack(
    n: int = 3,
    *,
    mu: float = 0.6,
    half_extents=(0.3, 0.3, 0.1),
    shrink: float = 0.8,
    mass: float = 1.0,
    friction: str = "pyramid",
    drop: float = 0.0,
    system: str = "tree",
    g: float = 9.81,
    h: float = 5e-3,
) -> Setup:
    """A stack of ``n`` boxes at rest on the floor, each ``shrink`` times as wide as the one below.

    The boxes start ``drop`` apart (and the lowest ``drop`` above the floor): they fall, collide
    plastically (``e = 0``) and come to rest, the penetration held near zero by stabilization.
    Narrower upper boxes put every upper vertex strictly over a face of the box below
    (vertex–face contacts, :func:`box_box`).

    Parameters
    ----------
    n : int
        Number of boxes, >= 1.
    mu : float
    half_extents : array_like, shape (3,)
        Of the bottom box.
    shrink : float
        Width ratio of consecutive boxes, in (0, 1].
    mass, g, h : float
    friction : str
    drop : float
        Initial gap (m, >= 0) below each box.
    system : {"tree", "free"}

    Returns
    -------
    Setup

    Raises
    ------
    ValueError
        For ``n < 1``, ``shrink`` outside (0, 1], a negative drop, or invalid sizes or
        parameters.
    """
    params = ContactParams(mu=mu, friction=friction)
    n = integer(n, "n", minimum=1)
    if not 0 < shrink <= 1:
        raise ValueError(f"shrink must lie in (0, 1], got {shrink!r}")
    base = Box(half_extents).half_extents
    sizes = [base * np.array([shrink**i, shrink**i, 1.0]) for i in range(n)]
    drop = nonnegative_scalar(drop, "drop")
    heights = np.cumsum([2 * s[2] + drop for s in sizes]) - np.array([s[2] for s in sizes])
    poses = [frame(np.eye(3), [0.0, 0.0, z]) for z in heights]
    inertias = [cuboid_inertia(positive_scalar(mass, "mass"), *(2 * s)) for s in sizes]
    system_, q0, v0 = _bodies(
        inertias, poses, [np.zeros(6)] * n, _system(system), positive_scalar(g, "g")
    )
    scene = Scene(system_)
    scene.add(0, Plane([0.0, 0.0, 1.0], 0.0), name="floor")
    for i, s in enumerate(sizes):
        scene.add(i + 1, Box(s), name=f"box{i + 1}")
    return Setup(scene, q0, v0, params, h, 1.0, f"stack of {n} boxes")


class ContactProblem(NamedTuple):
    """Ingredients of an acceleration-level contact problem for
    :func:`~spatial.contact.contact_acceleration` (``contact_acceleration(*problem)``).

    Attributes
    ----------
    H : numpy.ndarray, shape (n, n)
    force : numpy.ndarray, shape (n,)
        ``τ - C``.
    T : numpy.ndarray, shape (n, nc)
        Contact normals in joint space.
    tdot_qd : numpy.ndarray, shape (nc,)
    T_force : numpy.ndarray, shape (n, nc)
        Directions of the contact forces (``T`` for frictionless contacts).
    """

    H: np.ndarray
    force: np.ndarray
    T: np.ndarray
    tdot_qd: np.ndarray
    T_force: np.ndarray


def example_11_1(
    mass: float = 1.0,
    radius: float = 0.1,
    curvature: float = 1.0,
    speed: float = 1.0,
    force=(1.0, 0.0),
) -> ContactProblem:
    """Featherstone Example 11.1: a disc in a slot that narrows beyond the line L.

    Planar disc with coordinates ``(x, y, θ)`` (mass ``m``, radius ``r``), centre on L, moving
    right at ``speed`` and pushed by ``force``.  The two wall contacts have opposite normals
    ``±y`` (``t₁ = (0, 1, 0)``, ``t₂ = -t₁``); to the right of L the walls curve inward with
    ``curvature`` κ, so the gaps obey ``φ̈ᵢ = ±ÿ - κ ẋ²`` at L: ``Ṫᵀq̇ = (-κv², -κv²)``.
    Then ``M = (1/m) [[1, -1], [-1, 1]]`` and ``d₁ + d₂ = -2κv² < 0``: since
    ``ζ̇₁ + ζ̇₂ = d₁ + d₂`` for every ``λ``, no contact force can keep both gaps closed — the LCP
    has no solution.  At rest (``speed = 0``) ``λ = 0`` solves it, yet a rightward force still
    drives the disc into the narrowing slot at second order: the normals cannot resist.

    Returns
    -------
    ContactProblem

    Raises
    ------
    ValueError
        For a non-positive mass or radius or a negative curvature.
    """
    m, r = positive_scalar(mass, "mass"), positive_scalar(radius, "radius")
    curvature = nonnegative_scalar(curvature, "curvature")
    H = np.diag([m, m, 0.5 * m * r**2])
    fx, fy = vector(force, "force", 2)
    T = np.array([[0.0, 0.0], [1.0, -1.0], [0.0, 0.0]])
    tdot = -curvature * speed**2 * np.ones(2)
    return ContactProblem(H, np.array([fx, fy, 0.0]), T, tdot, T)


def painleve_rod(
    theta: float,
    mu: float,
    *,
    mass: float = 1.0,
    half_length: float = 0.5,
    angular_velocity: float = 0.0,
    g: float = 9.81,
) -> ContactProblem:
    """Painlevé's paradox: a rod whose lower end slides on the floor with friction.

    Planar rod, coordinates ``(x, y, θ)`` of its centre and its angle to the floor (mass ``m``,
    half length ``l``, ``I = m l²/3``), lower end at ``(x - l cos θ, y - l sin θ)`` touching
    the floor and sliding towards ``-x``.  The normal row is ``t_n = (0, 1, -l cos θ)``, the
    slip row ``t_t = (1, 0, l sin θ)``; sliding friction pushes along ``t_n + μ t_t``, so

        M = (1 + 3 cos²θ - 3 μ sin θ cos θ) / m,      d = -g + l sin θ θ̇².

    For ``μ > 4/3`` there are angles with ``M < 0``; with ``d < 0`` the LCP then has no
    solution (and with ``d > 0`` two): rigid contact with Coulomb friction is inconsistent.

    Returns
    -------
    ContactProblem

    Raises
    ------
    ValueError
        For a negative ``mu``, an angle outside (0, π/2) or non-positive sizes.
    """
    if not 0 < theta < np.pi / 2:
        raise ValueError(f"theta must lie in (0, pi/2), got {theta!r}")
    mu = nonnegative_scalar(mu, "friction coefficient mu")
    m, l = positive_scalar(mass, "mass"), positive_scalar(half_length, "half_length")
    H = np.diag([m, m, m * l**2 / 3.0])
    t_n = np.array([0.0, 1.0, -l * np.cos(theta)])
    t_t = np.array([1.0, 0.0, l * np.sin(theta)])
    tdot = np.array([l * np.sin(theta) * angular_velocity**2])
    force = np.array([0.0, -m * positive_scalar(g, "g"), 0.0])
    return ContactProblem(H, force, t_n[:, None], tdot, (t_n + mu * t_t)[:, None])
