"""Maximal coordinates: every body carries its own frame ``E`` and body twist ``φ`` (Sueda part 1).

* :mod:`spatial.maximal.rigid_body` — one free rigid body: Newton–Euler in body coordinates,
  Euler on SE(3) (Sueda §1.6–1.8).
* :mod:`spatial.maximal.system` — systems of bodies with joints and ground contact as constraints:
  constraint rows from the joint library, the KKT step with reaction forces, Baumgarte
  stabilization, linearly implicit forces (Sueda §1.9–1.13).
* :mod:`spatial.maximal.conversion` — the same mechanism as a kinematic tree and as a
  maximal-coordinate system (:func:`from_model`, :func:`maximal_state`, :func:`reduced_state`).
"""

from .conversion import from_model, maximal_state, reduced_state
from .rigid_body import (
    center_of_mass,
    coriolis_wrench,
    euler_step,
    gravity_wrench,
    kinetic_energy,
    newton_euler_acceleration,
    potential_energy,
    simulate,
    spatial_momentum,
)
from .system import (
    ContactResult,
    GroundPlane,
    JointConstraint,
    StepResult,
    System,
    Trajectory,
    bias_wrenches,
    constraint_error,
    constraint_jacobian,
    contact_jacobian,
    gyroscopic_jacobian,
    joint_coordinates,
    kkt_step,
    mass_matrix,
    simulate_system,
)

__all__ = [
    "ContactResult",
    "GroundPlane",
    "JointConstraint",
    "StepResult",
    "System",
    "Trajectory",
    "bias_wrenches",
    "center_of_mass",
    "constraint_error",
    "constraint_jacobian",
    "contact_jacobian",
    "coriolis_wrench",
    "euler_step",
    "from_model",
    "gravity_wrench",
    "gyroscopic_jacobian",
    "joint_coordinates",
    "kinetic_energy",
    "kkt_step",
    "mass_matrix",
    "maximal_state",
    "newton_euler_acceleration",
    "potential_energy",
    "reduced_state",
    "simulate",
    "simulate_system",
    "spatial_momentum",
]
