"""Ready-made kinematic trees: random test systems, benchmark families and named mechanisms.

* Random trees for tests: :func:`random_tree` (any mix of joint types, random regular numbering,
  random general tree transforms and inertias), with :func:`random_transform` and
  :func:`random_inertia`.
* Benchmark families of Featherstone §10.3: :func:`gu_chain` (the unbranched set GU(n)) and
  :func:`branched_tree` (trees with a branching factor, skew and taper).
* Geometry from Denavit–Hartenberg parameters (§4.3): :func:`dh_transforms`, :func:`from_dh`.
* Named mechanisms: :func:`simple_pendulum`, :func:`double_pendulum`, :func:`planar_chain`,
  :func:`cart_pole`, :func:`arm7`, :func:`humanoid`.
* Closed-loop mechanisms (Featherstone ch. 8): :func:`four_bar`, :func:`crank_slider`,
  :func:`planar_loop_fig_8_3`, :func:`ladder`.
* Operations on models: :func:`floating_base` (make the tree free-floating, §4.1 and §9.4) and
  :func:`renumber` (another regular numbering of the same tree, §4.1.2).

Conventions: planar mechanisms move in the x-y plane about z with gravity ``-g`` along y;
spatial mechanisms have gravity ``-g`` along z.  Every builder returns a new
:class:`~spatial.model.Model`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import joints as J
from .._validate import as_scalar_array, positive_scalars
from ..inertia import cuboid_inertia, cylinder_inertia, mcI, point_mass_inertia, sphere_inertia
from ..model import Model
from ..rotations import quat_normalize, quat_to_matrix
from ..se3 import frame
from ..vectors import inv_transform_inertia, plux, rotx, rotz, rx, xlt

__all__ = [
    "JOINT_CODES",
    "random_transform",
    "random_inertia",
    "random_tree",
    "gu_chain",
    "branched_tree",
    "dh_transforms",
    "from_dh",
    "simple_pendulum",
    "double_pendulum",
    "planar_chain",
    "cart_pole",
    "arm7",
    "humanoid",
    "four_bar",
    "crank_slider",
    "planar_loop_fig_8_3",
    "ladder",
    "floating_base",
    "renumber",
    "geared_arm",
]


def _random_axis(rng: np.random.Generator) -> np.ndarray:
    a = rng.standard_normal(3)
    return a / np.linalg.norm(a)


#: Joint codes understood by :func:`random_tree`; each maps to a factory ``rng -> Joint``.
#: Prefix a code with ``"~"`` for the reversed-polarity joint (:class:`~spatial.joints.Reversed`).
JOINT_CODES = {
    "R": lambda rng: J.Revolute(_random_axis(rng)),
    "Rx": lambda rng: J.Revolute("x"),
    "Ry": lambda rng: J.Revolute("y"),
    "Rz": lambda rng: J.Revolute("z"),
    "P": lambda rng: J.Prismatic(_random_axis(rng)),
    "Px": lambda rng: J.Prismatic("x"),
    "Py": lambda rng: J.Prismatic("y"),
    "Pz": lambda rng: J.Prismatic("z"),
    "H": lambda rng: J.Helical(_random_axis(rng), pitch=rng.uniform(-0.5, 0.5)),
    "C": lambda rng: J.Cylindrical(_random_axis(rng)),
    "PL": lambda rng: J.Planar(),
    "SY": lambda rng: J.SphericalYPR(),
    "S": lambda rng: J.Spherical(),
    "FREE": lambda rng: J.Free(),
    "RP": lambda rng: J.RackPinion(rng.uniform(0.1, 1.0)),
    "F": lambda rng: J.Fixed(),
}


def _make_joint(code, rng: np.random.Generator) -> J.Joint:
    """A joint from a code of :data:`JOINT_CODES` (``"~"`` prefix: reversed) or a Joint."""
    if isinstance(code, J.Joint):
        return code
    if isinstance(code, str) and code.startswith("~"):
        return J.Reversed(_make_joint(code[1:], rng))
    if code not in JOINT_CODES:
        raise ValueError(
            f"unknown joint code {code!r}; expected a Joint or one of {sorted(JOINT_CODES)}"
            " (optionally prefixed with '~')"
        )
    return JOINT_CODES[code](rng)


def _count(n, name: str, minimum: int = 1) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < minimum:
        raise ValueError(f"{name} must be an int ≥ {minimum}, got {n!r}")
    return int(n)


def random_transform(rng: np.random.Generator, shape: tuple = (), scale: float = 0.5) -> np.ndarray:
    """Random Plücker transform ``plux(E, r)``: uniform random rotation, Gaussian translation.

    Parameters
    ----------
    rng : numpy.random.Generator
    shape : tuple
        Batch shape.
    scale : float
        Standard deviation of each translation component (m).

    Returns
    -------
    ndarray, shape ``shape + (6, 6)``
    """
    shape = tuple(shape)
    E = quat_to_matrix(quat_normalize(rng.standard_normal(shape + (4,))))
    return plux(E, scale * rng.standard_normal(shape + (3,)))


def random_inertia(rng: np.random.Generator, shape: tuple = ()) -> np.ndarray:
    """Random general rigid-body inertia ``mcI(m, c, I_c)`` (Featherstone eq. 2.63).

    ``m ~ U(0.5, 2)``, ``c ~ N(0, 0.2²)`` per component, and ``I_c = R diag(b + c, a + c,
    a + b) Rᵀ`` with a random rotation ``R`` and random second moments ``a, b, c > 0`` of the
    mass distribution, so ``I_c`` is positive definite and satisfies the triangle inequality
    strictly (every physical body does).

    Parameters
    ----------
    rng : numpy.random.Generator
    shape : tuple
        Batch shape.

    Returns
    -------
    ndarray, shape ``shape + (6, 6)``
    """
    shape = tuple(shape)
    m = rng.uniform(0.5, 2.0, size=shape)
    c = 0.2 * rng.standard_normal(shape + (3,))
    a = m[..., None] * rng.uniform(0.005, 0.05, size=shape + (3,))
    moments = a.sum(-1, keepdims=True) - a
    R = quat_to_matrix(quat_normalize(rng.standard_normal(shape + (4,))))
    I_c = (R * moments[..., None, :]) @ np.swapaxes(R, -1, -2)
    return mcI(m, c, I_c)


def random_tree(
    rng: np.random.Generator,
    n: int,
    joints: Sequence = ("R", "P", "S", "F"),
    floating: bool = False,
    branching: float = 1.0,
    gravity=(0.0, 0.0, -9.81),
) -> Model:
    """Random kinematic tree with general geometry and inertias (a test system for every algorithm).

    Body ``i``'s parent is drawn as follows (a random regular numbering, §4.1.2): with
    probability ``branching`` uniformly from ``0 … i-1``, otherwise ``i - 1`` (the chain
    continues).  ``branching=0`` gives an unbranched chain, ``branching=1`` a uniformly random
    recursive tree.  Each joint is drawn uniformly from ``joints``; tree transforms come from
    :func:`random_transform` and inertias from :func:`random_inertia`.

    Joint codes (:data:`JOINT_CODES`): ``"R"``/``"P"`` revolute/prismatic about a random unit
    axis, ``"Rx" "Ry" "Rz" "Px" "Py" "Pz"`` about a coordinate axis, ``"H"`` helical (random
    axis and pitch in [-0.5, 0.5]), ``"C"`` cylindrical, ``"PL"`` planar, ``"SY"`` spherical
    (yaw-pitch-roll), ``"S"`` spherical (quaternion), ``"FREE"`` 6-DoF, ``"RP"`` rack and
    pinion (radius in [0.1, 1]), ``"F"`` fixed; a ``"~"`` prefix reverses the polarity
    (``"~RP"``).  Joint instances may be given too (used as they are, shared).

    Parameters
    ----------
    rng : numpy.random.Generator
    n : int
        Number of bodies ``NB ≥ 1``.
    joints : sequence of str or Joint
        The joint types to draw from.
    floating : bool
        If true, body 1 is a floating base: its joint is :class:`~spatial.joints.Free` and
        every other body descends from it (parents drawn from ``1 … i-1``).
    branching : float in [0, 1]
        Probability that a body's parent is drawn at random instead of being ``i - 1``.
    gravity : array_like, shape (3,)

    Returns
    -------
    Model

    Raises
    ------
    ValueError
        If ``n`` is not a positive int, ``joints`` is empty or has an unknown code, or
        ``branching`` is outside [0, 1].

    Examples
    --------
    >>> import numpy as np
    >>> from spatial.builders import random_tree
    >>> model = random_tree(np.random.default_rng(0), 5, joints=("R", "S"))
    >>> model.NB
    5
    """
    n = _count(n, "n")
    if isinstance(joints, (str, J.Joint)) or len(joints) == 0:
        raise ValueError(f"joints must be a non-empty sequence of codes or Joints, got {joints!r}")
    branching = float(branching)
    if not 0.0 <= branching <= 1.0:
        raise ValueError(f"branching must be in [0, 1], got {branching!r}")
    model = Model(gravity=gravity)
    for i in range(1, n + 1):
        lowest = 1 if floating and i > 1 else 0
        if i > 1 and rng.uniform() < branching:
            parent = int(rng.integers(lowest, i))
        else:
            parent = i - 1
        if floating and i == 1:
            joint = J.Free()
        else:
            joint = _make_joint(joints[int(rng.integers(len(joints)))], rng)
        model.add_body(parent, joint, random_transform(rng), random_inertia(rng))
    return model


def gu_chain(n: int, rng: np.random.Generator | None = None) -> Model:
    """GU(n): an unbranched chain of ``n`` revolute joints with general geometry and inertias.

    Featherstone §10.3 defines GU(n) as the standard benchmark set: unbranched, all joints
    revolute, all bodies with general inertia and geometric parameters, ``n = N_B = N_J``.  The
    text leaves the numbers open; here each joint turns about the z axis of its successor
    frame (so ``S = [0 0 1 0 0 0]ᵀ`` in link coordinates, as in the DH-frame optimizations of
    §10.3.1), each ``X_T(i)`` is a :func:`random_transform` and each inertia a
    :func:`random_inertia`.

    Parameters
    ----------
    n : int
        Number of joints (and bodies), ≥ 1.
    rng : numpy.random.Generator, optional
        Source of the parameters; default ``numpy.random.default_rng(0)``, so ``gu_chain(n)``
        is the same system on every call.

    Returns
    -------
    Model

    Raises
    ------
    ValueError
        If ``n`` is not a positive int.
    """
    n = _count(n, "n")
    rng = np.random.default_rng(0) if rng is None else rng
    model = Model()
    for i in range(1, n + 1):
        model.add_body(i - 1, J.Revolute("z"), random_transform(rng), random_inertia(rng))
    return model


def branched_tree(
    n: int, branching_factor: float = 1.0, skew: float = 0.0, taper: float = 1.0
) -> Model:
    """Trees of thin tubes with a branching factor, skew and taper (the §10.3.2 test family).

    Featherstone §10.3.2 compares an unbranched chain with a binary tree; this builder spans
    that family with three knobs (the parameterization of ``autoTree`` in Featherstone's
    spatial_v2 library):

    * ``branching_factor`` ``bf ≥ 1``: the average number of children of a non-terminal body;
      bodies are numbered breadth first with ``λ(i) = floor((i - 2 + ceil(bf)) / bf)``, so
      ``bf = 1`` is a chain and ``bf = 2`` a binary tree (depth ``O(log n)``);
    * ``skew``: each outboard joint axis is rotated about the link's x axis by ``skew`` radians
      relative to the inboard axis (``skew = 0`` gives a planar mechanism);
    * ``taper``: link ``i`` has length ``taper^(i-1)`` and mass ``taper^(3(i-1))``.

    Link ``i`` is a thin-walled tube of radius ``l_i/20`` lying from 0 to ``l_i`` on the x
    axis of its frame (inertia about its centre ``m l² diag(1/400, 1/12 + 1/800, 1/12 +
    1/800)``); its joint is revolute about its frame's z axis, located at ``(l_λ(i), 0, 0)``
    in the parent's frame.  Gravity is ``-9.81`` along z.

    Parameters
    ----------
    n : int
        Number of bodies, ≥ 1.
    branching_factor : float
        ``bf ≥ 1``.
    skew : float
        Angle (rad) between successive joint axes.
    taper : float
        Length ratio of successive links, > 0.

    Returns
    -------
    Model

    Raises
    ------
    ValueError
        If ``n`` is not a positive int, ``branching_factor < 1`` or ``taper ≤ 0``.
    """
    n = _count(n, "n")
    bf = float(as_scalar_array(branching_factor, "branching_factor"))
    if bf < 1.0:
        raise ValueError(f"branching_factor must be ≥ 1, got {branching_factor!r}")
    taper = float(as_scalar_array(taper, "taper"))
    if taper <= 0.0:
        raise ValueError(f"taper must be positive, got {taper!r}")
    skew = float(as_scalar_array(skew, "skew"))
    model = Model()
    length = [0.0]
    for i in range(1, n + 1):
        parent = int(np.floor((i - 2 + np.ceil(bf)) / bf))
        X_tree = np.eye(6) if parent == 0 else plux(rx(skew), [length[parent], 0.0, 0.0])
        l_i, m_i = taper ** (i - 1), taper ** (3 * (i - 1))
        I_c = m_i * l_i**2 * np.diag([1 / 400, 1 / 12 + 1 / 800, 1 / 12 + 1 / 800])
        model.add_body(parent, J.Revolute("z"), X_tree, mcI(m_i, [l_i / 2, 0.0, 0.0], I_c))
        length.append(l_i)
    return model


# ----------------------------------------------------------------------------- DH parameters


def dh_transforms(a, alpha, d, theta, base_d: float = 0.0, base_theta: float = 0.0) -> np.ndarray:
    """Tree transforms ``X_T(i)`` of an unbranched chain from DH parameters (Featherstone §4.3).

    With the book's convention (Siciliano–Khatib): ``a_i`` and ``α_i`` are the distance and
    angle from ``z_{i-1}`` to ``z_i`` along/about ``x_{i-1}``; ``d_i`` and ``θ_i`` the
    distance and angle from ``x_{i-1}`` to ``x_i`` along/about ``z_i``.  Joint ``i`` moves
    along/about ``z_i``, so the joint transform supplies the variable part and

    ``X_T(i) = rotz(θ_i) xlt([a_i, 0, d_i]) rotx(α_i)``,

    where ``θ_i`` and ``d_i`` here are constant *offsets* (zero in the book's formula, in
    which the joint variable is the whole ``θ_i`` of a revolute or ``d_i`` of a prismatic
    joint; ``rotz`` and a translation along z commute with the joint's own motion, so an
    offset can sit in ``X_T``).  For ``i = 1`` the base-frame placement
    ``rotz(θ₀) xlt([0, 0, d₀])`` is appended on the right, as in the book.

    Parameters
    ----------
    a, alpha, d, theta : array_like, shape (n,)
    base_d, base_theta : float
        ``d₀`` and ``θ₀`` locating ``x₀`` relative to the base frame.

    Returns
    -------
    ndarray, shape (n, 6, 6)

    Raises
    ------
    ValueError
        If the four arrays are not finite 1-D arrays of the same length ≥ 1.
    """
    params = [
        as_scalar_array(p, name)
        for p, name in zip((a, alpha, d, theta), ("a", "alpha", "d", "theta"), strict=True)
    ]
    if (
        any(p.ndim != 1 for p in params)
        or len({p.shape for p in params}) != 1
        or params[0].size == 0
    ):
        raise ValueError(
            "a, alpha, d and theta must be 1-D arrays of the same length ≥ 1, got shapes "
            f"{[p.shape for p in params]}"
        )
    a, alpha, d, theta = params
    zeros = np.zeros_like(a)
    X = rotz(theta) @ xlt(np.stack([a, zeros, d], -1)) @ rotx(alpha)
    X[0] = X[0] @ rotz(base_theta) @ xlt([0.0, 0.0, float(as_scalar_array(base_d, "base_d"))])
    return X


def from_dh(
    a,
    alpha,
    d,
    theta,
    joint_types="R",
    inertias=None,
    base_d: float = 0.0,
    base_theta: float = 0.0,
    gravity=(0.0, 0.0, -9.81),
) -> Model:
    """Unbranched chain from DH parameters (Featherstone §4.3); see :func:`dh_transforms`.

    Parameters
    ----------
    a, alpha, d, theta : array_like, shape (n,)
        DH parameters; for each joint, the entry that is its variable (``θ_i`` of a revolute,
        ``d_i`` of a prismatic joint) is a constant offset added to the variable.
    joint_types : str or sequence of str
        ``"R"`` (revolute about ``z_i``) or ``"P"`` (prismatic along ``z_i``), one per joint,
        or a single letter for all joints.
    inertias : sequence of array_like (6, 6), optional
        Link inertias in DH link coordinates.  Default: 1 kg with rotational inertia
        ``0.01·1`` kg m² about the link frame's origin (a placeholder for kinematics).
    base_d, base_theta : float
        Placement of ``x₀`` relative to the base frame.
    gravity : array_like, shape (3,)

    Returns
    -------
    Model

    Raises
    ------
    ValueError
        If the parameters are inconsistent (see :func:`dh_transforms`), a joint type is not
        ``"R"``/``"P"``, or the number of joint types or inertias differs from ``n``.
    """
    X_T = dh_transforms(a, alpha, d, theta, base_d, base_theta)
    n = len(X_T)
    types = (
        [joint_types] * n
        if isinstance(joint_types, str) and len(joint_types) == 1
        else list(joint_types)
    )
    if len(types) != n or any(t not in ("R", "P") for t in types):
        raise ValueError(
            f"joint_types must be 'R'/'P' (one, or one per joint: {n}), got {joint_types!r}"
        )
    if inertias is None:
        inertias = [mcI(1.0, np.zeros(3), 0.01 * np.eye(3))] * n
    if len(inertias) != n:
        raise ValueError(f"inertias must have one entry per joint ({n}), got {len(inertias)}")
    model = Model(gravity=gravity)
    for i in range(1, n + 1):
        joint = J.Revolute("z") if types[i - 1] == "R" else J.Prismatic("z")
        model.add_body(i - 1, joint, X_T[i - 1], inertias[i - 1], name=f"link{i}")
    return model


# ----------------------------------------------------------------------------- named mechanisms


def _rod(m: float, length: float, direction, radius: float | None = None) -> np.ndarray:
    """Uniform solid cylinder (radius ``length/20`` by default) from the origin along ``direction``.

    The moments about the centre come from :func:`~spatial.inertia.cylinder_inertia`; the
    rotational inertia is ``I_⊥ (1 - a aᵀ) + I_∥ a aᵀ`` about the axis ``a``.
    """
    a = J.axis_vector(direction)
    radius = length / 20.0 if radius is None else radius
    I_perp, _, I_axial = np.diag(cylinder_inertia(m, radius, length))[:3]
    aa = np.outer(a, a)
    return mcI(m, 0.5 * length * a, I_perp * (np.eye(3) - aa) + I_axial * aa)


def _bob(mass: float, position, radius: float) -> np.ndarray:
    """A point mass (``radius = 0``) or a solid sphere centred at ``position``."""
    if radius == 0:
        return point_mass_inertia(mass, position)
    return sphere_inertia(mass, radius, frame(np.eye(3), position))


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
    n = _count(n, "n")
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


# ----------------------------------------------------------------------------- model operations


def _copy(model: Model, bodies) -> Model:
    """A new model with ``model``'s gravity and the bodies ``(parent, joint, X_tree, I, name)``."""
    out = Model(gravity=model.gravity.copy())
    for parent, joint, X_tree, inertia, name in bodies:
        out.add_body(parent, joint, X_tree, inertia, name=name)
    return out


