"""Branches of a kinematic tree, drawn in colour: the mechanism and the pattern of its ``H``.

Featherstone §6.4: ``H_ij`` is zero whenever joints ``i`` and ``j`` lie on different branches
(neither supports the other).  To let a reader see that, a tree is split into its **trunk** and
its **branches**: the trunk runs from the base to the first body that has more than one child
(the whole tree, for a chain); each child subtree of that body is a branch.  The stick figure is
drawn with each branch in its own colour (:func:`draw_branches`) and the non-zero entries of
``H`` in the colour of the branch their two variables share, dark grey where one variable is on
the trunk (:func:`draw_sparsity`): the blocks that pair two different branches stay white.
"""

from __future__ import annotations

import numpy as np

from .._validate import as_array, positive_scalar, square_matrix
from ..model import Model
from .models import _check_plane, _coords, _polyline, skeleton

__all__ = [
    "TRUNK_COLOR",
    "branch_colors",
    "branches",
    "draw_branches",
    "draw_sparsity",
    "spread_configuration",
]

#: Colour of the trunk (and of the entries of ``H`` that involve it).
TRUNK_COLOR = "0.25"
_BRANCH_COLORS = ("C0", "C1", "C2", "C3", "C4", "C5", "C6", "C8", "C9")


def _check_model(model) -> Model:
    if not isinstance(model, Model):
        raise ValueError(f"model must be a spatial.Model, got {type(model).__name__}")
    return model


def branches(model: Model) -> np.ndarray:
    """The branch of every body: 0 for the base and the trunk, ``1, 2, …`` for the branches.

    The trunk is the path from the base to the first body with more than one child (found by
    walking from the base while there is exactly one child); the subtrees of that body's
    children are branches ``1, 2, …`` in the order of their numbers.  A chain is all trunk.

    Parameters
    ----------
    model : Model

    Returns
    -------
    ndarray of int, shape (NB + 1,)
        Row ``i`` is body ``i``'s branch (row 0 is the base).

    Raises
    ------
    ValueError
        If ``model`` is not a :class:`~spatial.model.Model`.
    """
    model = _check_model(model)
    label = np.zeros(model.NB + 1, dtype=int)
    body = 0
    while len(model.children(body)) == 1:
        body = model.children(body)[0]
    for k, child in enumerate(model.children(body), start=1):  # several on the base: no trunk
        label[model.subtree(child)] = k
    return label


def branch_colors(model: Model) -> list[str]:
    """Matplotlib colour of each body's branch (:data:`TRUNK_COLOR` for the trunk).

    Raises
    ------
    ValueError
        If ``model`` is not a :class:`~spatial.model.Model`.
    """
    return [
        TRUNK_COLOR if b == 0 else _BRANCH_COLORS[(b - 1) % len(_BRANCH_COLORS)]
        for b in branches(model)
    ]


def spread_configuration(
    model: Model, spread: float = 0.6, bend: float = 0.15, root: float = 0.0
) -> np.ndarray:
    """A configuration that fans the children of every body apart, for drawing a tree.

    For a tree of one-variable joints (e.g. :func:`~spatial.builders.branched_tree`): the
    ``m`` children of a body get the angles ``(k - (m - 1)/2) · spread``, ``k = 0 … m-1``, an
    only child gets ``bend`` (so a chain curls a little instead of overlapping itself), and
    the bodies on the base get ``root``.

    Parameters
    ----------
    model : Model
        Every joint has exactly one position variable.
    spread, bend, root : float
        Angles (rad).

    Returns
    -------
    ndarray, shape (nq,)

    Raises
    ------
    ValueError
        If ``model`` is not a Model or a joint has other than one position variable.
    """
    model = _check_model(model)
    q = model.neutral_configuration()
    for parent in range(model.NB + 1):
        kids = model.children(parent)
        for k, child in enumerate(kids):
            if model.joints[child].nq != 1:
                raise ValueError(
                    f"spread_configuration needs one-variable joints; joint {child} has "
                    f"{model.joints[child].nq} position variables"
                )
            angle = (k - (len(kids) - 1) / 2) * spread if len(kids) > 1 else bend
            q[model.q_index[child]] = root if parent == 0 else angle
    return q


