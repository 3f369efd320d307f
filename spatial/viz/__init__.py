"""Matplotlib drawings of models: stick figures and animations of kinematic trees, and
outlines and animations of closed-chain linkages (:mod:`.linkages`).

Animations are shown with matplotlib's HTML player, rewritten to work offline
(:func:`animation_html`).

Loaded on first use (``spatial.viz``), so that ``import spatial`` does not import matplotlib.
"""

from .connectivity import draw_connectivity
from .linkages import LinkageOutline, animate_linkage, draw_linkage, linkage_outline
from .models import Skeleton, animate, draw_model, skeleton
from .muscle_arm import MUSCLE_COLORS, draw_muscle_arm
from .player import PLAYER_SYMBOLS, animation_html, offline_player

__all__ = [
    "MUSCLE_COLORS",
    "draw_muscle_arm",
    "PLAYER_SYMBOLS",
    "LinkageOutline",
    "Skeleton",
    "animate",
    "animate_linkage",
    "animation_html",
    "draw_connectivity",
    "draw_linkage",
    "draw_model",
    "linkage_outline",
    "offline_player",
    "skeleton",
]
