"""States of a maximal-coordinate system: the checks every public entry applies once.

A state is the pair of arrays ``T (..., N, 4, 4)`` (body frames, Sueda writes E for them) and
``φ (..., N, 6)`` (body twists), body ``b`` in row ``b - 1``; a warm start for the joint
variables is a stacked ``q (..., nq)``.  The functions take any object with the system's
``N``, ``nq`` and ``neutral_joint_coordinates`` (a :class:`~spatial.maximal.System`).
"""

from __future__ import annotations

import numpy as np

from .._validate import as_array
from ..se3 import _as_frame


def _check_system_state(system, T, phi=None):
    """Validate ``T (..., N, 4, 4)`` (and ``φ (..., N, 6)``) against the system's body count."""
    T = _as_frame(T, "T")
    if T.ndim < 3 or T.shape[-3] != system.N:
        raise ValueError(
            f"T must have shape (..., {system.N}, 4, 4), one frame per body, got {T.shape}"
        )
    if phi is None:
        return T, None
    phi = as_array(phi, "phi", (6,))
    if phi.ndim < 2 or phi.shape[-2] != system.N:
        raise ValueError(f"phi must have shape (..., {system.N}, 6), got {phi.shape}")
    batch = np.broadcast_shapes(T.shape[:-3], phi.shape[:-2])
    return (
        np.broadcast_to(T, batch + T.shape[-3:]),
        np.broadcast_to(phi, batch + phi.shape[-2:]),
    )


def _check_q0(system, q0, batch: tuple) -> np.ndarray:
    if q0 is None:
        return np.broadcast_to(system.neutral_joint_coordinates(), batch + (system.nq,))
    q0 = as_array(q0, "q0", (system.nq,))
    return np.broadcast_to(q0, np.broadcast_shapes(batch, q0.shape[:-1]) + (system.nq,))
