"""Closed-loop mechanisms: a spanning tree plus loop joints (Featherstone ch. 8, §4.1–4.2).

A mechanism with kinematic loops is modelled as a spanning tree, whose joints carry the
variables ``q``, plus one loop joint per loop, which adds constraints and no variables
(§4.1–4.2, §8.1).  The builders here give the classic planar linkages and one spatial family:

* :func:`four_bar` — crank, coupler and rocker (a Grashof crank-rocker by default);
* :func:`crank_slider` — Featherstone Figure 4.1, the slider on a prismatic joint;
* :func:`planar_loop_fig_8_3` — Figure 8.3, an arm with a linear actuator (mobility 2);
* :func:`ladder` — the connectivity of Figure 8.4: ``n`` loops of ball joints sharing joints
  with their neighbours, the test case of the sparse matrix method (§8.9, §8.13);
* :func:`jansen_leg` — Theo Jansen's walking leg (the Strandbeest): seven links, ten pins, three
  loops and one degree of freedom, with :func:`jansen_points`, its joint positions in closed
  form (circle intersections), as an independent check of the closed configurations.

Closed configurations come from the closure functions of :mod:`spatial.dynamics.loops`.
"""

from __future__ import annotations

import numpy as np

from .. import joints as J
from .._validate import as_scalar_array, integer, positive_scalars
from ..inertia import cuboid_inertia
from ..model import Model
from ..vectors import rotz, xlt
from .parts import _bar, _rod

__all__ = [
    "four_bar",
    "crank_slider",
    "planar_loop_fig_8_3",
    "ladder",
    "JANSEN_LENGTHS",
    "jansen_points",
    "jansen_leg",
]


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
    n = integer(n, "n", minimum=1)
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


#: Jansen's link lengths (his "holy numbers", in cm): crank ``m``, the fixed pivot ``B`` at
#: ``(-a, -l)`` from the crank's axis ``O``, links ``j``, ``k``, ``c``, ``f``, the upper
#: triangle ``b, d, e`` and the foot triangle ``g, h, i``.
JANSEN_LENGTHS = {
    "a": 38.0, "b": 41.5, "c": 39.3, "d": 40.1, "e": 55.8, "f": 39.4, "g": 36.7,
    "h": 65.7, "i": 49.0, "j": 50.0, "k": 61.9, "l": 7.8, "m": 15.0,
}  # fmt: skip


def _circles(p, r, q, s, side):
    """The point at distances ``r`` from ``p`` and ``s`` from ``q``, left (+1) or right (-1) of
    ``p → q``; NaN where the circles do not meet."""
    d = q - p
    L = np.linalg.norm(d, axis=-1, keepdims=True)
    u = d / L
    x = (r * r - s * s + L * L) / (2.0 * L)
    with np.errstate(invalid="ignore"):
        y = np.sqrt(r * r - x * x)
    n = np.stack([-u[..., 1], u[..., 0]], axis=-1)
    return p + x * u + side * y * n


def _jansen_lengths(lengths, scale) -> dict:
    scale = positive_scalars((scale,), ("scale",))[0]
    given = JANSEN_LENGTHS if lengths is None else lengths
    if not isinstance(given, dict) or set(given) != set(JANSEN_LENGTHS):
        raise ValueError(f"lengths must be a dict with the keys {sorted(JANSEN_LENGTHS)}")
    keys = sorted(given)
    values = positive_scalars([given[k] for k in keys], [f"length {k}" for k in keys])
    return {k: scale * v for k, v in zip(keys, values, strict=True)}


def jansen_points(crank_angle, lengths=None, scale: float = 0.01) -> dict[str, np.ndarray]:
    """The joint positions of Jansen's leg at a crank angle, by intersecting circles.

    The crank turns about ``O = (0, 0)`` and carries the pin ``A``; ``B = (-a, -l)`` is the
    fixed pivot.  Then: the ``top`` pin is ``j`` from ``A`` and ``b`` from ``B`` (upper
    intersection); the ``knee`` is ``k`` from ``A`` and ``c`` from ``B`` (lower one); the
    ``back`` corner of the upper triangle ``b, d, e`` is ``d`` from ``B`` and ``e`` from the
    top, away from the crank; the ``ankle`` is ``f`` from the back corner and ``g`` from the
    knee; the ``foot`` is ``i`` from the knee and ``h`` from the ankle, below them.  This is the
    assembly a Strandbeest runs in; its foot traces a loop with a nearly straight bottom.

    Parameters
    ----------
    crank_angle : float or array_like
        Angle of ``O → A`` from the x axis (rad), any shape.
    lengths : dict, optional
        The thirteen lengths of :data:`JANSEN_LENGTHS` (same keys); those by default.
    scale : float
        Factor from the lengths' unit to metres (default 0.01: the holy numbers are in cm).

    Returns
    -------
    dict of str to ndarray, shape (..., 2)
        ``"O"``, ``"A"``, ``"B"``, ``"top"``, ``"back"``, ``"knee"``, ``"ankle"``, ``"foot"``
        (m, in the x-y plane; gravity acts along -y).  NaN where the leg cannot be assembled.

    Raises
    ------
    ValueError
        If ``crank_angle`` is not finite, or ``lengths`` or ``scale`` is invalid.
    """
    L = _jansen_lengths(lengths, scale)
    theta = as_scalar_array(crank_angle, "crank_angle")[..., None]
    O = np.zeros(theta.shape[:-1] + (2,))
    B = O + np.array([-L["a"], -L["l"]])
    A = L["m"] * np.concatenate([np.cos(theta), np.sin(theta)], axis=-1)
    top = _circles(A, L["j"], B, L["b"], -1)
    knee = _circles(A, L["k"], B, L["c"], +1)
    back = _circles(B, L["d"], top, L["e"], +1)
    ankle = _circles(back, L["f"], knee, L["g"], -1)
    foot = _circles(ankle, L["h"], knee, L["i"], -1)
    return {"O": O, "A": A, "B": B, "top": top, "back": back, "knee": knee, "ankle": ankle,
            "foot": foot}  # fmt: skip


