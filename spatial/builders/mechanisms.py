"""Named mechanisms: pendulums, planar chains, a cart-pole, an arm, a humanoid, a geared arm.

Small systems with a known answer are the best tests and the clearest examples, so this module
builds the classics: :func:`simple_pendulum` and :func:`double_pendulum` (point masses or solid
bobs on massless rods), :func:`planar_chain` (``n`` uniform rods; one rod is a compound
pendulum), :func:`cart_pole`, a 7-DoF arm :func:`arm7` with a spherical shoulder and wrist, a
16-body :func:`humanoid` whose torso is welded to the world or floating (§9.4), and the two-link
arm driven through gears of Featherstone Figure 9.2 (:func:`geared_arm`, §9.6).

Conventions: planar mechanisms move in the x-y plane about z with gravity ``-g`` along y;
spatial mechanisms have gravity ``-g`` along z.  Every builder returns a new
:class:`~spatial.model.Model`.
"""

from __future__ import annotations

import numpy as np

from .. import joints as J
from .._validate import integer
from ..inertia import cuboid_inertia, cylinder_inertia, mcI, sphere_inertia
from ..model import Model
from ..se3 import frame
from ..vectors import xlt
from .parts import _bob, _rod

__all__ = [
    "simple_pendulum",
    "double_pendulum",
    "planar_chain",
    "cart_pole",
    "arm7",
    "humanoid",
    "geared_arm",
]


def simple_pendulum(
    length: float = 1.0, mass: float = 1.0, g: float = 9.81, bob_radius: float = 0.0
) -> Model:
    """A point mass on a massless rod, swinging in the x-y plane about the z axis.

    One revolute joint at the base origin; the bob is at ``(0, -length, 0)`` in the body
    frame, so ``q = 0`` hangs straight down (gravity ``-g`` along y).  The joint-space inertia
    is ``m l²`` and small oscillations have period ``2π sqrt(l/g)``.  A point mass has a
    singular (rank-3) spatial inertia (:func:`~spatial.inertia.point_mass_inertia`): fine for
    the tree algorithms, but formulations that invert body inertias (maximal coordinates) need
    ``bob_radius > 0``, which makes the bob a solid sphere.

    Parameters
    ----------
    length, mass : float
        Rod length (m) and bob mass (kg), > 0.
    g : float
        Gravitational acceleration (m/s²).
    bob_radius : float
        0 for a point mass, else the radius of a solid spherical bob.

    Returns
    -------
    Model
        ``NB = nq = nv = 1``.
    """
    model = Model(gravity=[0.0, -g, 0.0])
    bob = _bob(mass, [0.0, -length, 0.0], bob_radius)
    model.add_body(0, J.Revolute("z"), np.eye(6), bob, name="bob")
    return model


def double_pendulum(
    lengths=(1.0, 1.0), masses=(1.0, 1.0), g: float = 9.81, bob_radius: float = 0.0
) -> Model:
    """Two point masses on massless rods in the x-y plane (the classic double pendulum).

    Joint 1 at the base origin, joint 2 at the first bob; both revolute about z.  Bob ``k``
    sits at ``(0, -l_k, 0)`` in body ``k``'s frame, so ``q = 0`` hangs straight down and
    ``q₂`` is the angle of the second rod relative to the first.  Gravity ``-g`` along y.
    ``bob_radius > 0`` makes the bobs solid spheres (see :func:`simple_pendulum`).

    Parameters
    ----------
    lengths, masses : pair of float
    g : float
    bob_radius : float

    Returns
    -------
    Model
        ``NB = nq = nv = 2``.
    """
    (l1, l2), (m1, m2) = lengths, masses
    model = Model(gravity=[0.0, -g, 0.0])
    model.add_body(
        0, J.Revolute("z"), np.eye(6), _bob(m1, [0.0, -l1, 0.0], bob_radius), name="bob1"
    )
    bob2 = _bob(m2, [0.0, -l2, 0.0], bob_radius)
    model.add_body(1, J.Revolute("z"), xlt([0.0, -l1, 0.0]), bob2, name="bob2")
    return model


def planar_chain(n: int, length: float = 1.0, mass: float = 1.0, g: float = 9.81) -> Model:
    """An ``n``-link planar chain of uniform rods joined by revolute joints about z.

    Link ``i`` is a solid cylinder of the given length and mass (radius ``length/20``) running
    from its joint along the body's ``-y`` axis to the next joint, so ``q = 0`` hangs straight
    down (gravity ``-g`` along y).  ``planar_chain(1)`` is a compound pendulum.

    Parameters
    ----------
    n : int
        Number of links, ≥ 1.
    length, mass : float
        Of every link.
    g : float

    Returns
    -------
    Model
    """
    n = integer(n, "n", minimum=1)
    model = Model(gravity=[0.0, -g, 0.0])
    rod = _rod(mass, length, "-y")
    for i in range(1, n + 1):
        X_tree = np.eye(6) if i == 1 else xlt([0.0, -length, 0.0])
        model.add_body(i - 1, J.Revolute("z"), X_tree, rod, name=f"link{i}")
    return model


