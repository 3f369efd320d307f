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

import re

__all__ = ["PLAYER_SYMBOLS", "animation_html", "offline_player"]

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
    from IPython.display import HTML

    if not callable(getattr(animation, "to_jshtml", None)):
        raise TypeError(
            f"animation must be a matplotlib Animation (with to_jshtml), "
            f"got {type(animation).__name__}"
        )
    return HTML(offline_player(animation.to_jshtml(**kwargs)))
