"""Drawings of bodies joined by springs: coils, boxes, frames, and an animation of boxes.

The maximal-coordinate systems of notebook 13 are free bodies with their own 4x4 frames
``T = [[R, p], [0, 1]]`` joined by forces, not trees, so :func:`spatial.viz.draw_model` does not
apply.  These helpers draw them in a plane of the world (``"xy"``, ``"xz"`` or ``"yz"``):

* :func:`coil` / :func:`draw_spring` — a zig-zag spring between two points;
* :func:`box_outline` / :func:`draw_box` — the outline of a box with frame ``T`` seen along the
  plane's normal (the convex hull of its eight corners);
* :func:`draw_axes` — a frame's x and y (or the plane's) axes as short arrows;
* :func:`animate_boxes` — boxes moving over time, one panel per run, as an offline HTML player.
"""

from __future__ import annotations

import numpy as np

from .._validate import as_float_array, positive_scalar
from .player import animation_html, frame_indices

__all__ = ["coil", "draw_spring", "box_outline", "draw_box", "draw_axes", "animate_boxes"]

_PLANES = {"xy": (0, 1), "xz": (0, 2), "yz": (1, 2)}


def _plane(plane: str) -> tuple[int, int]:
    if plane not in _PLANES:
        raise ValueError(f"plane must be one of {sorted(_PLANES)}, got {plane!r}")
    return _PLANES[plane]


def coil(x1, x2, *, turns: int = 6, width: float | None = None, lead: float = 0.15) -> np.ndarray:
    """Points of a zig-zag spring from ``x1`` to ``x2`` (2D points, or 3D drawn in a plane).

    A straight lead at each end (a fraction ``lead`` of the length), and between them
    ``2 turns`` zig-zags of half-width ``width`` across the line, in the plane of the points'
    first two coordinates.

    Parameters
    ----------
    x1, x2 : array_like, shape (2,) or (3,)
        End points.
    turns : int
        Number of full zig-zags, ≥ 1.
    width : float, optional
        Half-width of the zig-zag (default a tenth of the length, at least 1e-3).
    lead : float
        Fraction of the length kept straight at each end, in [0, 0.45].

    Returns
    -------
    ndarray, shape (2 turns + 3, d)
        The polyline, first point ``x1``, last point ``x2``.

    Raises
    ------
    ValueError
        If the points do not have the same 2 or 3 coordinates, ``turns < 1``, ``width`` is
        negative or ``lead`` is outside [0, 0.45].
    """
    a, b = np.asarray(x1, dtype=float), np.asarray(x2, dtype=float)
    if a.shape != b.shape or a.shape not in ((2,), (3,)):
        raise ValueError(f"x1 and x2 must both be 2D or 3D points, got {a.shape} and {b.shape}")
    if isinstance(turns, bool) or int(turns) != turns or turns < 1:
        raise ValueError(f"turns must be a positive integer, got {turns!r}")
    if not 0.0 <= lead <= 0.45:
        raise ValueError(f"lead must lie in [0, 0.45], got {lead!r}")
    d = b - a
    length = float(np.linalg.norm(d[:2]))
    w = max(0.1 * length, 1e-3) if width is None else float(width)
    if w < 0:
        raise ValueError(f"width must be non-negative, got {width!r}")
    normal = np.zeros_like(a)
    if length > 0:
        normal[:2] = [-d[1] / length, d[0] / length]
    s = np.linspace(lead, 1.0 - lead, 2 * int(turns) + 1)
    side = np.where(np.arange(s.size) % 2 == 1, 1.0, -1.0) * w
    side[[0, -1]] = 0.0
    middle = a + s[:, None] * d + side[:, None] * normal
    return np.vstack([a, middle, b])


