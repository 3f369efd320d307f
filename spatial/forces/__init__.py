"""Forces on rigid bodies in maximal coordinates, each with its stiffness and damping matrices.

Every force is an object with ``bodies`` (the numbers of the bodies it acts on) and
``evaluate(T, phi, coords="body", symmetric=False) -> ForceTerms(f, K, D)`` for a system of
``N`` bodies with 4x4 frames ``T (..., N, 4, 4)`` (Sueda writes E for this frame) and twists
``phi (..., N, 6)``; :func:`assemble` sums several.  ``K = ∂f/∂x`` under ``T exp([δ])`` and
``D = ∂f/∂φ`` (conventions: :mod:`spatial.forces.base`); :func:`derivative_error` checks both
against central differences.

Bodies are numbered ``1 … N`` and ``0`` is the fixed world, as in :class:`spatial.Model`; the
state arrays hold the bodies without the world, so body ``b`` is row ``b - 1`` of ``T`` and
``phi`` and block ``b - 1`` of the ``6N`` vectors.

* :mod:`~spatial.forces.point` — :class:`BodyDamping` (Sueda §1.9.1), :class:`PointForce`
  (Sueda §1.9.2, ArtiSynth §0.23).
* :mod:`~spatial.forces.springs` — :class:`PointToPointSpring` (Sueda §1.9.3),
  :class:`GreenStrainSpring` (ArtiSynth §0.13), :class:`MultiPointSpring` with via points and
  active/passive segments (ArtiSynth §0.14, Sueda §1.9.5), :func:`axial_spring` (ArtiSynth
  §0.12), :func:`spring_damper` (Sueda §1.9.6), tension laws :class:`LinearLaw`.
* :mod:`~spatial.forces.muscle` — Millard-style curves :data:`active_force_length`,
  :data:`passive_force_length`, :data:`force_velocity` as :class:`PiecewiseCubic`, and
  :class:`MuscleLaw` (Sueda §1.9.4).
* :mod:`~spatial.forces.millard` — the Millard 2012 curves as OpenSim builds them from quintic
  Bézier corners (:mod:`~spatial.forces.bezier`): :func:`millard2012_curves`.
* :mod:`~spatial.forces.musculotendon` — :class:`MusculotendonLaw` (pennated fibers, rigid or
  elastic tendon), :func:`activation_rate`, :func:`integrate_activation`.
* :mod:`~spatial.forces.frame_spring` — :class:`FrameSpring` (ArtiSynth §0.22).
"""

from .base import Force, ForceTerms, assemble, derivative_error
from .frame_spring import FrameSpring
from .millard import (
    MillardCurve,
    active_force_length_curve,
    fiber_force_length_curve,
    force_velocity_curve,
    millard2012_curves,
    tendon_force_length_curve,
)
from .muscle import (
    ACTIVE_FORCE_LENGTH_CONDITIONS,
    FORCE_VELOCITY_CONDITIONS,
    PASSIVE_FORCE_LENGTH_CONDITIONS,
    MuscleCurve,
    MuscleLaw,
    PiecewiseCubic,
    active_force_length,
    force_velocity,
    passive_force_length,
)
from .musculotendon import (
    MusculotendonLaw,
    activation_rate,
    integrate_activation,
    sueda_curves,
)
from .point import BodyDamping, PointForce
from .springs import (
    GreenStrainSpring,
    LinearLaw,
    MultiPointSpring,
    PointToPointSpring,
    TensionLaw,
    axial_spring,
    spring_damper,
)

__all__ = [
    "ACTIVE_FORCE_LENGTH_CONDITIONS",
    "FORCE_VELOCITY_CONDITIONS",
    "PASSIVE_FORCE_LENGTH_CONDITIONS",
    "BodyDamping",
    "Force",
    "ForceTerms",
    "FrameSpring",
    "GreenStrainSpring",
    "LinearLaw",
    "MillardCurve",
    "MultiPointSpring",
    "MuscleCurve",
    "MuscleLaw",
    "MusculotendonLaw",
    "PiecewiseCubic",
    "PointForce",
    "PointToPointSpring",
    "TensionLaw",
    "active_force_length",
    "active_force_length_curve",
    "activation_rate",
    "assemble",
    "derivative_error",
    "axial_spring",
    "fiber_force_length_curve",
    "force_velocity",
    "force_velocity_curve",
    "integrate_activation",
    "millard2012_curves",
    "passive_force_length",
    "spring_damper",
    "sueda_curves",
    "tendon_force_length_curve",
]
