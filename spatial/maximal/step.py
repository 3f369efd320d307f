"""The constrained, linearly implicit Euler step in maximal coordinates (Sueda §1.8–1.13).

With the forces of :mod:`spatial.forces` linearized as ``f + K δx + D δφ`` (``K = ∂f/∂x``,
``D = ∂f/∂φ``, that package's conventions), the linearly implicit Euler step (Sueda eq. 1.30,
written with the sign conventions of :mod:`spatial.forces`) and the constraints give the KKT
system

    M̂ Φ⁺ = f̃ + Gᵀλ,      G Φ⁺ = -γ g,                     (Sueda eqs. 1.73–1.74, 1.82)
    M̂ = M - h D - h² K,   f̃ = M Φ + h (ad(φ)ᵀMφ + f_gravity + f - D Φ),

followed by ``T_i⁺ = T_i exp(h [φ_i⁺])`` (Sueda eq. 1.29; ``T_i`` is body ``i``'s 4x4 frame, and
Sueda writes E for this frame).  The KKT system, with the ground contacts if any, is
solved by the package's one constrained step (:func:`spatial.integrators.constrained_step`,
ArtiSynth §0.10): this module only assembles ``M̂``, ``f̃``, ``G`` and the contact rows.

The gyroscopic wrench ``c(φ) = ad(φ)ᵀMφ`` is explicit by default (Sueda eq. 1.28); the
``gyroscopic`` option treats it like a damping force weighted by ``θ`` (``"implicit"``: 1,
``"midpoint"``: ½; :mod:`spatial.maximal.dynamics` explains the energy error of each).

``γ`` is the Baumgarte gain (velocity-level stabilization, Sueda eq. 1.82): the error shrinks by
about ``1 - hγ`` per step, ``γ = 1/h`` removes it in one step and ``γ > 2/h`` is unstable.
The acceleration-level form of eq. 1.82, ``G Φ̇ + Ġ Φ = -2α G Φ - β² g``, is offered as
``baumgarte_acceleration=(α, β)``: with ``Φ̇ ≈ (Φ⁺ - Φ)/h`` and ``h Ġ Φ ≈ (G(T exp(hφ)) - G) Φ``
(``G`` at the frames one explicit step ahead) it becomes the row
``G Φ⁺ = (1 - 2αh) G Φ - h β² g - (G(T exp(hφ)) - G) Φ``.  With ``α = β = 0`` it only keeps
``d(GΦ)/dt = 0``, so velocity errors persist and the positions drift faster than with
``G Φ⁺ = 0``.  We use
the sign convention of :mod:`spatial.solvers` (``+Gᵀλ``); Sueda writes ``+Gᵀ`` in the KKT matrix, so
his ``λ`` is minus ours and his reaction ``-Gᵀλ/h`` is our ``+Gᵀλ/h``.

Redundant constraints (more rows than independent constraints, e.g. a closed loop of hinges
whose axes are parallel) make ``G M⁻¹ Gᵀ`` singular: the step reports it with a ``ValueError``
unless a ``regularization`` ``ε > 0`` is given, which solves ``G Φ⁺ + ε λ = -γ g`` instead
(constraint regularization, ArtiSynth §0.11, with ``ε = γα/h²`` in its notation).

Batching: the states ``T (..., N, 4, 4)``, ``φ (..., N, 6)`` may carry leading batch dimensions
(a fan of initial conditions) for everything except contact, whose complementarity solvers work
on one problem at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .._batched import mv as _mv
from .._validate import nonnegative_scalar, positive_scalar
from ..forces import Force, assemble
from ..integrators.constrained import _constrained_step
from ..se3 import exp_se3
from ..simulation import Trajectory, simulate
from ..solvers.lcp import LCPError
from .constraints import _assemble_G, _errors, _joint_states_at, _stack_q
from .contact import ContactResult, GroundPlane, _contact_rows
from .dynamics import _bias, _gyroscopic_jacobian, mass_matrix
from .state import _check_system_state

if TYPE_CHECKING:
    from .system import System

__all__ = ["StepResult", "kkt_step", "simulate_system"]

_RANK_TOL = 1e-10  # relative singular-value threshold that declares G rank deficient
# treatments of the gyroscopic wrench ad(φ)ᵀMφ in kkt_step: the weight θ of its Jacobian in M̂
_GYROSCOPIC = {"explicit": 0.0, "implicit": 1.0, "midpoint": 0.5}


def _gyroscopic_weight(gyroscopic) -> float:
    """``θ`` of a ``gyroscopic`` treatment: the weight of ``D_gyro`` in the step's matrix."""
    if not isinstance(gyroscopic, str) or gyroscopic not in _GYROSCOPIC:
        raise ValueError(f"gyroscopic must be one of {tuple(_GYROSCOPIC)}, got {gyroscopic!r}")
    return _GYROSCOPIC[gyroscopic]


