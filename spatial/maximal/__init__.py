"""Maximal coordinates: every body carries its own frame ``T`` and body twist ``φ`` (Sueda part 1).

Frames are 4x4, ``T_world,b = [[R, p], [0, 1]]`` (Sueda writes E for this frame; the package keeps
E for Featherstone's 3x3 coordinate rotation).  Bodies are numbered ``1 … N`` and ``0`` is the
fixed world, as in :class:`spatial.Model`; the state arrays ``T (..., N, 4, 4)`` and
``φ (..., N, 6)`` have no row for the world, so body ``b`` is row ``b - 1`` (and block ``b - 1``
of the 6N generalized vectors).

* :mod:`spatial.maximal.rigid_body` — one free rigid body: Newton–Euler in body coordinates,
  Euler on SE(3) (Sueda §1.6–1.8).
* :mod:`spatial.maximal.system` — systems of bodies with joints and ground contact points
  (:class:`System`, :class:`JointConstraint`, :class:`GroundPlane`), Sueda §1.9–1.13.
* :mod:`spatial.maximal.constraints` — joints as constraint rows from the joint library:
  ``G``, the position errors ``g`` and the joint variables behind them (Sueda §1.10, §1.12).
* :mod:`spatial.maximal.dynamics` — block-diagonal mass matrix, Coriolis and gravity wrenches,
  the gyroscopic Jacobian (Sueda §1.7, eq. 1.21).
* :mod:`spatial.maximal.contact` — contact rows of body points against a ground plane (Sueda
  §1.11).
* :mod:`spatial.maximal.step` — the KKT step with reaction forces, Baumgarte stabilization,
  linearly implicit forces, and the simulation loop (Sueda §1.8–1.13).
* :mod:`spatial.maximal.conversion` — the same mechanism as a kinematic tree and as a
  maximal-coordinate system (:func:`from_model`, :func:`maximal_state`, :func:`reduced_state`).
"""

from ..simulation import Trajectory  # the one result type of every simulator
from .constraints import constraint_error, constraint_jacobian, joint_coordinates
from .contact import ContactResult, GroundPlane, contact_jacobian
from .conversion import from_model, maximal_state, reduced_state
from .dynamics import bias_wrenches, gyroscopic_jacobian, mass_matrix
from .rigid_body import (
    FreeBody,
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
from .step import StepResult, kkt_step, simulate_system
from .system import JointConstraint, System

__all__ = [
    "FreeBody",
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
