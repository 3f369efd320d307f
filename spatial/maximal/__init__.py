"""Maximal coordinates: every body carries its own frame ``E`` and body twist ``φ`` (Sueda part 1).

So far: one free rigid body (:mod:`spatial.maximal.rigid_body`).
"""

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

__all__ = [
    "center_of_mass",
    "coriolis_wrench",
    "euler_step",
    "gravity_wrench",
    "kinetic_energy",
    "newton_euler_acceleration",
    "potential_energy",
    "simulate",
    "spatial_momentum",
]