def _bodies(model: Model, i: int) -> tuple:
    return model.parent[i], model.joints[i], model.X_tree[i], model.inertia[i], model.names[i]


def floating_base(model: Model, inertia=None, name: str = "floating_base") -> Model:
    """The same tree made free-floating: a 6-DoF joint to the fixed base (§4.1, §9.4).

    Two ways, both adding exactly 6 degrees of freedom:

    * ``inertia=None``: the model's single root body (body 1, the only child of the base)
      becomes the floating base; its joint must be :class:`~spatial.joints.Fixed` (a robot
      whose torso was welded to the world) and is replaced by :class:`~spatial.joints.Free`,
      keeping ``X_T(1)``.
    * ``inertia`` given: a new body 1 called ``name``, with that inertia, is connected to the
      base by a Free joint (``X_T = 1``) and every former root body hangs from it with its old
      joint and tree transform; the other bodies are renumbered ``i → i + 1``.

    The Free joint's ``q`` is ``[quaternion, position]`` (see :class:`~spatial.joints.Free`);
    at its neutral value the bodies are where the original model put them.

    Parameters
    ----------
    model : Model
    inertia : array_like, shape (6, 6), optional
        Inertia of a new floating body (see above).
    name : str
        Name of the new body (only with ``inertia``).

    Returns
    -------
    Model

    Raises
    ------
    ValueError
        If ``inertia`` is None and the model does not have exactly one root body whose joint
        is Fixed.
    """
    bodies = [_bodies(model, i) for i in range(1, model.NB + 1)]
    if inertia is None:
        roots = model.children(0)
        if roots != [1] or model.joints[1].nv != 0:
            raise ValueError(
                "floating_base without an inertia needs one root body with a Fixed joint (got "
                f"roots {roots}, joint 1 = {model.joints[1]!r}); pass inertia= to add a new "
                "floating body instead"
            )
        _, _, X_tree, I, body_name = bodies[0]
        bodies[0] = (0, J.Free(), X_tree, I, body_name)
        return _copy(model, bodies)
    shifted = [(p + 1 if p > 0 else 1, j, X, I, nm) for p, j, X, I, nm in bodies]
    return _copy(model, [(0, J.Free(), np.eye(6), inertia, name)] + shifted)


