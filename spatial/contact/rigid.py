"""Rigid contact in a rigid-body system: the contact LCP of joint-space dynamics.

**Acceleration level** (Featherstone §11.1–11.5).  With ``T = [t₁ … t_nc]`` the contact normals
in joint space (eq. 11.25), the equation of motion ``H q̈ + C = τ + T λ`` (eq. 11.41) and the
separation accelerations ``ζ̇ = Tᵀ q̈ + Ṫᵀ q̇`` (eq. 11.33) give ``ζ̇ = M λ + d`` with

    M = Tᵀ H⁻¹ T,      d = Tᵀ H⁻¹ (τ - C) + Ṫᵀ q̇                 (eqs. 11.35–11.36),

and the contact forces solve the LCP ``0 <= λ ⟂ ζ̇ >= 0`` (eq. 11.42), or the QP in ``λ`` of
eq. 11.43.  Lötstedt's alternative, eq. 11.44, minimizes over ``q̈`` instead: the acceleration
closest, in the metric of ``H``, to the unconstrained one ``H⁻¹(τ - C)``, among those that do not
push the contacts into each other (Gauss's principle of least constraint with inequalities;
:func:`gauss_acceleration`).  ``M`` is symmetric
positive semidefinite; when the normals are linearly dependent the LCP may have no solution
(Example 11.1), which the pivoting solvers report instead of returning a wrong number.

**Velocity level** (ArtiSynth §0.10, Sueda §1.11–1.13).  Over a time step ``h`` the same
structure holds for impulses: with the Delassus matrix ``W = J H⁻¹ Jᵀ`` of the contact rows
``J = [N; T]`` and the free contact velocity ``u = J v_free``, the impulses solve
``0 <= λ_n ⟂ u_n + (Wλ)_n - bias >= 0`` plus a friction law.  That problem involves matrices
only; :func:`spatial.solvers.solve_impulses` solves it with a friction model chosen by name.

Both functions check their arguments once; :func:`contact_acceleration` then calls the LCP
solvers' kernels (:mod:`spatial.solvers`) on the matrix it has formed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import real_array, square_matrix, vector
from ..solvers.lcp import Checkable, LCPResult
from ..solvers.qp import _lcp_kernel, _lcp_options, _solve_mixed_lcp

__all__ = ["ContactAcceleration", "contact_acceleration", "contact_lcp", "gauss_acceleration"]


def _HTinv(H: np.ndarray, T: np.ndarray) -> np.ndarray:
    try:
        return np.linalg.solve(H, T)
    except np.linalg.LinAlgError:
        raise ValueError("H must be nonsingular (a joint-space inertia matrix)") from None


def _columns(T, name: str, n: int, nc: int | None = None) -> np.ndarray:
    T = real_array(T, name)
    if T.ndim != 2 or T.shape[0] != n or (nc is not None and T.shape[1] != nc):
        want = f"({n}, {'nc' if nc is None else nc})"
        raise ValueError(f"{name} must be a matrix of shape {want}, got {T.shape}")
    if not np.all(np.isfinite(T)):
        raise ValueError(f"{name} contains non-finite values")
    return T


def contact_lcp(H, force, T, tdot_qd=None, T_force=None) -> tuple[np.ndarray, np.ndarray]:
    """The contact LCP ``ζ̇ = M λ + d`` of a rigid-body system (Featherstone eqs. 11.34–11.36).

    Frictionless contacts push along their normals, so the same ``T`` maps forces and
    velocities and ``M`` is symmetric.  A contact that *slides* with Coulomb friction pushes
    along ``t_n - μ σ t_t`` instead (``σ`` the sign of the slip): pass those columns as
    ``T_force``, and ``M = Tᵀ H⁻¹ T_force`` is no longer symmetric (Painlevé's paradox).

    Parameters
    ----------
    H : array_like, shape (n, n)
        Joint-space inertia matrix.
    force : array_like, shape (n,)
        ``τ - C``: the applied joint forces minus the bias force.
    T : array_like, shape (n, nc)
        Contact normals in joint space, one column ``t_i`` per contact (eq. 11.31).
    tdot_qd : array_like, shape (nc,), optional
        ``Ṫᵀ q̇`` (eq. 11.30), the separation accelerations at ``q̈ = 0`` and ``λ = 0``
        (default zeros: a system at rest).
    T_force : array_like, shape (n, nc), optional
        Joint-space directions of the contact forces (default ``T``).

    Returns
    -------
    M : numpy.ndarray, shape (nc, nc)
    d : numpy.ndarray, shape (nc,)

    Raises
    ------
    ValueError
        For mismatched shapes, non-finite input or a singular ``H``.
    """
    return _contact_lcp(*_contact_inputs(H, force, T, tdot_qd, T_force))


def _contact_inputs(H, force, T, tdot_qd, T_force):
    """Check the arguments of :func:`contact_lcp`, filling in ``tdot_qd`` and ``T_force``."""
    H = square_matrix(H, "H")
    n = H.shape[0]
    force = vector(force, "force", n)
    T = _columns(T, "T", n)
    nc = T.shape[1]
    T_force = T if T_force is None else _columns(T_force, "T_force", n, nc)
    tdot_qd = np.zeros(nc) if tdot_qd is None else vector(tdot_qd, "tdot_qd", nc)
    return H, force, T, tdot_qd, T_force


def _contact_lcp(H, force, T, tdot_qd, T_force) -> tuple[np.ndarray, np.ndarray]:
    """Kernel of :func:`contact_lcp`: ``M = Tᵀ H⁻¹ T_force``, ``d = Tᵀ H⁻¹ force + Ṫᵀq̇``."""
    HiT = _HTinv(H, T)
    return HiT.T @ T_force, HiT.T @ force + tdot_qd


@dataclass
class ContactAcceleration(Checkable):
    """Solution of the acceleration-level contact problem (Featherstone eqs. 11.41–11.42).

    Attributes
    ----------
    qdd : numpy.ndarray, shape (n,)
        Joint accelerations ``H⁻¹ (τ - C + T λ)``.
    force : numpy.ndarray, shape (nc,)
        Contact force magnitudes ``λ >= 0``.
    separation_acceleration : numpy.ndarray, shape (nc,)
        ``ζ̇ = M λ + d >= 0``.
    converged : bool
        False when the LCP solver found no solution (e.g. Example 11.1).
    message : str
    lcp : LCPResult
    """

    qdd: np.ndarray
    force: np.ndarray
    separation_acceleration: np.ndarray
    converged: bool
    message: str
    lcp: LCPResult


def contact_acceleration(
    H, force, T, tdot_qd=None, T_force=None, *, method: str = "lemke", **options
) -> ContactAcceleration:
    """Accelerations and contact forces of a system with frictionless point contacts (§11.3–11.5).

    Forms the LCP of :func:`contact_lcp`, solves it, and returns ``q̈`` from eq. 11.41,
    ``q̈ = H⁻¹ (τ - C + T_force λ)``.  If the
    LCP has no solution the result says so (``converged=False`` with the solver's message;
    ``.check()`` raises :class:`~spatial.solvers.LCPError`).

    Parameters
    ----------
    H, force, T, tdot_qd, T_force :
        As for :func:`contact_lcp`.
    method : {"lemke", "principal_pivoting"}
        LCP solver (both process the positive semidefinite ``M`` and detect infeasibility).
    **options
        Passed to the solver.

    Returns
    -------
    ContactAcceleration

    Raises
    ------
    ValueError
        As for :func:`contact_lcp`, or for an unknown method.
    """
    if method not in ("lemke", "principal_pivoting"):
        raise ValueError(f"method must be 'lemke' or 'principal_pivoting', got {method!r}")
    H, force, T, tdot_qd, T_force = _contact_inputs(H, force, T, tdot_qd, T_force)
    options = _lcp_options(method, T.shape[1], options)
    M, d = _contact_lcp(H, force, T, tdot_qd, T_force)
    res = _lcp_kernel(method, M, d, **options)
    lam = res.z
    qdd = _HTinv(H, force + T_force @ lam)
    message = res.message if res.converged else "no contact forces found: " + res.message
    return ContactAcceleration(qdd, lam, res.w, res.converged, message, res)


def gauss_acceleration(H, force, T, tdot_qd=None, *, method: str = "lemke") -> ContactAcceleration:
    """Accelerations by Gauss's principle with contacts, Lötstedt's QP (Featherstone eq. 11.44).

    Minimize ``½ (q̈ - q̈₀)ᵀ H (q̈ - q̈₀)`` with ``q̈₀ = H⁻¹(τ - C)``, subject to
    ``Tᵀ q̈ + Ṫᵀ q̇ >= 0``.  Dropping the constant, this is ``½ q̈ᵀ H q̈ - q̈ᵀ(τ - C)``, solved by
    :func:`spatial.solvers.solve_qp`.  Its KKT conditions read ``H q̈ = τ - C + T z`` with
    ``0 <= z ⟂ Tᵀq̈ + Ṫᵀq̇ >= 0``: eqs. 11.41–11.42 with ``z = λ``, so the QP's multipliers are
    the contact forces and ``q̈`` equals :func:`contact_acceleration`'s (unique even when ``λ`` is
    not).

    Parameters
    ----------
    H, force, T, tdot_qd :
        As for :func:`contact_lcp` (frictionless contacts only).
    method : {"lemke", "principal_pivoting"}
        LCP solver used for the QP.

    Returns
    -------
    ContactAcceleration
        ``force`` holds the multipliers ``z``; ``separation_acceleration`` the slacks.

    Raises
    ------
    ValueError
        As for :func:`contact_lcp`, or for an unknown method.
    """
    if method not in ("lemke", "principal_pivoting"):
        raise ValueError(f"method must be 'lemke' or 'principal_pivoting', got {method!r}")
    H, force, T, tdot_qd, _ = _contact_inputs(H, force, T, tdot_qd, None)
    n = H.shape[0]
    res = _solve_mixed_lcp(
        H, np.zeros((0, n)), T.T, force, np.zeros(0), -tdot_qd, method, False, {}
    )
    message = res.message if res.converged else "no accelerations found: " + res.message
    return ContactAcceleration(res.x, res.z, res.w, res.converged, message, res.lcp)
