"""Contact solvers: LCPs, QPs, KKT systems and friction (Featherstone §11.4–11.5; ArtiSynth §0.3,
§0.5–0.8, §0.10, §0.15–0.16; Sueda §1.11–1.13).

A subpackage, imported explicitly (``import spatial.contact``); ``import spatial`` does not load it.

* :mod:`~spatial.contact.lcp` — ``lemke``, ``principal_pivoting`` (columns on demand), ``pgs``;
* :mod:`~spatial.contact.qp` — QP ↔ LCP, mixed LCP → LCP;
* :mod:`~spatial.contact.kkt` — KKT solve, projections ``P_f`` and ``P_v``, Gauss–Seidel;
* :mod:`~spatial.contact.friction` — box, polyhedral (Anitescu–Stewart), pyramid QP and
  Gauss–Seidel friction in contact space.

Contact in rigid-body systems (Featherstone ch. 11):

* :mod:`~spatial.contact.geometry` — shapes, gaps, contact points and normals (§11.6);
* :mod:`~spatial.contact.scene` — bodies with shapes, contact detection and Jacobians (§11.3);
* :mod:`~spatial.contact.rigid` — the contact LCP (§11.1–11.5) and velocity-level impulses;
* :mod:`~spatial.contact.impact` — impulsive dynamics, Newton and Poisson restitution (§11.7);
* :mod:`~spatial.contact.stepping` — time stepping with impacts and friction (Table 11.1);
* :mod:`~spatial.contact.soft` — compliant contact with Coulomb friction (§11.8);
* :mod:`~spatial.contact.scenarios` — ready-made scenes and problems without a solution.
"""

from .friction import (
    FrictionResult,
    box_friction,
    disc_qp,
    friction_cone_violation,
    friction_E,
    gauss_seidel_friction,
    polyhedral_directions,
    polyhedral_friction,
    pyramid_friction,
)
from .geometry import (
    Box,
    Capsule,
    ContactGeometry,
    Plane,
    Points,
    Sphere,
    box_box,
    box_plane,
    box_vertices,
    capsule_plane,
    points_plane,
    sphere_plane,
    sphere_sphere,
    tangent_basis,
)
from .impact import (
    CollisionResult,
    ImpactResult,
    apply_impact,
    collision,
    contact_wrenches,
    impact,
    restitution_coefficient,
)
from .kkt import (
    GaussSeidelResult,
    delassus,
    force_projection,
    kkt_gauss_seidel,
    kkt_matrix,
    solve_kkt,
    velocity_projection,
)
from .lcp import (
    LCPError,
    LCPResult,
    PivotStep,
    complementarity_error,
    lemke,
    pgs,
    pgs_sweep,
    principal_pivoting,
)
from .qp import (
    MixedLCPResult,
    ReducedLCP,
    mixed_lcp_to_lcp,
    qp_kkt_lcp,
    qp_primal,
    qp_to_lcp,
    solve_mixed_lcp,
    solve_qp,
)
from .rigid import (
    FRICTION_MODELS,
    ContactAcceleration,
    contact_acceleration,
    contact_lcp,
    friction_cone_of,
    solve_impulses,
)
from .scenarios import (
    ContactProblem,
    Setup,
    bouncing_ball,
    box_stack,
    double_pendulum_floor,
    example_11_1,
    painleve_rod,
    sliding_box,
    tipping_box,
)
from .scene import Collider, Contacts, FreeBodies, Scene
from .soft import (
    SoftContactParams,
    SoftStepInfo,
    SurfaceState,
    friction_force,
    hunt_crossley_force,
    normal_force,
    simulate_soft,
    soft_contact_forces,
    soft_step,
)
from .stepping import ContactParams, StepInfo, Trajectory, simulate, step

__all__ = [
    "Box",
    "Capsule",
    "Collider",
    "CollisionResult",
    "ContactAcceleration",
    "ContactGeometry",
    "ContactParams",
    "ContactProblem",
    "Contacts",
    "FRICTION_MODELS",
    "FreeBodies",
    "FrictionResult",
    "GaussSeidelResult",
    "ImpactResult",
    "LCPError",
    "LCPResult",
    "MixedLCPResult",
    "PivotStep",
    "Plane",
    "Points",
    "ReducedLCP",
    "Scene",
    "Setup",
    "SoftContactParams",
    "SoftStepInfo",
    "Sphere",
    "StepInfo",
    "SurfaceState",
    "Trajectory",
    "apply_impact",
    "bouncing_ball",
    "box_box",
    "box_friction",
    "disc_qp",
    "box_plane",
    "box_stack",
    "box_vertices",
    "capsule_plane",
    "collision",
    "complementarity_error",
    "contact_acceleration",
    "contact_lcp",
    "contact_wrenches",
    "delassus",
    "double_pendulum_floor",
    "example_11_1",
    "force_projection",
    "friction_E",
    "friction_cone_of",
    "friction_cone_violation",
    "friction_force",
    "gauss_seidel_friction",
    "hunt_crossley_force",
    "impact",
    "kkt_gauss_seidel",
    "kkt_matrix",
    "lemke",
    "mixed_lcp_to_lcp",
    "normal_force",
    "painleve_rod",
    "pgs",
    "pgs_sweep",
    "points_plane",
    "polyhedral_directions",
    "polyhedral_friction",
    "principal_pivoting",
    "pyramid_friction",
    "qp_kkt_lcp",
    "qp_primal",
    "qp_to_lcp",
    "restitution_coefficient",
    "simulate",
    "simulate_soft",
    "sliding_box",
    "soft_contact_forces",
    "soft_step",
    "solve_impulses",
    "solve_kkt",
    "solve_mixed_lcp",
    "solve_qp",
    "sphere_plane",
    "sphere_sphere",
    "step",
    "tangent_basis",
    "tipping_box",
    "velocity_projection",
]