def draw_branches(ax, model: Model, q, *, plane: str = "xy", lw: float = 2.5) -> list:
    """Draw a tree as a stick figure with each branch in its own colour.

    The figure is :func:`~spatial.viz.skeleton`'s: links from each joint to the joints of its
    children (or, for a leaf, to its centre of mass), open circles at the joints and dots at
    the centres of mass.  A link is coloured by the branch of the body it belongs to; each
    colour is drawn as one polyline and two marker sets (a few artists, quick to render).

    Parameters
    ----------
    ax : matplotlib Axes or Axes3D
        On 3D axes the figure is drawn in 3D; on 2D axes it is projected onto ``plane``.
    model : Model
    q : array_like, shape (nq,)
        One configuration.
    plane : {"xy", "xz", "yz"}
    lw : float
        Line width of the links.

    Returns
    -------
    list of matplotlib artists

    Raises
    ------
    ValueError
        If ``model`` is not a Model, ``q`` is not one valid configuration or ``plane`` is
        unknown.
    """
    model = _check_model(model)
    _check_plane(plane)
    q = as_array(q, "q", (model.nq,))
    if q.ndim != 1:
        raise ValueError(f"q must be one configuration of shape ({model.nq},), got {q.shape}")
    sk = skeleton(model, q)
    colors = branch_colors(model)
    # skeleton's segments: NB (attachment -> joint i), then for each body i in order one
    # segment to each child's attachment, or one to its centre of mass if it is a leaf
    owners = list(range(1, model.NB + 1))
    owners += [i for i in range(1, model.NB + 1) for _ in range(max(1, len(model.children(i))))]
    owners = np.array(owners)
    bodies = np.arange(model.NB + 1)
    artists = []
    for color in dict.fromkeys(colors[1:]):  # one artist per colour, drawn quickly
        mine = np.array([colors[i] == color for i in range(model.NB + 1)])
        links = _polyline(sk.segments[mine[owners]])
        artists += ax.plot(*_coords(ax, links, plane), color=color, lw=lw, solid_capstyle="round")
        style = dict(color=color, ls="")
        joints = sk.joints[bodies[mine]]
        artists += ax.plot(*_coords(ax, joints, plane), "o", ms=2 * lw, mfc="white", **style)
        artists += ax.plot(*_coords(ax, sk.coms[bodies[mine]], plane), "o", ms=6, **style)
    return artists


def draw_sparsity(ax, model: Model, H, *, tol: float = 1e-12, title: str | None = None):
    """Draw the non-zero pattern of a joint-space matrix, coloured by branch (§6.4).

    Entry ``(i, j)`` of ``H`` (velocity variables, numbered from 1 on the axes as in the book)
    is drawn in its branch's colour when both variables belong to joints of the same branch,
    in :data:`TRUNK_COLOR` when one of them is on the trunk, and left white when it is zero
    (``|H_ij| <= tol · max |H|``).

    Parameters
    ----------
    ax : matplotlib Axes
    model : Model
    H : array_like, shape (nv, nv)
        E.g. ``sp.crba(model, q)`` or a factor of it.
    tol : float
        Relative size below which an entry counts as zero, > 0.
    title : str, optional
        Axes title; by default the size and the density of the pattern.

    Returns
    -------
    matplotlib.image.AxesImage

    Raises
    ------
    ValueError
        If ``model`` is not a Model, ``H`` is not a finite (nv, nv) matrix or ``tol`` is not
        positive.
    """
    import matplotlib.colors as mcolors
    from matplotlib.ticker import MaxNLocator

    model = _check_model(model)
    H = square_matrix(H, "H")
    n = model.nv
    if H.shape != (n, n):
        raise ValueError(f"H must have shape ({n}, {n}) (nv x nv), got {H.shape}")
    tol = positive_scalar(tol, "tol")
    label = branches(model)
    variable = np.zeros(n, dtype=int)
    for i in range(1, model.NB + 1):
        variable[model.v_index[i]] = label[i]
    colors = branch_colors(model)
    palette = {b: mcolors.to_rgb(colors[np.flatnonzero(label == b)[0]]) for b in set(label)}
    palette[0] = mcolors.to_rgb(TRUNK_COLOR)
    nonzero = np.abs(H) > tol * max(np.abs(H).max(), np.finfo(float).tiny)
    image = np.ones((n, n, 3))
    for i, j in zip(*np.nonzero(nonzero), strict=True):
        same = variable[i] if variable[i] == variable[j] else 0
        image[i, j] = palette[same if variable[i] and variable[j] else 0]
    shown = ax.imshow(image, extent=(0.5, n + 0.5, n + 0.5, 0.5), interpolation="nearest")
    ax.grid(False)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set(xlabel="variable j", ylabel="variable i")
    density = nonzero.sum() / nonzero.size
    ax.set_title(f"non-zeros ({n}x{n}), density {density:.2f}" if title is None else title)
    return shown