# ----------------------------------------------------------------------------- the KKT step


@dataclass
class StepResult:
    """The outcome of one :func:`kkt_step`.

    Attributes
    ----------
    T : ndarray, shape (..., N, 4, 4)
        Frames after the step.
    phi : ndarray, shape (..., N, 6)
        Body twists after the step.
    q : ndarray, shape (..., nq)
        Joint variables recovered at the *start* of the step (a warm start for the next one).
    error : ndarray, shape (..., m)
        Position-level joint errors ``g`` at the start of the step.
    lam : ndarray, shape (..., m)
        Joint constraint impulses (N s, N m s), ``M̂ Φ⁺ = f̃ + Gᵀλ``.
    joint_wrench : ndarray, shape (..., n_joints, 6)
        ``T_c λ / h`` per joint: the constraint wrench ``[n; f]`` the parent exerts on the child,
        in the child's joint frame F_s (zero for joints without rows).
    contact : ContactResult or None
        Contacts with the ground (possibly none) if a ground was given, else None.
    """

    T: np.ndarray
    phi: np.ndarray
    q: np.ndarray
    error: np.ndarray
    lam: np.ndarray
    joint_wrench: np.ndarray
    contact: ContactResult | None = None


def _rank_check(G: np.ndarray) -> None:
    """Raise ``ValueError`` if ``G`` does not have full row rank (redundant constraints)."""
    s = np.linalg.svd(G, compute_uv=False)
    rank = np.sum(s > _RANK_TOL * s[..., :1], axis=-1)
    worst = int(np.min(rank))
    if worst < G.shape[-2]:
        raise ValueError(
            f"singular KKT system: the {G.shape[-2]} joint constraint rows have rank {worst} "
            "(redundant constraints, e.g. an over-constrained loop); pass regularization > 0 "
            "to solve G Φ + ε λ = rhs instead (ArtiSynth §0.11)"
        )


def _regularize(M: np.ndarray, G: np.ndarray, eps: float):
    """Augmented system for ``G Φ + ε λ = rhs``: variables ``(Φ, s)``, ``s = √ε λ``."""
    n, m = M.shape[-1], G.shape[-2]
    batch = np.broadcast_shapes(M.shape[:-2], G.shape[:-2])
    M_aug = np.zeros(batch + (n + m, n + m))
    M_aug[..., :n, :n] = M
    M_aug[..., n:, n:] = np.eye(m)
    G_aug = np.zeros(batch + (m, n + m))
    G_aug[..., :, :n] = G
    G_aug[..., :, n:] = np.sqrt(eps) * np.eye(m)
    return M_aug, G_aug


def _acceleration_gains(gains, gamma: float) -> tuple[float, float] | None:
    """Validated ``(α, β)`` of acceleration-level Baumgarte, or None."""
    if gains is None:
        return None
    pair = np.asarray(gains, dtype=object)
    if pair.shape != (2,):
        raise ValueError(f"baumgarte_acceleration must be a pair (alpha, beta), got {gains!r}")
    alpha, beta = pair
    alpha = nonnegative_scalar(alpha, "baumgarte_acceleration alpha")
    beta = nonnegative_scalar(beta, "baumgarte_acceleration beta")
    if gamma > 0:
        raise ValueError(
            "use either baumgarte (velocity level) or baumgarte_acceleration, not both"
        )
    return alpha, beta


def _acceleration_rhs(system, T, phi, h, q0, G, g, batch, alpha, beta) -> np.ndarray:
    """Right-hand side ``(1 - 2αh) G Φ - h β² g - (G(T exp(hφ)) - G) Φ`` of the constraint rows
    (acceleration-level Baumgarte, Sueda eq. 1.82; module docstring)."""
    Phi = phi.reshape(batch + (6 * system.N,))
    states_ahead, _ = _joint_states_at(system, T @ exp_se3(h * phi), q0)
    G_ahead = _assemble_G(system, states_ahead, batch)
    return (1.0 - 2.0 * alpha * h) * _mv(G, Phi) - h * beta**2 * g - _mv(G_ahead - G, Phi)


def _check_forces(forces) -> tuple:
    """``forces`` as a tuple of :class:`~spatial.forces.Force` objects (else ``ValueError``)."""
    forces = tuple(forces)
    for force in forces:
        if not isinstance(force, Force):
            raise ValueError(f"forces must be spatial.forces.Force objects, got {force!r}")
    return forces


