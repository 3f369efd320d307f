"""An animation player that works offline: matplotlib's JavaScript player without the icon font.

Matplotlib writes an animation as a self-contained HTML page fragment
(``Animation.to_jshtml``): the frames are embedded as PNG images and a small script steps
through them.  Its nine buttons, though, are drawn with Font Awesome 4 icons
(``<i class="fa fa-play"></i>`` …), and the icon font's stylesheet is linked from a CDN on the
internet.  Offline (JupyterLab without a network, a book read from disk) that request fails, the
browser logs an error and the buttons are blank.

:func:`offline_player` rewrites the fragment: it removes the stylesheet link and puts a plain
Unicode symbol in each button, so that the player needs neither the network nor an icon font.
It recognises exactly the markup matplotlib writes today and refuses anything it cannot fully
rewrite (a new icon, a missing link), rather than returning a player that is half fixed.
:func:`animation_html` does the whole job for an animation.
"""

from __future__ import annotations

import os
import re

import numpy as np

__all__ = [
    "FAST_FRAMES",
    "PLAYER_SYMBOLS",
    "animation_html",
    "frame_count",
    "frame_indices",
    "offline_player",
]

#: In fast mode (``SPATIAL_NB_FAST``, the notebooks' test runs) an animation has at most this many
#: frames: each frame is rendered as a PNG, and the tests check that the player is made, not how
#: smoothly it plays.  Three: the first, one in the middle and the last (the first and last
#: states, and an update that is neither).
FAST_FRAMES = 3

_LEFT = "\N{BLACK LEFT-POINTING TRIANGLE}\N{VARIATION SELECTOR-15}"  # text, not emoji, style
_RIGHT = "\N{BLACK RIGHT-POINTING TRIANGLE}\N{VARIATION SELECTOR-15}"
_BAR = "\N{HEAVY VERTICAL BAR}"

#: The symbol that replaces each Font Awesome icon of matplotlib's player, by its class.  They
#: are drawn from triangles, bars and ASCII, which common fonts have (DejaVu Sans, the fonts of
#: Windows and macOS); the media-control characters (U+23EE "⏮" …) are missing from some.
PLAYER_SYMBOLS = {
    "fa fa-minus": "\N{MINUS SIGN}",  # decrease speed
    "fa fa-fast-backward": "|" + 2 * _LEFT,  # first frame
    "fa fa-step-backward": "|" + _LEFT,  # previous frame
    "fa fa-play fa-flip-horizontal": _LEFT,  # play backwards
    "fa fa-pause": 2 * _BAR,
    "fa fa-play": _RIGHT,
    "fa fa-step-forward": _RIGHT + "|",  # next frame
    "fa fa-fast-forward": 2 * _RIGHT + "|",  # last frame
    "fa fa-plus": "+",  # increase speed
}

#: A stylesheet linked from the internet (matplotlib's is split over two lines).
_REMOTE_STYLESHEET = re.compile(
    r"<link\b[^>]*\brel=[\"']stylesheet[\"'][^>]*\bhref=[\"']https?://[^>]*>\n?", re.IGNORECASE
)
#: An icon element, ``<i class="..."></i>``.
_ICON = re.compile(r"<i\s+class=\"([^\"]*)\"\s*>\s*</i>")


def frame_count(max_frames: int) -> int:
    """How many frames an animation asked for ``max_frames`` gets: ``max_frames`` itself, or at
    most :data:`FAST_FRAMES` in fast mode (``SPATIAL_NB_FAST`` set).

    Raises
    ------
    ValueError
        If ``max_frames < 1``.
    """
    if max_frames < 1:
        raise ValueError(f"max_frames must be ≥ 1, got {max_frames!r}")
    if os.environ.get("SPATIAL_NB_FAST", "").strip().lower() not in ("", "0", "false", "no"):
        return min(max_frames, FAST_FRAMES)
    return max_frames


def frame_indices(n: int, max_frames: int) -> np.ndarray:
    """Which of ``n`` samples become an animation's frames: at most :func:`frame_count`
    ``(max_frames)`` of them, evenly spaced, the first and the last included.

    Raises
    ------
    ValueError
        If ``max_frames < 1``.
    """
    return np.unique(np.linspace(0, n - 1, min(frame_count(max_frames), n)).round().astype(int))