def cart_pole(
    cart_mass: float = 1.0, pole_mass: float = 0.1, pole_length: float = 1.0, g: float = 9.81
) -> Model:
    """A cart sliding along x with a pole hinged on it about z (the cart-pole benchmark).

    ``q = [x, θ]``: the cart's position and the pole's angle from upright (``θ = 0`` points the
    pole along +y, against gravity ``-g`` along y; ``θ > 0`` tilts it towards -x).  The cart is
    a 0.4 x 0.2 x 0.2 m box centred on its frame; the pole a uniform rod.

    Returns
    -------
    Model
        ``NB = nq = nv = 2``.
    """
    model = Model(gravity=[0.0, -g, 0.0])
    model.add_body(
        0, J.Prismatic("x"), np.eye(6), cuboid_inertia(cart_mass, 0.4, 0.2, 0.2), name="cart"
    )
    model.add_body(1, J.Revolute("z"), np.eye(6), _rod(pole_mass, pole_length, "y"), name="pole")
    return model


def arm7() -> Model:
    """A 7-DoF revolute arm with the proportions of a lightweight manipulator.

    Joint axes alternate z, y, z, y, z, y, z (a spherical shoulder, an elbow, a spherical
    wrist); at ``q = 0`` the arm points straight up along the base z axis.  Joint ``i`` sits
    ``d_i`` above joint ``i-1`` with ``d = (0.15, 0.19, 0.21, 0.19, 0.21, 0.19, 0.08)`` m,
    link masses ``(4, 4, 3, 2.7, 1.7, 1.8, 0.3)`` kg, each link a uniform cylinder of radius
    6 cm up to the next joint (the last 8 cm long).  Plausible numbers, not the data of a
    particular robot.  Gravity ``-9.81`` along z.

    Returns
    -------
    Model
        ``NB = nq = nv = 7``; bodies named ``link1 … link7``.
    """
    offsets = (0.15, 0.19, 0.21, 0.19, 0.21, 0.19, 0.08)
    masses = (4.0, 4.0, 3.0, 2.7, 1.7, 1.8, 0.3)
    axes = "zyzyzyz"
    lengths = offsets[1:] + (0.08,)
    model = Model()
    for i in range(1, 8):
        inertia = _rod(masses[i - 1], lengths[i - 1], "z", radius=0.06)
        model.add_body(
            i - 1,
            J.Revolute(axes[i - 1]),
            xlt([0.0, 0.0, offsets[i - 1]]),
            inertia,
            name=f"link{i}",
        )
    return model


def humanoid(floating: bool = False) -> Model:
    """A small humanoid-like tree: torso, head, two 3-joint arms, two 4-joint legs.

    Body 1 is the torso (frame at the pelvis, 1 m above the base origin, 25 kg box).  Its joint
    is :class:`~spatial.joints.Fixed` (torso welded to the world) or, with ``floating=True``,
    :class:`~spatial.joints.Free` (a floating base; ``humanoid(True)`` equals
    ``floating_base(humanoid())``).  Then, numbered depth first per limb:

    * head: neck yaw (z);
    * right arm, left arm: shoulder pitch (y), shoulder roll (x), elbow (y);
    * right leg, left leg: hip roll (x), hip pitch (y), knee (y), ankle (y).

    At ``q = 0`` the robot stands upright with arms hanging; gravity ``-9.81`` along z.

    Returns
    -------
    Model
        16 bodies; 15 DoF fixed (``nq = nv = 15``) or 21 floating (``nq = 22``, ``nv = 21``).
    """
    model = Model()
    torso = cuboid_inertia(25.0, 0.2, 0.35, 0.5, frame(np.eye(3), [0.0, 0.0, 0.25]))
    model.add_body(
        0, J.Free() if floating else J.Fixed(), xlt([0.0, 0.0, 1.0]), torso, name="torso"
    )
    head = sphere_inertia(4.0, 0.1, frame(np.eye(3), [0.0, 0.0, 0.12]))
    model.add_body(1, J.Revolute("z"), xlt([0.0, 0.0, 0.55]), head, name="head")
    small = sphere_inertia(0.3, 0.04)
    for side, y in (("r", -0.22), ("l", 0.22)):
        b = model.add_body(1, J.Revolute("y"), xlt([0.0, y, 0.45]), small, name=f"{side}_shoulder")
        b = model.add_body(
            b, J.Revolute("x"), np.eye(6), _rod(2.0, 0.3, "-z"), name=f"{side}_upper_arm"
        )
        model.add_body(
            b, J.Revolute("y"), xlt([0.0, 0.0, -0.3]), _rod(1.5, 0.28, "-z"), name=f"{side}_forearm"
        )
    foot = cuboid_inertia(1.0, 0.22, 0.1, 0.05, frame(np.eye(3), [0.05, 0.0, -0.05]))
    for side, y in (("r", -0.1), ("l", 0.1)):
        b = model.add_body(1, J.Revolute("x"), xlt([0.0, y, 0.0]), small, name=f"{side}_hip")
        b = model.add_body(
            b, J.Revolute("y"), np.eye(6), _rod(6.0, 0.45, "-z"), name=f"{side}_thigh"
        )
        b = model.add_body(
            b, J.Revolute("y"), xlt([0.0, 0.0, -0.45]), _rod(3.0, 0.45, "-z"), name=f"{side}_shank"
        )
        model.add_body(b, J.Revolute("y"), xlt([0.0, 0.0, -0.45]), foot, name=f"{side}_foot")
    return model


