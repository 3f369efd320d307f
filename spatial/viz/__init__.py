"""Matplotlib drawings: stick figures and animations of kinematic trees, and of one rigid body.

Animations are shown with matplotlib's HTML player, rewritten to work offline
(:func:`animation_html`).

Loaded on first use (``spatial.viz``), so that ``import spatial`` does not import matplotlib.
"""

from . import muscles, springs, surfaces  # notebooks 13, 13b, 14: sp.viz.springs, …
from .bodies import (
    animate_rigid_body,
    box_edges,
    draw_box,
    draw_frame,
    draw_inertia_ellipsoid,
    draw_planar_field,
    draw_screw_field,
    style_3d,
)
from .connectivity import draw_connectivity
from .contact import animate_scene, draw_contacts, draw_scene
from .models import Skeleton, animate, draw_model, skeleton
from .orders import convergence_plot
from .player import PLAYER_SYMBOLS, animation_html, offline_player

__all__ = [
    "PLAYER_SYMBOLS",
    "Skeleton",
    "animate",
    "animate_rigid_body",
    "animate_scene",
    "animation_html",
    "box_edges",
    "convergence_plot",
    "draw_box",
    "draw_connectivity",
    "draw_contacts",
    "draw_frame",
    "draw_inertia_ellipsoid",
    "draw_model",
    "draw_planar_field",
    "draw_scene",
    "draw_screw_field",
    "muscles",
    "offline_player",
    "skeleton",
    "springs",
    "style_3d",
    "surfaces",
]
