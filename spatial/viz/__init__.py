"""Matplotlib drawings of models: stick figures and animations of kinematic trees.

Overlays (:mod:`.overlays`) add vectors drawn as arrows, motions drawn as shaded poses and
animations of a few batch members in their own colours;
:mod:`.sparsity` colours a tree by its branches, and the pattern of its ``H`` to match.

Animations are shown with matplotlib's HTML player, rewritten to work offline
(:func:`animation_html`).

Loaded on first use (``spatial.viz``), so that ``import spatial`` does not import matplotlib.
"""

from .connectivity import draw_connectivity
from .models import Skeleton, animate, draw_model, skeleton
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
    "animate_members",
    "PLAYER_SYMBOLS",
    "TRUNK_COLOR",
    "branch_colors",
    "branches",
    "draw_branches",
    "draw_sparsity",
    "spread_configuration",
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
