"""Drawings and animations of closed-chain linkages: every body as the outline of its pins.

The stick figures of :mod:`spatial.viz.models` follow the spanning tree, so a link that only
closes a loop shows as half a link and the loop joints are not drawn at all.  A linkage is
drawn instead body by body: each body is the polygon through its *pins*, the points where it
meets another body or the ground (its own joint, its children's joints, the ends of the loop
joints on it, Featherstone §4.2), plus any marker points given (a foot, a coupler point).
Two pins make a bar, three or more a plate; a body whose pins all coincide (a slider on its own
pin) is drawn as a block.  The pins on the fixed base are drawn as ground pivots.

The geometry comes from body poses (``T_world,b`` of bodies ``1 … NB``, row ``b - 1``), so
the same drawing serves every formulation: ``system.poses(state)`` of a tree, a REDMAX system
or a maximal-coordinate system of the same model.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..model import Model
from ..vectors import unplux
from .player import animation_html

__all__ = ["LinkageOutline", "linkage_outline", "draw_linkage", "animate_linkage"]

_PLANES = {"xy": (0, 1), "xz": (0, 2), "yz": (1, 2)}
_SAME = 1e-9  # pins closer than this (m) are one pin


@dataclass(frozen=True)
class LinkageOutline:
    """World positions of a linkage drawing (see :func:`linkage_outline`).

    Attributes
    ----------
    links : ndarray, shape (..., K, 3)
        Every body's outline as one polyline, bodies separated by NaN rows.
    pins : ndarray, shape (..., P, 3)
        The joints: each body's own joint and the successor end of each loop joint.
    blocks : ndarray, shape (..., B, 3)
        Bodies whose pins all coincide (drawn as a block at that point).
    ground : ndarray, shape (G, 3)
        The pins on the fixed base.
    markers : ndarray, shape (..., M, 3)
        The marker points, in the order given.
    """

    links: np.ndarray
    pins: np.ndarray
    blocks: np.ndarray
    ground: np.ndarray
    markers: np.ndarray


def _check_markers(model: Model, markers) -> list[tuple[int, np.ndarray]]:
    out = []
    for item in markers:
        try:
            body, point = item
            point = np.asarray(point, dtype=float)
        except (TypeError, ValueError):
            raise ValueError(f"a marker is a pair (body, point), got {item!r}") from None
        if isinstance(body, bool) or not isinstance(body, int | np.integer):
            raise ValueError(f"a marker's body must be an int 1 … {model.NB}, got {body!r}")
        if not 1 <= body <= model.NB or point.shape != (3,) or not np.all(np.isfinite(point)):
            raise ValueError(
                f"a marker is (body 1 … {model.NB}, a finite 3-vector in its coordinates), "
                f"got {item!r}"
            )
        out.append((int(body), point))
    return out


def _distinct(points: list[np.ndarray]) -> np.ndarray:
    """The points without repeats (closer than ``_SAME``), shape (k, 3)."""
    distinct: list[np.ndarray] = []
    for p in points:
        if all(np.linalg.norm(p - d) > _SAME for d in distinct):
            distinct.append(p)
    return np.array(distinct).reshape(-1, 3)


def _ordered(points: list[np.ndarray]) -> np.ndarray:
    """Distinct points in drawing order: along the line if collinear, else around the centre
    (a closed polygon)."""
    P = _distinct(points)
    if len(P) < 3:
        return P
    centred = P - P.mean(0)
    _, s, Vt = np.linalg.svd(centred)
    if s[1] <= 1e-9 * s[0]:  # on one line: from one end to the other
        return P[np.argsort(centred @ Vt[0])]
    angles = np.arctan2(centred @ Vt[1], centred @ Vt[0])
    order = np.argsort(angles)
    return np.concatenate([P[order], P[order[:1]]])  # closed polygon


def _body_points(model: Model, markers) -> tuple[list[np.ndarray], np.ndarray, list]:
    """Per body its pins (and markers) in body coordinates, and the ground pins (world)."""
    pins: dict[int, list[np.ndarray]] = {b: [np.zeros(3)] for b in range(model.NB + 1)}
    for i in range(1, model.NB + 1):
        pins[model.parent[i]].append(unplux(model.X_tree[i])[1])
    loop_pins = []
    for loop in model.loop_joints:
        for body, X in ((loop.predecessor, loop.X_p), (loop.successor, loop.X_s)):
            pins[body].append(unplux(X)[1])
        loop_pins.append((loop.successor, unplux(loop.X_s)[1]))
    for body, point in markers:
        pins[body].append(point)
    ground = _distinct(pins[0][1:])
    return [_ordered(pins[b]) for b in range(1, model.NB + 1)], ground, loop_pins


def _to_world(T: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Points (k, 3) of a body with poses ``T (..., 4, 4)`` in world coordinates (..., k, 3)."""
    return np.einsum("...ij,kj->...ki", T[..., :3, :3], points) + T[..., None, :3, 3]