def _planar_pose(origin, towards):
    """Angle and origin of a body frame at ``origin`` whose x axis points at ``towards``."""
    d = towards - origin
    return float(np.arctan2(d[1], d[0])), origin


def _local(pose, point) -> np.ndarray:
    """``point`` (world, 2D) in the coordinates of the planar frame ``pose`` (3D vector)."""
    angle, origin = pose
    c, s = np.cos(angle), np.sin(angle)
    d = point - origin
    return np.array([c * d[0] + s * d[1], -s * d[0] + c * d[1], 0.0])


def jansen_leg(
    crank_angle: float = 0.0,
    lengths=None,
    scale: float = 0.01,
    density: float = 2.0,
    g: float = 9.81,
) -> Model:
    """Theo Jansen's walking leg (the Strandbeest): seven links, three loops, one DoF.

    Spanning tree (every joint a revolute about z): the ``crank`` (body 1) turns about ``O``;
    links ``j`` (body 2) and ``k`` (body 3) hang from the crank pin ``A``; the upper
    ``triangle`` ``b, d, e`` (body 4) and link ``c`` (body 5) turn about the fixed pivot ``B``;
    link ``f`` (body 6) hangs from the triangle's back corner; the ``foot`` triangle
    ``g, h, i`` (body 7) hangs from the end of link ``k`` at the knee.  Three revolute loop
    joints close the loops: ``j``'s end on the triangle's top corner ("top pin"), ``c``'s end
    on ``k``'s end at the knee ("knee pin") and ``f``'s end on the foot's ankle corner ("ankle
    pin").  Ten pins on seven links give mobility ``3·7 - 2·10 = 1`` (Grübler).

    Every body frame sits at its tree pin with its x axis along its first side (a link: along
    the link; the triangle: towards the top; the foot: towards the ankle); links are uniform
    rods and triangles three rods, all of ``density`` kg per metre.  The tree's frames are
    placed so that ``q = 0`` is the closed assembly of :func:`jansen_points` at
    ``crank_angle``; other closed configurations come from
    :func:`spatial.dynamics.loops.newton_closure` with the crank angle (velocity variable 0)
    independent.  Gravity ``-g`` along y.

    Parameters
    ----------
    crank_angle : float
        Crank angle (rad) of the assembly at ``q = 0``.
    lengths : dict, optional
        As :func:`jansen_points` (default :data:`JANSEN_LENGTHS`).
    scale : float
        Factor from the lengths' unit to metres (default 0.01: cm).
    density : float
        Mass per length of every rod (kg/m), > 0.
    g : float

    Returns
    -------
    Model
        ``NB = 7``, ``NL = 3``, ``nv = 7`` (crank angle first).

    Raises
    ------
    ValueError
        If an argument is invalid or the leg cannot be assembled at ``crank_angle``.
    """
    rho = positive_scalars((density,), ("density",))[0]
    P = jansen_points(crank_angle, lengths, scale)
    if any(np.isnan(v).any() for v in P.values()):
        raise ValueError(f"the leg cannot be assembled at crank_angle = {crank_angle!r}")
    poses = {
        "crank": _planar_pose(P["O"], P["A"]),
        "j": _planar_pose(P["A"], P["top"]),
        "k": _planar_pose(P["A"], P["knee"]),
        "triangle": _planar_pose(P["B"], P["top"]),
        "c": _planar_pose(P["B"], P["knee"]),
        "f": _planar_pose(P["back"], P["ankle"]),
        "foot": _planar_pose(P["knee"], P["ankle"]),
    }
    world = (0.0, np.zeros(2))
    tree = [  # name, parent, pin, inertia corners (world points, closed polygon for triangles)
        ("crank", None, "O", ("O", "A")),
        ("j", "crank", "A", ("A", "top")),
        ("k", "crank", "A", ("A", "knee")),
        ("triangle", None, "B", ("B", "top", "back", "B")),
        ("c", None, "B", ("B", "knee")),
        ("f", "triangle", "back", ("back", "ankle")),
        ("foot", "k", "knee", ("knee", "ankle", "foot", "knee")),
    ]
    model = Model(gravity=[0.0, -g, 0.0])
    for name, parent, pin, corners in tree:
        pose, parent_pose = poses[name], poses[parent] if parent else world
        X_tree = rotz(pose[0] - parent_pose[0]) @ xlt(_local(parent_pose, P[pin]))
        inertia = sum(
            _bar(rho * np.linalg.norm(P[b] - P[a]), _local(pose, P[a]), _local(pose, P[b]))
            for a, b in zip(corners[:-1], corners[1:], strict=True)
        )
        model.add_body(model.body(parent) if parent else 0, J.Revolute("z"), X_tree, inertia,
                       name=name)  # fmt: skip
    for pred, succ, point, name in (
        ("j", "triangle", "top", "top pin"),
        ("c", "k", "knee", "knee pin"),
        ("f", "foot", "ankle", "ankle pin"),
    ):
        X_p = xlt(_local(poses[pred], P[point]))
        X_s = xlt(_local(poses[succ], P[point]))
        model.add_loop_joint(model.body(pred), model.body(succ), J.Revolute("z"), X_p, X_s, name)
    return model