def renumber(model: Model, order) -> tuple[Model, np.ndarray, np.ndarray]:
    """The same tree with another regular numbering (§4.1.2), and the maps of ``q`` and ``qd``.

    Parameters
    ----------
    model : Model
    order : sequence of int, length NB
        The old body numbers in their new order: new body ``k`` is old body ``order[k-1]``.
        Every body's parent must come before it (a regular numbering).

    Returns
    -------
    new_model : Model
        Same joints, tree transforms, inertias and names, renumbered.
    q_perm, v_perm : ndarray of int, shapes (nq,), (nv,)
        ``q_new = q_old[..., q_perm]`` and ``qd_new = qd_old[..., v_perm]`` (also for
        ``qdd`` and ``tau``).  Per-body results map as ``new[k] = old[order[k-1]]``.

    Raises
    ------
    ValueError
        If ``order`` is not a permutation of ``1 … NB`` or puts a body before its parent.
    """
    order = [int(i) for i in order]
    if sorted(order) != list(range(1, model.NB + 1)):
        raise ValueError(f"order must be a permutation of 1 … {model.NB}, got {order}")
    new_number = {0: 0}
    bodies = []
    for k, old in enumerate(order, start=1):
        parent = model.parent[old]
        if parent not in new_number:
            raise ValueError(
                f"order puts body {old} before its parent {parent}; parents must come first"
            )
        new_number[old] = k
        _, joint, X_tree, inertia, name = _bodies(model, old)
        bodies.append((new_number[parent], joint, X_tree, inertia, name))
    new_model = _copy(model, bodies)
    q_perm = np.concatenate(
        [np.arange(model.nq)[model.q_index[i]] for i in order] + [np.zeros(0, int)]
    )
    v_perm = np.concatenate(
        [np.arange(model.nv)[model.v_index[i]] for i in order] + [np.zeros(0, int)]
    )
    return new_model, q_perm, v_perm


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