def linkage_outline(model: Model, poses, markers=()) -> LinkageOutline:
    """The drawing of a linkage at body poses: outlines, pins, blocks, ground pivots, markers.

    Parameters
    ----------
    model : Model
        A tree with or without loop joints.
    poses : array_like, shape (..., NB, 4, 4)
        World frames of bodies ``1 … NB`` (row ``b - 1``), e.g. ``system.poses(q)``.
    markers : sequence of (int, array_like (3,))
        Points ``(body, point in body coordinates)`` to mark; they also join their body's
        outline.

    Returns
    -------
    LinkageOutline

    Raises
    ------
    ValueError
        If ``model`` is not a Model, ``poses`` is not shaped ``(..., NB, 4, 4)`` or a marker
        is invalid.
    """
    if not isinstance(model, Model):
        raise ValueError(f"model must be a spatial.Model, got {model!r}")
    T = np.asarray(poses, dtype=float)
    if T.ndim < 3 or T.shape[-3:] != (model.NB, 4, 4):
        raise ValueError(f"poses must have shape (..., NB={model.NB}, 4, 4), got {T.shape}")
    marks = _check_markers(model, markers)
    shapes, ground, loop_pins = _body_points(model, marks)
    batch = T.shape[:-3]
    gap = np.full(batch + (1, 3), np.nan)
    links, blocks = [], []
    for b, shape in enumerate(shapes, start=1):
        world = _to_world(T[..., b - 1, :, :], shape)
        if len(shape) == 1:
            blocks.append(world)
        else:
            links += [world, gap]
    pins = [T[..., :, None, :3, 3].reshape(batch + (model.NB, 3))]
    pins += [_to_world(T[..., s - 1, :, :], p[None]) for s, p in loop_pins]
    marked = [_to_world(T[..., b - 1, :, :], p[None]) for b, p in marks]
    empty = np.zeros(batch + (0, 3))
    return LinkageOutline(
        links=np.concatenate(links, -2) if links else empty,
        pins=np.concatenate(pins, -2),
        blocks=np.concatenate(blocks, -2) if blocks else empty,
        ground=ground,
        markers=np.concatenate(marked, -2) if marked else empty,
    )


def _xy(points: np.ndarray, plane: str) -> tuple[np.ndarray, np.ndarray]:
    i, j = _PLANES[plane]
    return points[..., i], points[..., j]


def draw_linkage(
    ax,
    model: Model,
    poses,
    *,
    markers=(),
    plane: str = "xy",
    color: str = "C0",
    alpha: float = 1.0,
    lw: float = 2.5,
    label: str | None = None,
) -> list:
    """Draw a linkage at one set of body poses on 2D axes (:func:`linkage_outline`).

    Parameters
    ----------
    ax : matplotlib Axes
    model : Model
    poses : array_like, shape (NB, 4, 4)
    markers : sequence of (int, array_like (3,))
        Marked points (drawn as stars).
    plane : {"xy", "xz", "yz"}
        World plane of the drawing.
    color, alpha, lw :
        Matplotlib colour, opacity and line width of the bodies.
    label : str, optional
        Legend label of the bodies.

    Returns
    -------
    list of matplotlib artists
        ``[links, pins, blocks, ground, markers]`` (update them with ``set_data``).

    Raises
    ------
    ValueError
        As :func:`linkage_outline`, or if ``plane`` is unknown or ``poses`` is a batch.
    """
    if plane not in _PLANES:
        raise ValueError(f"plane must be one of {sorted(_PLANES)}, got {plane!r}")
    if np.ndim(poses) != 3:
        raise ValueError(f"draw_linkage draws one set of poses (NB, 4, 4), got {np.shape(poses)}")
    out = linkage_outline(model, poses, markers)
    style = dict(color=color, alpha=alpha, ls="")
    (links,) = ax.plot(*_xy(out.links, plane), color=color, alpha=alpha, lw=lw, label=label)
    (pins,) = ax.plot(*_xy(out.pins, plane), "o", ms=1.8 * lw, mfc="white", mew=1.2, **style)
    (blocks,) = ax.plot(*_xy(out.blocks, plane), "s", ms=5 * lw, mfc=color, **style)
    (ground,) = ax.plot(*_xy(out.ground, plane), "^", ms=4 * lw, color="k", alpha=alpha, ls="")
    (marks,) = ax.plot(*_xy(out.markers, plane), "*", ms=5 * lw, color="C3", alpha=alpha, ls="")
    return [links, pins, blocks, ground, marks]