def offline_player(html: str) -> str:
    """Make matplotlib's HTML animation player work without the network or an icon font.

    Removes the stylesheet that ``Animation.to_jshtml`` links from the internet and replaces
    each ``<i class="fa …"></i>`` button icon by its symbol in :data:`PLAYER_SYMBOLS`.  The
    buttons keep their ``onclick`` handlers, titles and labels; the frames are untouched.

    Parameters
    ----------
    html : str
        The output of ``Animation.to_jshtml``.

    Returns
    -------
    str
        The same player, loading nothing from the internet and using no ``fa`` class.

    Raises
    ------
    TypeError
        If ``html`` is not a string.
    ValueError
        If the markup is not the one this function knows: no stylesheet link from the
        internet to remove, an icon class without a symbol, or a Font Awesome class or an
        ``http(s)://`` address still left after the rewrite.  (A changed matplotlib template
        is reported instead of being half fixed.)
    """
    if not isinstance(html, str):
        raise TypeError(f"html must be the str that to_jshtml returns, got {type(html).__name__}")
    html, links = _REMOTE_STYLESHEET.subn("", html)
    if links == 0:
        raise ValueError(
            "no stylesheet linked from the internet in the player: matplotlib's to_jshtml "
            "template has changed, offline_player needs updating"
        )
    unknown = sorted({m for m in _ICON.findall(html) if m not in PLAYER_SYMBOLS})
    if unknown:
        raise ValueError(
            f"player icon(s) {unknown} have no symbol in PLAYER_SYMBOLS: matplotlib's to_jshtml "
            "template has changed, offline_player needs updating"
        )
    html = _ICON.sub(lambda m: PLAYER_SYMBOLS[m.group(1)], html)
    left = re.findall(r"\bfa-[\w-]+|https?://[^\s\"'<>]*", html)
    if left:
        raise ValueError(
            f"the player still uses {sorted(set(left))} after the rewrite: matplotlib's "
            "to_jshtml template has changed, offline_player needs updating"
        )
    return html


def animation_html(animation, **kwargs):
    """A matplotlib animation as an HTML player that works offline (no icon font, no network).

    ``animation.to_jshtml(**kwargs)`` rewritten by :func:`offline_player`.  Close the figure
    afterwards (``plt.close(fig)``) so that it is not also shown as a still image.

    Parameters
    ----------
    animation : matplotlib.animation.Animation
        E.g. a ``FuncAnimation``.
    **kwargs
        Passed to ``to_jshtml`` (``fps``, ``embed_frames``, ``default_mode``).

    Returns
    -------
    IPython.display.HTML
        Needs IPython (installed with the ``notebooks`` extra).

    Raises
    ------
    TypeError
        If ``animation`` has no ``to_jshtml`` method.
    ValueError
        As :func:`offline_player`, if matplotlib's player template has changed.
    """
    import matplotlib.pyplot as plt
    from IPython.display import HTML
    from matplotlib.layout_engine import PlaceHolderLayoutEngine

    if not callable(getattr(animation, "to_jshtml", None)):
        raise TypeError(
            f"animation must be a matplotlib Animation (with to_jshtml), "
            f"got {type(animation).__name__}"
        )
    figure = getattr(animation, "_fig", None)  # matplotlib's Animation keeps its figure here
    if figure is None:
        return HTML(offline_player(animation.to_jshtml(**kwargs)))
    # Saving refreshes the canvas after each frame's update, for a screen that nobody watches
    # here, and then draws the frame's image, with a layout pass first when the figure has a
    # layout engine.  Skip the refresh, and the layout pass of the placeholder engine that
    # ``tight_layout()`` leaves behind (it lays nothing out: the layout was done once): the
    # images are the same, drawn in about a third of the time.
    engine = figure.get_layout_engine()
    placeholder = isinstance(engine, PlaceHolderLayoutEngine) and not (
        plt.rcParams["figure.autolayout"] or plt.rcParams["figure.constrained_layout.use"]
    )  # (with either, set_layout_engine(None) would choose a real engine)
    figure.canvas.draw_idle = lambda *args, **kwargs: None
    if placeholder:
        figure.set_layout_engine(None)
    try:
        html = animation.to_jshtml(**kwargs)
    finally:
        del figure.canvas.draw_idle
        if placeholder:
            figure.set_layout_engine(engine)
    return HTML(offline_player(html))