# ----------------------------------------------------------------------------- closed loops


def _bar(m: float, start, end) -> np.ndarray:
    """Uniform rod (as :func:`_rod`) from ``start`` to ``end``, in body coordinates."""
    start, d = np.asarray(start, float), np.asarray(end, float) - np.asarray(start, float)
    length = float(np.linalg.norm(d))
    return inv_transform_inertia(xlt(start), _rod(m, length, d / length))


def four_bar(
    crank: float = 0.3,
    coupler: float = 1.0,
    rocker: float = 0.8,
    ground: float = 0.9,
    masses=(1.0, 1.0, 1.0),
    g: float = 9.81,
) -> Model:
    """A planar four-bar linkage: crank, coupler and rocker pinned to the ground and each other.

    Spanning tree: the crank (body 1) turns about z at the origin ``A``; the coupler (body 2)
    is pinned to the crank's end ``B``; the rocker (body 3) turns about z at ``D = (ground, 0)``.
    The loop joint is the revolute pin ``C`` between the coupler's end (predecessor) and the
    rocker's end (successor).  Every link is a uniform rod (as :func:`planar_chain`) along its
    body's x axis, so ``q = [θ₁, φ₂ - θ₁, φ₃]``: crank angle, coupler angle relative to the
    crank, rocker angle.  Gravity ``-g`` along y.  The defaults are a Grashof crank-rocker (the
    crank turns fully).  ``q = 0`` does not close the loop: closed configurations come from
    :func:`spatial.dynamics.loops.four_bar_closure` with the same lengths.

    Parameters
    ----------
    crank, coupler, rocker, ground : float
        Link lengths (m), > 0.
    masses : three floats
        Of the crank, coupler and rocker (kg), > 0.
    g : float

    Returns
    -------
    Model
        ``NB = 3``, ``NL = 1`` (a revolute loop joint: 5 constraints of rank 2, mobility 1).
    """
    l1, l2, l3, l0 = positive_scalars(
        (crank, coupler, rocker, ground), ("crank", "coupler", "rocker", "ground")
    )
    m1, m2, m3 = positive_scalars(masses, ("crank mass", "coupler mass", "rocker mass"))
    model = Model(gravity=[0.0, -g, 0.0])
    model.add_body(0, J.Revolute("z"), np.eye(6), _rod(m1, l1, "x"), name="crank")
    model.add_body(1, J.Revolute("z"), xlt([l1, 0.0, 0.0]), _rod(m2, l2, "x"), name="coupler")
    model.add_body(0, J.Revolute("z"), xlt([l0, 0.0, 0.0]), _rod(m3, l3, "x"), name="rocker")
    model.add_loop_joint(2, 3, J.Revolute("z"), xlt([l2, 0.0, 0.0]), xlt([l3, 0.0, 0.0]), "pin C")
    return model


