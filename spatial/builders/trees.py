"""Random kinematic trees and the benchmark families of Featherstone §10.3.

Every algorithm in the package is tested on trees it has never seen: :func:`random_tree` draws a
regular numbering (§4.1.2, each parent before its child), any mix of joint types
(:data:`JOINT_CODES`), general tree transforms (:func:`random_transform`) and general rigid-body
inertias (:func:`random_inertia`, which respects the triangle inequality of the principal
moments, as every real body does).

§10.3 compares algorithms on standard systems.  :func:`gu_chain` builds the unbranched set GU(n):
n revolute joints with general geometry and inertias.  §10.3.2 studies how branching changes
the cost; :func:`branched_tree` spans that family with a branching factor, a skew between
successive joint axes and a taper of the link sizes (the parameterization of ``autoTree`` in
Featherstone's spatial_v2 library).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import joints as J
from .._validate import as_scalar_array, integer, positive_scalar
from ..inertia import mcI
from ..model import Model
from ..rotations import quat_normalize, quat_to_matrix
from ..vectors import plux, rx

__all__ = [
    "JOINT_CODES",
    "random_transform",
    "random_inertia",
    "random_tree",
    "gu_chain",
    "branched_tree",
]


def _random_axis(rng: np.random.Generator) -> np.ndarray:
    a = rng.standard_normal(3)
    return a / np.linalg.norm(a)


# The 12 Euler sequences (six Tait–Bryan, six proper), drawn by the ``"SE"`` joint code.
_EULER_SEQUENCES = (
    "XYZ",
    "XZY",
    "YXZ",
    "YZX",
    "ZXY",
    "ZYX",
    "XYX",
    "XZX",
    "YXY",
    "YZY",
    "ZXZ",
    "ZYZ",
)

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
    "U": lambda rng: J.Universal(),
    "SE": lambda rng: J.SphericalEuler(str(rng.choice(_EULER_SEQUENCES))),
    "SX": lambda rng: J.SphericalExp(),
    "PT": lambda rng: J.PlanarTranslation(),
    "T": lambda rng: J.Translational(),
    "F2": lambda rng: J.free_2d(),
    "F3": lambda rng: J.free_3d(),
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
    pinion (radius in [0.1, 1]), ``"F"`` fixed, and Sueda's joint zoo (§2.4): ``"U"``
    universal, ``"SE"`` spherical in a random one of the 12 Euler sequences, ``"SX"``
    spherical in exponential coordinates, ``"PT"`` planar translation, ``"T"`` translation,
    ``"F2"``/``"F3"`` the composite free joints :func:`~spatial.joints.free_2d` and
    :func:`~spatial.joints.free_3d`; a ``"~"`` prefix reverses the polarity
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
    n = integer(n, "n", minimum=1)
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
    n = integer(n, "n", minimum=1)
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
    n = integer(n, "n", minimum=1)
    bf = float(as_scalar_array(branching_factor, "branching_factor"))
    if bf < 1.0:
        raise ValueError(f"branching_factor must be ≥ 1, got {branching_factor!r}")
    taper = positive_scalar(taper, "taper")
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
