"""Matplotlib drawings of models: stick figures and animations of kinematic trees.

Animations are shown with matplotlib's HTML player, rewritten to work offline
(:func:`animation_html`).

Loaded on first use (``spatial.viz``), so that ``import spatial`` does not import matplotlib.
"""

from .connectivity import draw_connectivity
from .contact import animate_scene, draw_contacts, draw_scene
from .models import Skeleton, animate, draw_model, skeleton
from .player import PLAYER_SYMBOLS, animation_html, offline_player

__all__ = [
    "PLAYER_SYMBOLS",
    "Skeleton",
    "animate",
    "animate_scene",
    "animation_html",
    "draw_connectivity",
    "draw_contacts",
    "draw_model",
    "draw_scene",
    "offline_player",
    "skeleton",
]