def crank_slider(
    crank: float = 0.3,
    rod: float = 1.0,
    offset: float = 0.0,
    masses=(1.0, 1.0, 0.5),
    g: float = 9.81,
) -> Model:
    """The crank-slider linkage of Featherstone Figure 4.1, planar in x-y.

    Spanning tree (one of the eight numberings of Figure 4.4, branched at the base): the crank
    (body 1) turns about z at the origin; the connecting rod (body 2) is pinned to the crank's
    end; the slider (body 3) moves along x on the line ``y = offset`` (prismatic joint).  The
    loop joint is the revolute pin between the rod's end (predecessor) and the slider
    (successor).  ``q = [θ, φ - θ, x]``: crank angle, rod angle relative to the crank, slider
    position.  Crank and rod are uniform rods along their x axes; the slider a 0.2 x 0.1 x 0.1 m
    box centred on its frame.  Gravity ``-g`` along y.  Closed configurations come from
    :func:`spatial.dynamics.loops.crank_slider_closure`.

    Parameters
    ----------
    crank, rod : float
        Crank radius and rod length (m), > 0.
    offset : float
        Height of the slider's guide above the crank pivot (m).
    masses : three floats
        Of the crank, rod and slider (kg), > 0.
    g : float

    Returns
    -------
    Model
        ``NB = 3``, ``NL = 1``.
    """
    r, l = positive_scalars((crank, rod), ("crank", "rod"))
    e = float(as_scalar_array(offset, "offset"))
    m1, m2, m3 = positive_scalars(masses, ("crank mass", "rod mass", "slider mass"))
    model = Model(gravity=[0.0, -g, 0.0])
    model.add_body(0, J.Revolute("z"), np.eye(6), _rod(m1, r, "x"), name="crank")
    model.add_body(1, J.Revolute("z"), xlt([r, 0.0, 0.0]), _rod(m2, l, "x"), name="rod")
    slider = cuboid_inertia(m3, 0.2, 0.1, 0.1)
    model.add_body(0, J.Prismatic("x"), xlt([0.0, e, 0.0]), slider, name="slider")
    model.add_loop_joint(2, 3, J.Revolute("z"), xlt([l, 0.0, 0.0]), np.eye(6), "wrist pin")
    return model