def animate_linkage(
    model: Model,
    poses,
    *,
    labels=None,
    markers=(),
    times=None,
    plane: str = "xy",
    max_frames: int = 60,
    interval: int = 80,
    figsize: tuple = (5.0, 5.0),
    title: str = "",
    trace: bool = True,
):
    """Animate one or several motions of a linkage together, as an offline HTML player.

    Parameters
    ----------
    model : Model
    poses : array_like, shape (T, NB, 4, 4), or a list of them (same T)
        Body poses over time; several motions (e.g. of three formulations) are overlaid in
        colours C0, C1, … with their ``labels`` in a legend.
    labels : sequence of str, optional
        One per motion.
    markers : sequence of (int, array_like (3,))
        Marked points; with ``trace`` the first one leaves a trail (of the first motion).
    times : array_like, shape (T,), optional
        Shown in the title.
    plane : {"xy", "xz", "yz"}
    max_frames, interval, figsize, title :
        As :func:`spatial.viz.animate`.
    trace : bool
        Draw the path of the first marker.

    Returns
    -------
    IPython.display.HTML
        The player (:func:`~spatial.viz.animation_html`); the figure is closed.

    Raises
    ------
    ValueError
        If the motions do not have the same number of frames, ``labels`` or ``times`` has
        the wrong length, ``plane`` is unknown or ``max_frames < 1``; or as
        :func:`linkage_outline`.
    """
    import matplotlib.pyplot as plt
    from matplotlib.animation import FuncAnimation

    many = isinstance(poses, list | tuple)
    motions = [np.asarray(m, dtype=float) for m in (poses if many else [poses])]
    frames_n = {m.shape[0] if m.ndim == 4 else -1 for m in motions}
    if len(frames_n) != 1 or -1 in frames_n:
        raise ValueError("poses must be (T, NB, 4, 4), or motions of the same T frames")
    (n,) = frames_n
    if labels is not None and len(labels) != len(motions):
        raise ValueError(f"labels must give one label per motion ({len(motions)})")
    if times is not None and np.shape(times) != (n,):
        raise ValueError(f"times must have shape ({n},), got {np.shape(times)}")
    if plane not in _PLANES or max_frames < 1:
        raise ValueError(f"plane must be one of {sorted(_PLANES)} and max_frames ≥ 1")
    outlines = [linkage_outline(model, m, markers) for m in motions]
    frames = np.unique(np.linspace(0, n - 1, min(max_frames, n)).round().astype(int))

    fig, ax = plt.subplots(figsize=figsize, dpi=70)
    everything = np.concatenate(
        [np.concatenate([o.links, o.pins, o.markers], -2).reshape(-1, 3) for o in outlines]
    )
    i, j = _PLANES[plane]
    lo, hi = np.nanmin(everything, 0), np.nanmax(everything, 0)
    centre, half = (lo + hi) / 2, 0.55 * (hi - lo)[[i, j]].max() + 1e-9
    ax.set_xlim(centre[i] - half, centre[i] + half)
    ax.set_ylim(centre[j] - half, centre[j] + half)
    ax.set_aspect("equal")
    ax.set_xlabel(f"{'xyz'[i]} (m)")
    ax.set_ylabel(f"{'xyz'[j]} (m)")
    drawn = []
    for k, m in enumerate(motions):
        label = None if labels is None else labels[k]
        drawn.append(
            draw_linkage(
                ax, model, m[frames[0]], markers=markers, plane=plane, color=f"C{k}",
                alpha=1.0 if k == 0 else 0.7, lw=2.5 - 0.5 * min(k, 2), label=label,
            )
        )  # fmt: skip
    trail = None
    if trace and markers:
        (trail,) = ax.plot([], [], "C3-", lw=1, label="path of the marker")
    if labels is not None or trail is not None:
        ax.legend(loc="upper right", fontsize=8)

    def show(f: int):
        t = frames[f]
        for artists, out in zip(drawn, outlines, strict=True):
            parts = (out.links[t], out.pins[t], out.blocks[t], out.ground, out.markers[t])
            for artist, points in zip(artists, parts, strict=True):
                artist.set_data(*_xy(points, plane))
        if trail is not None:
            trail.set_data(*_xy(outlines[0].markers[: t + 1, 0], plane))
        stamp = "" if times is None else f"  t = {float(np.asarray(times)[t]):.2f} s"
        ax.set_title(f"{title}{stamp}".strip())
        return [a for artists in drawn for a in artists] + ([trail] if trail else [])

    animation = FuncAnimation(fig, show, frames=len(frames), interval=interval)
    html = animation_html(animation)
    plt.close(fig)
    return html
