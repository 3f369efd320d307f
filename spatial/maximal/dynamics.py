"""The unconstrained dynamics of the bodies in maximal coordinates (Sueda §1.7, eqs. 1.21–1.30).

The mass matrix is block diagonal, ``M = diag(M_1, …, M_N)``, each block the constant
spatial inertia of a body in its own frame.  The bias wrenches are Newton–Euler's Coriolis term
``ad(φ)ᵀMφ`` plus gravity, body by body (Sueda eq. 1.21).

Gyroscopic wrench.  Sueda eq. 1.28 evaluates ``c(φ) = ad(φ)ᵀMφ`` at the start of the step.  Its
error is first order like the rest of the step, but it always has the same sign: ``c`` does no work
(``φᵀc = 0``), so for a free body the step changes the kinetic energy by ``+½ h² cᵀM⁻¹c >= 0``,
every step.  A chain that turns quickly (ball and cylindrical joints) gains energy this way, faster
the faster it spins.  The ``gyroscopic`` option of :func:`kkt_step` treats ``c`` like a damping
force instead, linearized about the current twist with ``D_gyro = ∂c/∂φ``
(:func:`gyroscopic_jacobian`) and weighted by ``θ``: ``M̂`` gains ``-θ h D_gyro`` and ``f̃`` gains
``-θ h D_gyro Φ`` (the role of ``D`` in Sueda eq. 1.30).  Since ``φᵀ D_gyro = -cᵀ``, the kinetic
energy change of a free body becomes ``(1 - 2θ) ½ h² cᵀM⁻¹c + O(h³)``: ``θ = 1`` ("implicit") loses
what the explicit step gains, ``θ = ½`` ("midpoint") leaves only the ``O(h³)`` remainder.  All three
are first-order accurate.  ``D_gyro`` is not symmetric, so the two linearized treatments are not
available with contact (whose friction solvers need a symmetric Delassus matrix).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._batched import T as _T
from .._batched import force_cross_bar
from .._batched import mv as _mv
from .._validate import as_array
from ..vectors import crm
from .rigid_body import _coriolis, _gravity
from .state import _check_system_state

if TYPE_CHECKING:
    from .system import System

__all__ = ["mass_matrix", "bias_wrenches", "gyroscopic_jacobian"]


def mass_matrix(system: System) -> np.ndarray:
    """Block-diagonal mass matrix ``M = diag(M_1, …, M_N)`` (6N x 6N), Sueda §1.7, §1.10.

    Each block is the body's spatial inertia in its own coordinates, constant in time.

    Parameters
    ----------
    system : System

    Returns
    -------
    ndarray, shape (6N, 6N)
    """
    n = system.N
    M = np.zeros((6 * n, 6 * n))
    for i, I in enumerate(system.inertia):
        M[6 * i : 6 * i + 6, 6 * i : 6 * i + 6] = I
    return M


def _bias(system: System, T: np.ndarray, phi: np.ndarray) -> np.ndarray:
    I = np.stack(system.inertia)
    f = _coriolis(I, phi) + _gravity(I, T, system.gravity)
    return f.reshape(f.shape[:-2] + (6 * system.N,))


def bias_wrenches(system: System, T, phi) -> np.ndarray:
    """Stacked Coriolis and gravity wrenches ``ad(φ)ᵀ M φ + M [0; Rᵀ g]`` (Sueda eq. 1.21).

    Parameters
    ----------
    system : System
    T : array_like, shape (..., N, 4, 4)
    phi : array_like, shape (..., N, 6)

    Returns
    -------
    ndarray, shape (..., 6N)
        Body wrenches in body coordinates, body by body.

    Raises
    ------
    ValueError
        If the state does not match the system.
    """
    T, phi = _check_system_state(system, T, phi)
    return _bias(system, T, phi)


def _gyroscopic_blocks(I: np.ndarray, phi: np.ndarray) -> np.ndarray:
    """``∂(ad(φ)ᵀMφ)/∂φ = ad(φ)ᵀM + [[n×], [f×]; [f×], 0]`` with ``[n; f] = Mφ``, per body.

    The second term is the derivative in the first slot: ``ad(δ)ᵀ [n; f] = [n × ω_δ + f × v_δ;
    f × ω_δ]`` for ``δ = [ω_δ; v_δ]`` (the block form of Sueda eq. 1.23 read as a function of
    ``δ``).
    """
    return _T(crm(phi)) @ I - force_cross_bar(_mv(I, phi))


def _gyroscopic_jacobian(system: System, phi: np.ndarray) -> np.ndarray:
    blocks = _gyroscopic_blocks(np.stack(system.inertia), phi)
    n = 6 * system.N
    D = np.zeros(blocks.shape[:-3] + (n, n))
    for i in range(system.N):
        D[..., 6 * i : 6 * i + 6, 6 * i : 6 * i + 6] = blocks[..., i, :, :]
    return D


def gyroscopic_jacobian(system: System, phi) -> np.ndarray:
    """Velocity Jacobian ``D_gyro = ∂(ad(φ)ᵀMφ)/∂φ`` of the stacked gyroscopic wrenches.

    Block diagonal: body ``i`` contributes ``ad(φ_i)ᵀM_i + [[n_i×], [f_i×]; [f_i×], 0]`` with
    ``[n_i; f_i] = M_i φ_i``, the derivative of the first term of Sueda eq. 1.21.
    :func:`kkt_step` uses it as a damping matrix in the linearly implicit step (Sueda eq. 1.30)
    unless ``gyroscopic="explicit"``.  The wrench is quadratic in ``φ``, so
    ``D_gyro Φ = 2 ad(φ)ᵀMφ``, and it does no work, so ``Φᵀ D_gyro = -(ad(φ)ᵀMφ)ᵀ``.

    Parameters
    ----------
    system : System
    phi : array_like, shape (..., N, 6)
        Body twists.

    Returns
    -------
    ndarray, shape (..., 6N, 6N)
        In the sign convention of :mod:`spatial.forces` (``D = ∂f/∂φ``): the step's matrix is
        ``M - h D_gyro``.

    Raises
    ------
    ValueError
        If ``phi`` does not match the system.
    """
    phi = as_array(phi, "phi", (6,))
    if phi.ndim < 2 or phi.shape[-2] != system.N:
        raise ValueError(
            f"phi must have shape (..., {system.N}, 6) for this system, got {phi.shape}"
        )
    return _gyroscopic_jacobian(system, phi)
