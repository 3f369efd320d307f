"""Matplotlib drawings of models: stick figures and animations of kinematic trees.

Animations are shown with matplotlib's HTML player, rewritten to work offline
(:func:`animation_html`).

Loaded on first use (``spatial.viz``), so that ``import spatial`` does not import matplotlib.
"""

from . import muscles, springs, surfaces  # notebooks 13, 13b, 14: sp.viz.springs, …
from .connectivity import draw_connectivity
from .models import Skeleton, animate, draw_model, skeleton
from .player import PLAYER_SYMBOLS, animation_html, offline_player

__all__ = [
    "PLAYER_SYMBOLS",
    "Skeleton",
    "animate",
    "animation_html",
    "draw_connectivity",
    "draw_model",
    "muscles",
    "offline_player",
    "skeleton",
    "springs",
    "surfaces",
]
