"""Matplotlib drawings of models: stick figures and animations of kinematic trees.

Overlays (:mod:`.overlays`) add vectors drawn as arrows and motions drawn as shaded poses.

Animations are shown with matplotlib's HTML player, rewritten to work offline
(:func:`animation_html`).

Loaded on first use (``spatial.viz``), so that ``import spatial`` does not import matplotlib.
"""

from .connectivity import draw_connectivity
from .models import Skeleton, animate, draw_model, skeleton
from .overlays import draw_arrows, draw_poses
from .player import PLAYER_SYMBOLS, animation_html, offline_player

__all__ = [
    "PLAYER_SYMBOLS",
    "Skeleton",
    "animate",
    "animation_html",
    "draw_arrows",
    "draw_connectivity",
    "draw_model",
    "draw_poses",
    "offline_player",
    "skeleton",
]
