"""Connectivity graphs of kinematic trees (Featherstone §4.1, Figs. 4.1–4.6, Table 6.4).

Nodes are bodies (the fixed base 0 at the bottom, drawn dark), arcs are joints labelled with
their number and type, and an arrowhead on each arc shows the joint's polarity: it points
from predecessor to successor, i.e. away from the base for a forward joint and towards it for
a :class:`~spatial.joints.Reversed` one (§4.1.3).  Loop joints (chords of the spanning tree,
§4.1.1) are dashed curves, numbered ``N_B + 1 …`` as in §4.1.2.  With ``expanded=True`` the
expanded graph of
Table 6.4 is drawn instead: every multi-DoF joint becomes a chain of single-DoF arcs, one per
velocity variable, numbered like the entries of ``q̇`` (loop joints are left out).
"""

from __future__ import annotations

import numpy as np

from .. import joints as J
from ..model import Model

__all__ = ["draw_connectivity", "joint_label"]

_SHORT = {
    J.Revolute: "R",
    J.Prismatic: "P",
    J.Helical: "H",
    J.Cylindrical: "C",
    J.Planar: "planar",
    J.SphericalYPR: "S(ypr)",
    J.Spherical: "S",
    J.Free: "6-DoF",
    J.Fixed: "fixed",
    J.RackPinion: "rack",
}


def joint_label(joint: J.Joint) -> str:
    """Short name of a joint type: ``"R"``, ``"Pz"``, ``"S"``, ``"6-DoF"`` … (Table 4.1).

    Revolute and prismatic joints about a coordinate axis get the axis letter (``"Rz"``);
    a reversed joint is labelled like the joint it wraps (its arrow shows the reversal).
    """
    if isinstance(joint, J.Reversed):
        return joint_label(joint.joint)
    name = _SHORT.get(type(joint), type(joint).__name__)
    axis = getattr(joint, "axis", None)
    if isinstance(joint, (J.Revolute, J.Prismatic)) and axis is not None:
        for letter, e in zip("xyz", np.eye(3), strict=True):
            if np.allclose(axis, e):
                return name + letter
    return name


def _layout(parent: list[int], spacing: float = 1.0) -> dict[int, tuple[float, float]]:
    """Tidy tree layout: leaves ``spacing`` apart in depth-first order, parents centred above.

    ``parent[0] = -1`` is the root (drawn at the bottom, y = 0); ``y`` is the depth.
    """
    n = len(parent)
    children = [[] for _ in range(n)]
    for i in range(1, n):
        children[parent[i]].append(i)
    depth = [0] * n
    for i in range(1, n):  # regular numbering: parents first
        depth[i] = depth[parent[i]] + 1
    x = [0.0] * n
    leaf, stack = 0, [0]
    while stack:  # depth-first, children left to right
        i = stack.pop()
        if not children[i]:
            x[i], leaf = spacing * leaf, leaf + 1
        stack.extend(reversed(children[i]))
    for i in range(n - 1, -1, -1):  # children have larger numbers
        if children[i]:
            x[i] = float(np.mean([x[c] for c in children[i]]))
    return {i: (x[i], float(depth[i])) for i in range(n)}