def geared_arm(
    rotor_inertia: float = 2e-5,
    rotor_mass: float = 0.2,
    lengths=(0.5, 0.4),
    masses=(2.0, 1.5),
    stator_mass: float = 0.5,
    gear_distance: float = 0.08,
    rotors: bool = True,
    g: float = 9.81,
) -> Model:
    """The two-link arm of Featherstone Figure 9.2, driven by motors through gear pairs (§9.6).

    Planar (x-y plane, joints about z, gravity ``-g`` along y; at ``q = 0`` the arm points
    along +x).  With ``rotors=True`` the four moving bodies of the figure, numbered as the
    book does:

    1. ``upper_arm``: shoulder joint at the origin; a uniform rod of ``masses[0]``, plus the
       stator of motor 2 (a small cylinder of ``stator_mass``) at ``gear_distance`` before
       the elbow;
    2. ``rotor1``: rotor of motor 1 (stator fixed to the base at ``(-gear_distance, 0, 0)``);
    3. ``forearm``: elbow joint at ``(lengths[0], 0, 0)``; a uniform rod of ``masses[1]``;
    4. ``rotor2``: rotor of motor 2, on the upper arm, ``gear_distance`` before the elbow.

    Each rotor (with its small gear wheel) is a thin disc of ``rotor_mass`` and axial moment
    ``rotor_inertia`` centred on its axis.  The gears impose ``q₂ = ρ₁ q₁`` and
    ``q₄ = ρ₂ q₃``, i.e. ``G = gear_matrix(4, {1: (0, ρ₁), 3: (2, ρ₂)})``
    (:func:`spatial.dynamics.gear_matrix`); the model itself does not depend on the ratios.

    With ``rotors=False`` the rotors are not separate bodies: rotor 2 is welded to the upper
    arm and rotor 1 to the base, leaving the 2-body arm to which the approximate method of
    Example 9.5 adds the reflected inertias ``ρ² rotor_inertia``.

    Parameters
    ----------
    rotor_inertia : float
        Axial moment of inertia of each rotor (kg m²), > 0.
    rotor_mass : float
        Mass of each rotor (kg), > 0.
    lengths, masses : pair of float
        Of the upper arm and forearm.
    stator_mass : float
        Mass of motor 2's stator, carried by the upper arm.
    gear_distance : float
        Distance between a rotor's axis and the joint axis it drives (the sum of the two
        gear wheels' radii), < ``lengths[0]``.
    rotors : bool
        Model the rotors as bodies (exact, 4 bodies) or weld them (2 bodies).
    g : float

    Returns
    -------
    Model
        ``nq = nv = 4`` (shoulder, rotor 1, elbow, rotor 2) or 2 (shoulder, elbow).
    """
    (l1, l2), (m1, m2) = lengths, masses
    d = float(gear_distance)
    if not 0.0 < d < l1:
        raise ValueError(f"gear_distance must be in (0, lengths[0]) = (0, {l1}), got {d!r}")
    disc = np.diag([0.5, 0.5, 1.0]) * float(rotor_inertia)  # thin disc, axis z
    rotor = mcI(rotor_mass, np.zeros(3), disc)
    motor2 = [l1 - d, 0.0, 0.0]
    upper = _rod(m1, l1, "x") + cylinder_inertia(stator_mass, 0.03, 0.06, frame(np.eye(3), motor2))
    if not rotors:  # rotor 2 welded to the upper arm
        upper = upper + mcI(rotor_mass, motor2, disc)
    model = Model(gravity=[0.0, -g, 0.0])
    model.add_body(0, J.Revolute("z"), np.eye(6), upper, name="upper_arm")
    if rotors:
        model.add_body(0, J.Revolute("z"), xlt([-d, 0.0, 0.0]), rotor, name="rotor1")
    model.add_body(1, J.Revolute("z"), xlt([l1, 0.0, 0.0]), _rod(m2, l2, "x"), name="forearm")
    if rotors:
        model.add_body(1, J.Revolute("z"), xlt(motor2), rotor, name="rotor2")
    return model