def draw_spring(ax, x1, x2, *, plane: str = "xy", turns: int = 6, width=None, **style):
    """Draw :func:`coil` from ``x1`` to ``x2`` (3D points are projected onto ``plane``).

    ``style`` goes to ``ax.plot`` (``color``, ``lw``, ``label``).  Returns the line artist.

    Raises
    ------
    ValueError
        As :func:`coil`, or for an unknown ``plane``.
    """
    i, j = _plane(plane)
    a, b = np.asarray(x1, dtype=float), np.asarray(x2, dtype=float)
    if a.shape == (3,) and b.shape == (3,):
        a, b = a[[i, j]], b[[i, j]]
    pts = coil(a, b, turns=turns, width=width)
    style.setdefault("color", "0.3")
    style.setdefault("lw", 1.2)
    (line,) = ax.plot(pts[:, 0], pts[:, 1], **style)
    return line


def _corners(T: np.ndarray, size) -> np.ndarray:
    """World coordinates of the eight corners of boxes with frames ``T`` (..., 8, 3)."""
    half = 0.5 * np.asarray(size, dtype=float)
    signs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    local = signs * half
    return local @ np.swapaxes(T[..., :3, :3], -1, -2) + T[..., None, :3, 3]


def _hull(points: np.ndarray) -> np.ndarray:
    """Convex hull of 2D points (k, 2), counter-clockwise and closed (monotone chain)."""
    pts = sorted(map(tuple, np.round(points, 12)))

    def half(seq):
        out = []
        for p in seq:
            while len(out) >= 2:
                (x1, y1), (x2, y2) = out[-2], out[-1]
                if (x2 - x1) * (p[1] - y1) - (y2 - y1) * (p[0] - x1) > 0:
                    break
                out.pop()
            out.append(p)
        return out

    lower, upper = half(pts), half(reversed(pts))
    ring = np.array(lower[:-1] + upper[:-1])
    return np.vstack([ring, ring[:1]])


def box_outline(T, size, *, plane: str = "xy") -> np.ndarray:
    """Outline of a box with frame ``T`` and edge lengths ``size`` seen along ``plane``'s normal.

    Parameters
    ----------
    T : array_like, shape (4, 4)
        The box's frame (its centre and axes) in the world.
    size : array_like, shape (3,)
        Edge lengths along the box's own x, y, z (m), positive.
    plane : {"xy", "xz", "yz"}

    Returns
    -------
    ndarray, shape (k + 1, 2)
        The closed, counter-clockwise convex outline (first point repeated at the end).

    Raises
    ------
    ValueError
        If ``T`` is not 4x4, ``size`` not three positive lengths, or ``plane`` is unknown.
    """
    i, j = _plane(plane)
    T = as_float_array(T, "T", (4, 4))
    if T.ndim != 2:
        raise ValueError(f"T must be one 4x4 frame, got shape {T.shape}")
    size = np.asarray(size, dtype=float)
    if size.shape != (3,) or np.any(size <= 0):
        raise ValueError(f"size must be three positive edge lengths, got {size!r}")
    return _hull(_corners(T, size)[:, [i, j]])


def draw_box(ax, T, size, *, plane: str = "xy", **style):
    """Fill :func:`box_outline` on 2D axes; ``style`` goes to ``ax.fill`` (``color``,
    ``alpha``, ``label``, ``fill=False`` with ``ls`` for an outline).  Returns the patch.

    Raises
    ------
    ValueError
        As :func:`box_outline`.
    """
    outline = box_outline(T, size, plane=plane)
    style.setdefault("alpha", 0.35)
    (patch,) = ax.fill(outline[:, 0], outline[:, 1], **style)
    return patch


def draw_axes(ax, T, length: float, *, plane: str = "xy", colors=("C3", "C2", "C0")):
    """Draw the frame's axes that are not along the plane's normal as arrows from its origin.

    Each of the frame's x, y, z axes is projected onto ``plane``; axes shorter than a fifth of
    ``length`` after projection (pointing out of the page) are skipped.  Returns the arrows.

    Raises
    ------
    ValueError
        If ``length`` is not positive or ``plane`` is unknown.
    """
    i, j = _plane(plane)
    length = positive_scalar(length, "length")
    T = as_float_array(T, "T", (4, 4))
    o = T[[i, j], 3]
    arrows = []
    for k, color in enumerate(colors):
        d = length * T[[i, j], k]
        if np.linalg.norm(d) < 0.2 * length:
            continue
        arrows.append(
            ax.annotate("", o + d, o, arrowprops=dict(arrowstyle="->", color=color, lw=1.2))
        )
    return arrows


