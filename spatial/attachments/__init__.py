"""Attachments: components whose motion follows other components (ArtiSynth notes §0.17–0.21).

A particle glued to a bone, a muscle's via point, the end of a rope tied to a body, a node
embedded in a mass-spring element, a rigid body welded to another: each is a component whose
velocity is a linear function of the velocities of its *masters*, ``v_k = Σ_j G_kj v_j + g_k``.
Instead of enforcing these relations with multipliers in the KKT system, the notes eliminate
them: the attached unknowns disappear, the masters gain the attached inertia (and, when ``G``
changes with the state, a fictitious velocity-product force), and the attached velocities are
recovered afterwards.  Nothing is enforced, so nothing drifts: an attached point is exactly where
its masters put it.  Read the modules in this order:

* :mod:`spatial.attachments.graph` — :class:`Attachment`, :class:`Attachments` (the components'
  sizes and the attachments, checked once, with an elimination order for chains, §0.18);
* :mod:`spatial.attachments.reduction` — the null-space reduction ``P M Pᵀ`` (eqs. 0.18–0.35),
  recovery of the attached velocities and of the attachment forces, prescribed components
  (§0.21) and one-dimensional constraints (§0.20);
* :mod:`spatial.attachments.bodies` — points and frames on rigid bodies: added inertia and the
  fictitious force (§0.19), frame-to-frame attachment as a composite body;
* :mod:`spatial.attachments.system` — :class:`AttachedSystem`, rigid bodies and particles with
  attachments, springs and cables as a smooth system of :mod:`spatial.systems` (any integrator of
  :mod:`spatial.integrators` steps it);
* :mod:`spatial.attachments.stepping` — with joints between its bodies, the system's own time
  step: joint rows in a KKT step, attachments eliminated.

Sueda §2.7 attaches mass-spring nodes to a kinematic tree with the same Jacobians
(:mod:`spatial.reduced.deformable`).  The notes are linear-first, ``(v, ω)``, and write the
attachment as ``v_k + G v_α = 0``; the package is angular-first, ``[ω; v]``, and uses
``v_k = G v_α``.
"""

from .bodies import added_inertia, fictitious_force, frame_on_body, point_bias, point_on_body
from .graph import Attachment, Attachments, attach, weighted_point
from .reduction import (
    AttachedSolution,
    Reduced,
    attachment_forces,
    expand,
    kkt_rows,
    project_constraint,
    projector,
    reduce,
    reduction_matrix,
    solve,
)
from .system import AttachedSystem

__all__ = [
    "AttachedSolution",
    "AttachedSystem",
    "Attachment",
    "Attachments",
    "Reduced",
    "added_inertia",
    "attach",
    "attachment_forces",
    "expand",
    "kkt_rows",
    "fictitious_force",
    "frame_on_body",
    "point_bias",
    "point_on_body",
    "project_constraint",
    "projector",
    "reduce",
    "reduction_matrix",
    "solve",
    "weighted_point",
]
