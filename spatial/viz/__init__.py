"""Matplotlib drawings of models: stick figures and animations of kinematic trees and linkages.

Animations are shown with matplotlib's HTML player, rewritten to work offline
(:func:`animation_html`).

Loaded on first use (``spatial.viz``), so that ``import spatial`` does not import matplotlib.
"""

from .connectivity import draw_connectivity
from .frames import (
    AXIS_COLORS,
    bounding_cube,
    cube_axes,
    draw_frames,
    draw_joint_motion,
    draw_triad,
    reach_box,
)
from .gears import draw_gear_drive, gear_outline
from .linkages import Linkage, animate_linkage, draw_linkage, linkage
from .models import Skeleton, animate, draw_model, skeleton
from .player import PLAYER_SYMBOLS, animation_html, offline_player

__all__ = [
    "AXIS_COLORS",
    "Linkage",
    "PLAYER_SYMBOLS",
    "Skeleton",
    "animate",
    "animate_linkage",
    "animation_html",
    "bounding_cube",
    "cube_axes",
    "draw_connectivity",
    "draw_frames",
    "draw_gear_drive",
    "draw_joint_motion",
    "draw_linkage",
    "draw_model",
    "draw_triad",
    "gear_outline",
    "linkage",
    "offline_player",
    "reach_box",
    "skeleton",
]
