"""Matplotlib drawings of models: stick figures and animations of kinematic trees.

Loaded on first use (``spatial.viz``), so that ``import spatial`` does not import matplotlib.
"""

from .connectivity import draw_connectivity
from .models import Skeleton, animate, draw_model, skeleton

__all__ = ["Skeleton", "animate", "draw_connectivity", "draw_model", "skeleton"]