def kkt_step(
    system: System,
    T,
    phi,
    h: float,
    *,
    forces: Sequence[Force] = (),
    baumgarte: float = 0.0,
    regularization: float = 0.0,
    ground: GroundPlane | None = None,
    q0=None,
    gyroscopic: str = "explicit",
    baumgarte_acceleration: tuple[float, float] | None = None,
) -> StepResult:
    """One constrained, linearly implicit Euler step on SE(3) (Sueda §1.8–1.13).

    Solves ``M̂ Φ⁺ = f̃ + Gᵀλ``, ``G Φ⁺ = -γ g`` (module docstring; Sueda eqs. 1.30, 1.73,
    1.82) with the contacts as complementarity rows when a ground is given (Sueda eqs.
    1.79–1.80, 1.88), then moves every frame, ``T_i⁺ = T_i exp(h [φ_i⁺])`` (Sueda eq. 1.29).

    Parameters
    ----------
    system : System
    T : array_like, shape (..., N, 4, 4)
        Body frames at the start of the step.
    phi : array_like, shape (..., N, 6)
        Body twists at the start of the step.
    h : float
        Time step, > 0.
    forces : sequence of spatial.forces.Force
        Springs, dampers, muscles, point forces; their ``K`` and ``D`` make the step linearly
        implicit (``M̂ = M - hD - h²K``, :mod:`spatial.forces` sign conventions).
    baumgarte : float
        Gain ``γ >= 0`` (1/s) of velocity-level Baumgarte stabilization (Sueda eq. 1.82);
        0 leaves position drift uncorrected, ``1/h`` removes it in one step.
    regularization : float
        ``ε >= 0``: solve ``G Φ⁺ + ε λ = -γ g`` (ArtiSynth §0.11), which makes redundant
        constraints solvable; 0 (default) enforces the constraints exactly.
    ground : GroundPlane, optional
        Contact of the system's contact points with a plane (single states only).
    q0 : array_like, shape (..., nq), optional
        Warm start for the joint variables (the previous step's ``result.q``).
    gyroscopic : {"explicit", "implicit", "midpoint"}
        The gyroscopic wrench ``ad(φ)ᵀMφ``: ``"explicit"`` (default, Sueda eq. 1.28) at the
        start of the step, which adds kinetic energy every step; ``"implicit"`` linearized at
        the end of the step (its Jacobian :func:`gyroscopic_jacobian` enters ``M̂`` like damping),
        which removes it; ``"midpoint"`` halfway (weight ½), whose energy error is of higher
        order (:mod:`spatial.maximal.dynamics`).  ``D_gyro`` is not symmetric, so the last two
        cannot be combined with ``ground`` (the friction solvers need a symmetric Delassus
        matrix).
    baumgarte_acceleration : (float, float), optional
        Gains ``(α, β)``, both ``>= 0`` (1/s), of acceleration-level Baumgarte stabilization
        (Sueda eq. 1.82, second line; module docstring), instead of the velocity-level ``γ``.

    Returns
    -------
    StepResult

    Raises
    ------
    ValueError
        If an input is invalid or does not match the system, a joint cannot be recovered, the
        constraints are redundant (``regularization = 0``), contact is requested for a batch
        of states, ``gyroscopic`` is not one of the three treatments or is not
        ``"explicit"`` with contact, or ``baumgarte_acceleration`` is not two gains >= 0 or is
        combined with ``baumgarte > 0``.
    spatial.solvers.LCPError
        If the contact solver does not converge.
    """
    T, phi = _check_system_state(system, T, phi)
    theta = _gyroscopic_weight(gyroscopic)
    h = positive_scalar(h, "h (time step)")
    gamma = nonnegative_scalar(baumgarte, "baumgarte")
    eps = nonnegative_scalar(regularization, "regularization")
    accel = _acceleration_gains(baumgarte_acceleration, gamma)
    if ground is not None and not isinstance(ground, GroundPlane):
        raise ValueError(f"ground must be a GroundPlane or None, got {ground!r}")
    if ground is not None and T.ndim != 3:
        raise ValueError("contact needs a single state: T of shape (N, 4, 4), no batch dimensions")
    if ground is not None and theta:
        raise ValueError(
            f"gyroscopic={gyroscopic!r} does not work with contact: D_gyro makes M̂ non-symmetric "
            "and the friction solvers need a symmetric Delassus matrix; use 'explicit'"
        )
    forces = _check_forces(forces)

    n = 6 * system.N
    states, batch = _joint_states_at(system, T, q0)
    T = np.broadcast_to(T, batch + T.shape[-3:])
    phi = np.broadcast_to(phi, batch + phi.shape[-2:])
    G = _assemble_G(system, states, batch)
    g = _errors(system, states, batch)
    rhs = -gamma * g
    if accel is not None:
        rhs = _acceleration_rhs(system, T, phi, h, q0, G, g, batch, *accel)

    # linearly implicit Euler: (M - hD - h²K) Φ⁺ = M Φ + h (f_bias + f - D Φ)   (Sueda eq. 1.30)
    M = np.broadcast_to(mass_matrix(system), batch + (n, n))
    Phi = phi.reshape(batch + (n,))
    f_tilde = _mv(M, Phi) + h * _bias(system, T, phi)
    if theta:
        D = theta * _gyroscopic_jacobian(system, phi)
        M = M - h * D
        f_tilde = f_tilde - h * _mv(D, Phi)
    if forces:
        f, K, D = assemble(forces, T, phi)
        M = M - h * D - h * h * K
        f_tilde = f_tilde + h * (f - _mv(D, Phi))

    m = system.m
    if m and eps == 0.0:
        _rank_check(G)
    if m and eps > 0.0:
        M_solve, G_solve = _regularize(M, G, eps)
        f_solve = np.concatenate([f_tilde, np.zeros(batch + (m,))], -1)
    else:
        M_solve, G_solve, f_solve = M, G, f_tilde

    # the one constrained step of ArtiSynth §0.10: joints as G, ground contacts as J = [N; D]
    contact, J_solve, bias, mu, friction = None, None, None, 0.0, "polyhedral"
    if ground is not None:
        mu, friction = ground.mu, ground.friction
        bodies, points, gap, J = _contact_rows(system, T, ground)
        J_solve = np.zeros((len(J), M_solve.shape[-1]))
        J_solve[:, :n] = J
        bias = -np.maximum(gap, 0.0) / h - gamma * np.minimum(gap, 0.0)
    options = dict(friction=friction, k=None, tangent_dim=2, tol=1e-9)
    out = _constrained_step(M_solve, f_solve, G_solve, rhs, J_solve, mu, bias, 0.0, options)
    if not out.converged:
        raise LCPError(f"contact problem with {len(bodies)} contacts: {out.contact.message}")
    x, lam = out.v, out.lam
    if ground is not None:
        contact = ContactResult(bodies, points, gap, out.contact.normal, out.contact.tangent)

    phi_next = x[..., :n].reshape(batch + (system.N, 6))
    T_next = T @ exp_se3(h * phi_next)
    wrench = np.zeros(batch + (len(system.joints), 6))
    for j, (jc, st) in enumerate(zip(system.joints, states, strict=True)):
        wrench[..., j, :] = _mv(st.T_c, lam[..., jc.rows]) / h
    return StepResult(T_next, phi_next, _stack_q(system, states, batch), g, lam, wrench, contact)