def planar_loop_fig_8_3(
    l1: float = 1.0,
    l2: float = 0.5,
    arm=(1.0, 0.8),
    masses=(1.0, 0.5, 0.3, 0.8),
    g: float = 9.81,
) -> Model:
    """The planar mechanism of Featherstone Figure 8.3: a two-link arm with a linear actuator.

    Body 1 (``B1``, upper arm) turns about z at the origin; body 2 (``B2``, the actuator's
    cylinder) turns about z at ``(l1, 0)``; body 3 (``B3``, the piston) slides along the
    cylinder's x axis (joint 3, prismatic, ``q₃ = d``, the pivot-to-pin length); body 4
    (``B4``, forearm) is pinned to the end of the upper arm.  The loop joint (joint 5) pins the
    piston's end to the upper arm at distance ``l2`` from the shoulder.  So the loop is the
    triangle of the figure, ``q = [q₁, θ₂, d, q₄]`` with ``θ₂`` the cylinder's absolute angle,
    and the mobility is 2 (:func:`spatial.dynamics.loops.fig_8_3_closure`).  Links are uniform
    rods: arm segments along +x, cylinder 0.4 m along +x, piston rod 0.4 m along -x from the
    pin.  Gravity ``-g`` along y.

    Parameters
    ----------
    l1, l2 : float
        Distance from the shoulder to the cylinder's pivot, and to the piston's pin (m), > 0.
    arm : two floats
        Lengths of the upper arm and forearm (m), > 0.
    masses : four floats
        Of B1 … B4 (kg), > 0.
    g : float

    Returns
    -------
    Model
        ``NB = 4``, ``NL = 1``.
    """
    l1, l2 = positive_scalars((l1, l2), ("l1", "l2"))
    a1, a2 = positive_scalars(arm, ("upper arm length", "forearm length"))
    m1, m2, m3, m4 = positive_scalars(masses, ("B1 mass", "B2 mass", "B3 mass", "B4 mass"))
    model = Model(gravity=[0.0, -g, 0.0])
    model.add_body(0, J.Revolute("z"), np.eye(6), _rod(m1, a1, "x"), name="B1")
    model.add_body(0, J.Revolute("z"), xlt([l1, 0.0, 0.0]), _rod(m2, 0.4, "x"), name="B2")
    model.add_body(2, J.Prismatic("x"), np.eye(6), _rod(m3, 0.4, "-x"), name="B3")
    model.add_body(1, J.Revolute("z"), xlt([a1, 0.0, 0.0]), _rod(m4, a2, "x"), name="B4")
    model.add_loop_joint(1, 3, J.Revolute("z"), xlt([l2, 0.0, 0.0]), np.eye(6), "J5")
    return model


