"""Matplotlib drawings: stick figures and animations of kinematic trees and linkages, and of one
rigid body.

Overlays (:mod:`.overlays`) add vectors drawn as arrows, motions drawn as shaded poses and
animations of a few batch members in their own colours;
:mod:`.sparsity` colours a tree by its branches, and the pattern of its ``H`` to match.

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
from .legged import animate_legged, draw_legged
from .linkages import Linkage, animate_linkage, draw_linkage, linkage
from .models import Skeleton, animate, draw_model, skeleton
from .muscle_arm import MUSCLE_COLORS, draw_muscle_arm
from .orders import convergence_plot
from .overlays import animate_members, draw_arrows, draw_poses
from .player import PLAYER_SYMBOLS, animation_html, offline_player
from .sparsity import (
    TRUNK_COLOR,
    branch_colors,
    branches,
    draw_branches,
    draw_sparsity,
    spread_configuration,
)

__all__ = [
    "animate_legged",
    "draw_legged",
    "AXIS_COLORS",
    "Linkage",
    "animate_members",
    "MUSCLE_COLORS",
    "draw_muscle_arm",
    "PLAYER_SYMBOLS",
    "TRUNK_COLOR",
    "branch_colors",
    "branches",
    "draw_branches",
    "draw_sparsity",
    "spread_configuration",
    "Skeleton",
    "animate",
    "animate_linkage",
    "animate_rigid_body",
    "animate_scene",
    "animation_html",
    "bounding_cube",
    "box_edges",
    "convergence_plot",
    "cube_axes",
    "draw_arrows",
    "draw_box",
    "draw_connectivity",
    "draw_contacts",
    "draw_frame",
    "draw_frames",
    "draw_gear_drive",
    "draw_inertia_ellipsoid",
    "draw_joint_motion",
    "draw_linkage",
    "draw_model",
    "draw_planar_field",
    "draw_poses",
    "draw_scene",
    "draw_screw_field",
    "draw_triad",
    "gear_outline",
    "linkage",
    "muscles",
    "offline_player",
    "reach_box",
    "skeleton",
    "springs",
    "style_3d",
    "surfaces",
]