def draw_connectivity(
    ax,
    model: Model,
    expanded: bool = False,
    names: bool = False,
    title: str | None = None,
    node_size: float = 22.0,
    fontsize: float = 9.0,
) -> dict[int, tuple[float, float]]:
    """Draw a model's connectivity graph (or the expanded graph of Table 6.4) on ``ax``.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    model : Model
    expanded : bool
        Draw the expanded graph: nodes ``0 … nv`` and arc ``k`` for velocity variable ``k``
        (1-based as in the book), labelled with the joint it came from; joints without
        degrees of freedom disappear.
    names : bool
        Write each body's name next to its node (connectivity graph only).
    title : str, optional
        Axes title; a default names the graph and its parent array.
    node_size : float
        Node diameter in points.
    fontsize : float

    Returns
    -------
    dict
        Node number → ``(x, y)`` data coordinates of the node.

    Raises
    ------
    ValueError
        If ``model`` is not a :class:`~spatial.model.Model`.
    """
    if not isinstance(model, Model):
        raise ValueError(f"model must be a spatial.Model, got {type(model).__name__}")
    if expanded:
        parent = [-1] + [int(p) + 1 for p in model.expanded_parent()]
        owner = [0] + [i for i in range(1, model.NB + 1) for _ in range(model.joints[i].nv)]
        arcs = [(parent[k], k, f"{k} (J{owner[k]})", "tree") for k in range(1, len(parent))]
        node_names = {}
        default = f"expanded graph (Table 6.4)\nλ' = {tuple(parent[1:])}"
    else:
        parent = list(model.parent)
        arcs = [
            (parent[i], i, f"{i}: {joint_label(model.joints[i])}", "tree")
            if not isinstance(model.joints[i], J.Reversed)
            else (i, parent[i], f"{i}: {joint_label(model.joints[i])}", "reversed")
            for i in range(1, model.NB + 1)
        ]
        arcs += [
            (lj.predecessor, lj.successor, f"{model.NB + 1 + l}: {joint_label(lj.joint)}", "chord")
            for l, lj in enumerate(model.loop_joints)
        ]
        node_names = {i: model.names[i] for i in range(1, model.NB + 1)} if names else {}
        default = f"connectivity graph\nλ = {tuple(parent[1:])}"
    pos = _layout(parent, spacing=2.0 if node_names else 1.0)

    colors = {"tree": "0.35", "reversed": "tab:red", "chord": "tab:blue"}
    arrow = {"arrowstyle": "-|>", "lw": 1.4, "mutation_scale": 12, "shrinkB": node_size / 2}
    extent = list(pos.values())
    for tail_node, head_node, label, kind in arcs:  # arrows from predecessor to successor
        (x0, y0), (x1, y1) = pos[tail_node], pos[head_node]
        start = (x0, y0)
        if kind == "chord":  # a dashed quadratic Bézier bulging to the right of tail → head
            control = np.array([x0 + x1 + 0.7 * (y1 - y0), y0 + y1 - 0.7 * (x1 - x0)]) / 2
            t = np.linspace(0.0, 0.9, 30)[:, None]
            curve = (1 - t) ** 2 * np.array([x0, y0]) + 2 * (1 - t) * t * control
            curve += t**2 * np.array([x1, y1])
            ax.plot(*curve.T, ls="--", lw=1.4, color=colors[kind], zorder=1)
            start = tuple(curve[-1])
            mid = 0.25 * np.array([x0 + x1, y0 + y1]) + 0.5 * control
            where = {"x": mid[0], "y": mid[1], "ha": "center"}
            extent.append(tuple(mid))
        elif abs(x1 - x0) < 1e-9:  # beside a vertical arc
            where = {"x": x0 + 0.08, "y": 0.5 * (y0 + y1), "ha": "left"}
        else:  # on a slanted arc, nearer the outer end where fanned-out arcs are further apart
            (xi, yi), (xo, yo) = sorted([(x0, y0), (x1, y1)], key=lambda point: point[1])
            where = {"x": 0.35 * xi + 0.65 * xo, "y": 0.35 * yi + 0.65 * yo, "ha": "center"}
        ax.annotate(
            "",
            xy=(x1, y1),
            xytext=start,
            arrowprops=arrow
            | {"color": colors[kind], "shrinkA": 0 if start != (x0, y0) else node_size / 2},
            zorder=1,
        )
        ax.text(
            s=label,
            fontsize=fontsize - 1,
            va="center",
            color="0.15" if kind == "tree" else colors[kind],
            bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.9},
            zorder=2,
            **where,
        )
    for i, (x, y) in pos.items():
        base = i == 0
        ax.plot(
            x,
            y,
            "o",
            ms=node_size,
            mfc="0.15" if base else "white",
            mec="0.15",
            mew=1.5,
            zorder=3,
        )
        ax.text(
            x,
            y,
            str(i),
            fontsize=fontsize,
            ha="center",
            va="center",
            color="white" if base else "black",
            fontweight="bold",
            zorder=4,
        )
        if i in node_names:
            ax.text(x + 0.3, y, node_names[i], fontsize=fontsize - 2, ha="left", va="center")
    xs = [p[0] for p in extent]
    ys = [p[1] for p in extent]
    ax.set_xlim(min(xs) - 0.6, max(xs) + (1.8 if node_names else 0.6))
    ax.set_ylim(min(ys) - 0.6, max(ys) + 0.6)
    ax.set_axis_off()
    ax.set_title(default if title is None else title, fontsize=fontsize + 1)
    return pos