def ladder(
    n: int, spacing: float = 1.0, height: float = 1.0, mass: float = 1.0, g: float = 9.81
) -> Model:
    """A ladder of ``2n`` bars joined by ball joints: the connectivity of Featherstone Fig. 8.4.

    Two rails hang from the base: a top rail of bars ``a_m`` (body ``2m - 1``) from
    ``((m-1) s, 0, 0)`` to ``(m s, 0, 0)`` and a bottom rail of bars ``b_m`` (body ``2m``) at
    ``y = -h``.  The spanning tree is the top rail (a chain of ball joints starting at the
    base) plus one rung per cell: a ball joint between ``a_m`` and ``b_m`` at
    ``((m - ½) s, -h/2, 0)`` (each bar is bent to reach it).  The bottom rail's ball joints (the
    first to the base at ``(0, -h, 0)``) close ``n`` loops.  Every joint is a quaternion
    :class:`~spatial.joints.Spherical` joint, so the loops are properly constrained
    (``rank K = n^c = 3n``, mobility ``6n - 3n = 3n``) and the sparse matrix method applies (§8.13);
    every loop shares joints with its neighbours, so all loops form one cluster (§8.9).  At
    ``q = neutral_configuration()`` every loop is closed.  Gravity ``-g`` along y.

    Parameters
    ----------
    n : int
        Number of cells (loops), ≥ 1.
    spacing, height : float
        Cell width ``s`` and rail separation ``h`` (m), > 0.
    mass : float
        Of each bar (kg), > 0.
    g : float

    Returns
    -------
    Model
        ``NB = 2n``, ``NL = n``.
    """
    n = _count(n, "n")
    s, h, m = positive_scalars((spacing, height, mass), ("spacing", "height", "mass"))
    model = Model(gravity=[0.0, -g, 0.0])
    rung = np.array([0.5 * s, -0.5 * h, 0.0])  # rung pin relative to the start of a top bar
    for k in range(1, n + 1):
        top = 0 if k == 1 else 2 * k - 3
        X_tree = np.eye(6) if k == 1 else xlt([s, 0.0, 0.0])
        model.add_body(top, J.Spherical(), X_tree, _bar(m, [0, 0, 0], [s, 0, 0]), name=f"a{k}")
        bottom = _bar(m, [-0.5 * s, -0.5 * h, 0.0], [0.5 * s, -0.5 * h, 0.0])
        model.add_body(2 * k - 1, J.Spherical(), xlt(rung), bottom, name=f"b{k}")
        X_p = xlt([0.0, -h, 0.0]) if k == 1 else xlt([0.5 * s, -0.5 * h, 0.0])
        model.add_loop_joint(
            0 if k == 1 else 2 * k - 2, 2 * k, J.Spherical(), X_p, xlt([-0.5 * s, -0.5 * h, 0.0])
        )
    return model
