"""Closed-loop mechanisms: a spanning tree plus loop joints (Featherstone ch. 8, §4.1–4.2).

A mechanism with kinematic loops is modelled as a spanning tree, whose joints carry the
variables ``q``, plus one loop joint per loop, which adds constraints and no variables
(§4.1–4.2, §8.1).  The builders here give the classic planar linkages and one spatial family:

* :func:`four_bar` — crank, coupler and rocker (a Grashof crank-rocker by default);
* :func:`crank_slider` — Featherstone Figure 4.1, the slider on a prismatic joint;
* :func:`planar_loop_fig_8_3` — Figure 8.3, an arm with a linear actuator (mobility 2);
* :func:`ladder` — the connectivity of Figure 8.4: ``n`` loops of ball joints sharing joints
  with their neighbours, the test case of the sparse matrix method (§8.9, §8.13).

Closed configurations come from the closure functions of :mod:`spatial.dynamics.loops`.
"""

from __future__ import annotations

import numpy as np

from .. import joints as J
from .._validate import as_scalar_array, integer, positive_scalars
from ..inertia import cuboid_inertia
from ..model import Model
from ..vectors import xlt
from .parts import _bar, _rod

__all__ = ["four_bar", "crank_slider", "planar_loop_fig_8_3", "ladder"]


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