def simulate_system(
    system: System,
    T0,
    phi0,
    h: float,
    n_steps: int,
    **options,
) -> Trajectory:
    """Simulate a maximal-coordinate system with ``n_steps`` calls of :func:`kkt_step`.

    A thin wrapper of the package's one loop: ``spatial.simulate(system, T0, phi0, h,
    steps=n_steps, **options)``.  Each step is warm-started with the joint variables recovered
    at the end of the previous one.

    Parameters
    ----------
    system : System
    **options
        Those of :func:`kkt_step` (``forces``, ``baumgarte``, ``regularization``, ``ground``,
        ``gyroscopic``), and ``q0``, which warm-starts the first step only.
    T0 : array_like, shape (..., N, 4, 4)
    phi0 : array_like, shape (..., N, 6)
        Initial state.
    h : float
        Time step, > 0.
    n_steps : int
        Number of steps, >= 0.

    Returns
    -------
    spatial.Trajectory
        ``q`` the frames ``T (n, ..., N, 4, 4)``, ``v`` the twists ``φ (n, ..., N, 6)``, and the
        records ``joint_q`` (joint variables), ``error`` (joint errors ``g``), ``joint_wrench``
        (each joint's constraint wrench during the step that led to the state, zero for the
        first) and ``contact`` (:class:`ContactResult` or None), one row per state.

    Raises
    ------
    ValueError
        As :func:`kkt_step`, or if ``n_steps`` is not a non-negative integer.
    """
    return simulate(system, T0, phi0, h, steps=n_steps, **options)