def animate_boxes(
    runs: dict,
    size,
    *,
    times=None,
    rest=None,
    plane: str = "xy",
    extent: float = 0.5,
    max_frames: int = 60,
    interval: int = 80,
    panel: float = 3.0,
):
    """Animate boxes over time, one panel per run, as matplotlib's offline HTML player.

    Each panel shows a reference outline (dashed: ``rest``, or the box's first frame) and the
    box as it moves; a run that stops early (a blow-up caught by the caller) keeps its last
    frame, and a box that leaves the panel simply disappears from it.

    Parameters
    ----------
    runs : dict of str to array_like, shape (n_k, 4, 4)
        Frames of the box over time, per run; the title of each panel is its key.
    size : array_like, shape (3,)
        Edge lengths of the box (m).
    times : array_like, shape (n,), optional
        Times of the frames of the longest run (s), shown in the figure title.
    rest : array_like, shape (4, 4), optional
        The frame drawn as the dashed reference outline (default: each run's first frame).
    plane : {"xy", "xz", "yz"}
    extent : float
        Each panel shows ``±extent`` (m) about the first frame's centre.
    max_frames : int
        At most this many evenly spaced frames.
    interval : int
        Milliseconds between frames.
    panel : float
        Width of one panel (inches).

    Returns
    -------
    IPython.display.HTML
        The player (:func:`spatial.viz.animation_html`); the figure is closed.

    Raises
    ------
    ValueError
        If ``runs`` is empty or holds something other than frame sequences, ``times`` does
        not match the longest run, or a size is invalid.
    """
    import matplotlib.pyplot as plt
    from matplotlib.animation import FuncAnimation

    i, j = _plane(plane)
    if not runs:
        raise ValueError("runs must hold at least one sequence of frames")
    frames = {}
    for name, Ts in runs.items():
        Ts = np.asarray(Ts, dtype=float)
        if Ts.ndim != 3 or Ts.shape[1:] != (4, 4) or len(Ts) == 0:
            raise ValueError(f"runs[{name!r}] must have shape (n, 4, 4), got {Ts.shape}")
        frames[name] = Ts
    n = max(len(Ts) for Ts in frames.values())
    if times is not None and np.shape(times) != (n,):
        raise ValueError(
            f"times must have shape ({n},) like the longest run, got {np.shape(times)}"
        )
    positive_scalar(extent, "extent")
    shown = frame_indices(n, max_frames)

    fig, axs = plt.subplots(1, len(frames), figsize=(panel * len(frames), panel + 0.4), dpi=70)
    axs = np.atleast_1d(axs)
    patches = []
    for ax, (name, Ts) in zip(axs, frames.items(), strict=True):
        c = Ts[0, [i, j], 3]
        ax.set(xlim=(c[0] - extent, c[0] + extent), ylim=(c[1] - extent, c[1] + extent))
        ax.set(xlabel=f"{'xyz'[i]} (m)", ylabel=f"{'xyz'[j]} (m)", title=name)
        ax.set_aspect("equal")
        ref = Ts[0] if rest is None else rest
        draw_box(ax, ref, size, plane=plane, fill=False, ls="--", color="0.5")
        patches.append(draw_box(ax, Ts[0], size, plane=plane, color="C0", alpha=0.5))
    fig.tight_layout(rect=(0, 0, 1, 0.9))

    def show(k: int):
        t = shown[k]
        for patch, Ts in zip(patches, frames.values(), strict=True):
            patch.set_xy(box_outline(Ts[min(t, len(Ts) - 1)], size, plane=plane))
        if times is not None:
            fig.suptitle(f"t = {float(np.asarray(times)[t]):.2f} s", y=0.98)
        return patches

    animation = FuncAnimation(fig, show, frames=len(shown), interval=interval)
    html = animation_html(animation)
    plt.close(fig)
    return html
