"""A time step of an attached system with joints (ArtiSynth §0.17 with Sueda §1.10–1.12).

Joints between bodies stay constraint rows ``C`` (Sueda's joint rows in maximal coordinates,
:mod:`spatial.maximal.constraints`); attachments are eliminated.  One velocity-level step, the
semi-implicit Euler step of Sueda eqs. 1.29 and 1.73–1.74 with the forces at the start, reads

    M x⁺ = M x + h f + Cᵀλ + Aᵀμ,      C x⁺ = -γ g,      x⁺_k = Σ_j G_kj x⁺_j + h Ġ_k v,

where ``g`` is the joints' position error with Baumgarte gain ``γ`` (Sueda eq. 1.82) and the
attachment offset ``h Ġ v`` carries the velocity-product term over the step (the notes' remark
after eq. 0.24 replaces ``G`` by ``G + hĠ`` to the same effect).  Eliminating the attachments
(:func:`~spatial.attachments.reduce`) leaves ``M' x⁺_α = f' + C'ᵀλ``, ``C' x⁺_α = γ'``, an
ordinary KKT system in the active components (:func:`spatial.solvers.solve_kkt`); then every
active configuration moves with its new velocity.  For a body with attached particles and welded
bodies this is exactly :func:`spatial.maximal.kkt_step` of the composite body.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

import numpy as np

from ..maximal.constraints import _assemble_G, _errors, _joint_states_at, _stack_q
from ..solvers.kkt import _solve_kkt
from ..systems import Step
from .reduction import _reduce

if TYPE_CHECKING:
    from .system import AttachedSystem

__all__: list[str] = []  # reached through AttachedSystem.step


def _joint_rows(system: AttachedSystem, config: list, q0):
    """The joint rows ``C`` (m x n) on the components, the errors ``g`` and the joint variables."""
    mirror = system._mirror
    bodies = [i for i, kind in enumerate(system.kinds) if kind == "body"]
    T = np.array([config[i] for i in bodies])
    states, batch = _joint_states_at(mirror, T, q0)
    G = _assemble_G(mirror, states, batch)
    att = system.attachments
    C = np.zeros((mirror.m, att.n))
    for number, component in enumerate(bodies):
        C[:, att.slices[component]] = G[:, 6 * number : 6 * number + 6]
    return C, _errors(mirror, states, batch), _stack_q(mirror, states, batch)


def _step(system: AttachedSystem, q, v, h: float, gamma: float, q0) -> Step:
    config = system._configuration(q)
    att = system._at_state(config)
    x = system._full_velocities(att, v)
    att = system._biases(config, att, x)
    scaled = copy.copy(att)  # velocity level: the offsets Ġv act over the step
    scaled.attachments = tuple(
        a if a.offset is None else a.with_offset(h * a.offset) for a in att.attachments
    )
    M = system._full_mass()
    f = M @ x + h * system._forces(config, att, x)
    C, error, joint_q = _joint_rows(system, config, q0)
    red = _reduce(scaled, M, f, C, -gamma * error)
    if len(red.C):
        xa, lam = _solve_kkt(red.M, red.C, red.f, red.gamma)
    else:
        xa, lam = np.linalg.solve(red.M, red.f), np.zeros(0)
    _, vs = system._layout()
    v_next = np.zeros(system.nv)
    for i in att.active:
        v_next[vs[i]] = xa[att.active_slices[i]]
    info = {"joint_q": joint_q, "error": error, "joint_force": lam / h}
    return Step(system.integrate(q, v_next, h), v_next, h, info, joint_q)
