"""Staggered projections: frictional contact by alternating QPs (Sueda §2.11, Alg. 7,
eqs. 2.113–2.114).

Staggered projections (Alg. 7).  A velocity step with contact and friction couples the normal
impulses ``α`` (which bound friction) and the friction impulses ``β`` (which change the normal
ones).  SP alternates two small convex QPs until the normal impulses stop changing.  With the
unconstrained velocity ``q̇ᵘ = q̇ + h M⁻¹ f`` and the current friction impulse ``p_β``:

* contact: ``0 ≤ α ⟂ N (q̇ᵘ + M⁻¹ p_β + M⁻¹ Nᵀ α) + c ≥ 0``, i.e.
  ``min ½ αᵀ N M⁻¹ Nᵀ α + αᵀ (N (q̇ᵘ + M⁻¹ p_β) + c)``, ``α ≥ 0``, giving ``p_α = Nᵀ α``;
* friction: ``min ½ bᵀ T M⁻¹ Tᵀ b + bᵀ T (q̇ᵘ + M⁻¹ p_α)`` with ``|b_k| ≤ μ α_k`` (a box per
  tangent direction), giving ``p_β = Tᵀ b`` — the impulse that removes most kinetic energy;

and finally ``q̇⁺ = q̇ᵘ + M⁻¹ (p_α + p_β)``.  The convergence test is Alg. 7's
``‖p_α - p_α⁰‖_{M⁻¹} ≤ ε``.  Eq. 2.113 as printed has the opposite sign of the linear term
(``-αᵀ N q̇ᵘ``) together with ``f_α = -Nᵀα / h``; its minimizer then gives ``α = 0`` for every
approaching contact (the block of the tests falls through the floor with ``q̇ = -g h``), so
the text's pair of signs is inconsistent; the friction QP eq. 2.114 is right.  Here ``N`` and
``T`` are contact rows in reduced coordinates (``C_m J_mr``, :mod:`.constraints`), and the QPs
are LCPs solved with the package's solvers; ``c`` lets a separated contact close its gap
within the step (as :func:`~spatial.reduced.constrained_step`).

The joints' own friction, by the bilateral variant BISP, is in :mod:`.bisp`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._validate import friction_coefficients, integer, positive_scalar
from ..model import Model
from ..solvers import qp
from ..solvers.friction import tangent_basis
from ..solvers.lcp import LCPError
from .constraints import PointContact, _check_items, _check_state, _stack
from .inverse_inertia import _factor
from .jacobian import _jacobian
from .redmax import _force, _redmax_pass

__all__ = ["StaggeredResult", "staggered_step"]


class StaggeredResult(NamedTuple):
    """A staggered step: ``qd`` the new velocity, ``alpha`` the normal impulses, ``beta`` the
    friction impulses (one per tangent row kept), ``iterations`` the SP/BISP sweeps."""

    qd: np.ndarray
    alpha: np.ndarray
    beta: np.ndarray
    iterations: int


# ----------------------------------------------------------------------------- kernels


def _tangent_rows(model, fp, q, qd, contacts, N):
    """Two friction rows per contact, the directions of :func:`spatial.solvers.tangent_basis`
    (a zero row, a direction the tree cannot move, is dropped); ``owner[k]`` is row ``k``'s
    contact."""
    tangents = [
        PointContact(ct.body, ct.point, tuple(t))
        for ct in contacts
        for t in tangent_basis(ct.normal)
    ]
    T = _stack(model, fp, q, qd, tangents).G
    owner = np.repeat(np.arange(len(contacts)), 2)
    keep = np.linalg.norm(T, axis=1) > 1e-12 * (1.0 + np.abs(N).max(initial=0.0))
    return T[keep], owner[keep]


def _box_lcp(method, A, b, lo, hi, options, what):
    """``min ½ xᵀAx + xᵀb`` on the box ``[lo, hi]`` as a bounded LCP; raises if not converged."""
    if A.shape[0] == 0:
        return np.zeros(0)
    opts = qp._lcp_options(method, A.shape[0], dict(options or {}), bounded=True)
    res = qp._lcp_kernel(method, A, b, lo, hi, **opts)
    if not res.converged:
        raise LCPError(f"{what}: {res.message}")
    return res.z


def _friction(method, B, u, bound, options):
    """The friction QP (eq. 2.114) in the sign of the text's ``β = -b``: returns ``b``."""
    return _box_lcp(method, B, u, -bound, bound, options, "friction QP")


def _m_norm(factor, p):
    return float(np.sqrt(max(p @ factor._solve(p[:, None])[:, 0], 0.0)))


def _check_common(model, q, qd, h, tau, f_ext, tol, max_iter, method, who):
    h = positive_scalar(h, "h")
    tol = positive_scalar(tol, "tol")
    integer(max_iter, "max_iter", minimum=1)
    qp._check_method(method, False)
    q, qd, tau, f_ext = _check_state(model, q, qd, tau, f_ext, who)
    fp = _redmax_pass(model, q, qd)
    J = _jacobian(model, fp)
    factor = _factor(model, fp, (), None, None)
    f = _force(model, fp, J, q, qd, tau, f_ext)
    v_unc = qd + h * factor._solve(f[:, None])[:, 0]
    return h, q, qd, tau, f_ext, fp, J, factor, v_unc


def _not_converged(what, max_iter, change):
    raise LCPError(
        f"{what} did not converge in {max_iter} iterations (last change of the normal impulse "
        f"in the M⁻¹ norm: {change:.3g}); raise max_iter or tol"
    )


# ----------------------------------------------------------------------------- public API


def staggered_step(
    model: Model,
    q,
    qd,
    h,
    contacts,
    mu,
    tau=None,
    *,
    f_ext=None,
    stabilization: float = 0.0,
    tol: float = 1e-10,
    max_iter: int = 100,
    method: str = "lemke",
    solver_options: dict | None = None,
) -> tuple[np.ndarray, StaggeredResult]:
    """One velocity step with frictional contacts by staggered projections (Sueda Alg. 7).

    Each contact (a :class:`~spatial.reduced.PointContact`) has the two friction directions of
    :func:`spatial.solvers.tangent_basis`; a direction in which the tree cannot move (a zero
    row) carries no friction and is dropped.  ``q⁺ = integrate(q, q̇⁺, h)``.

    Parameters
    ----------
    model : Model
    q : array_like, shape (nq,)
    qd : array_like, shape (nv,)
    h : float
        Time step, > 0.
    contacts : sequence of PointContact
    mu : float or array_like, shape (len(contacts),)
        Friction coefficients, ≥ 0.
    tau : array_like, shape (nv,), optional
    f_ext : array_like, shape (NB + 1, 6), optional
    stabilization : float
        ``γ ∈ [0, 1]`` for penetrating contacts, as :func:`~spatial.reduced.constrained_step`.
    tol : float
        Convergence tolerance on the normal impulse change (``M⁻¹`` norm).
    max_iter : int
    method : str
        LCP solver (:func:`spatial.solvers.solve_qp`'s methods).
    solver_options : dict, optional

    Returns
    -------
    q_next : ndarray, shape (nq,)
    result : StaggeredResult

    Raises
    ------
    ValueError, TypeError
        For invalid input (negative ``mu``, wrong shapes, ``γ`` outside [0, 1]); for a model
        with loop joints, as :func:`~spatial.reduced.constrained_forward_dynamics`.
    spatial.solvers.LCPError
        If a QP or the staggering does not converge.
    """
    h, q, qd, tau, f_ext, fp, J, factor, v_unc = _check_common(
        model, q, qd, h, tau, f_ext, tol, max_iter, method, "staggered_step"
    )
    contacts = _check_items(model, contacts, (PointContact,), "contacts")
    mu = friction_coefficients(mu, len(contacts))
    if not 0.0 <= float(stabilization) <= 1.0:
        raise ValueError(f"stabilization γ must be in [0, 1], got {stabilization!r}")
    rows = _stack(model, fp, q, qd, contacts)
    N, gap = rows.G, rows.error
    c = np.maximum(gap, 0.0) / h + stabilization * np.minimum(gap, 0.0) / h
    Tr, owner = _tangent_rows(model, fp, q, qd, contacts, N)
    MiN, MiT = factor._solve(N.T), factor._solve(Tr.T)
    A_N, A_T = N @ MiN, Tr @ MiT
    p_alpha0, p_beta = np.zeros(model.nv), np.zeros(model.nv)
    b = np.zeros(len(Tr))
    for it in range(1, int(max_iter) + 1):
        v1 = v_unc + factor._solve(p_beta[:, None])[:, 0]
        alpha = _box_lcp(
            method,
            A_N,
            N @ v1 + c,
            np.zeros(len(N)),
            np.full(len(N), np.inf),
            solver_options,
            "contact QP",
        )
        p_alpha = N.T @ alpha
        change = _m_norm(factor, p_alpha - p_alpha0)
        if it > 1 and change <= tol * (1.0 + _m_norm(factor, p_alpha)):
            break
        p_alpha0 = p_alpha
        v2 = v_unc + MiN @ alpha
        b = _friction(method, A_T, Tr @ v2, mu[owner] * alpha[owner], solver_options)
        p_beta = Tr.T @ b
    else:
        _not_converged("staggered projections", max_iter, change)
    v = v_unc + factor._solve((p_alpha + p_beta)[:, None])[:, 0]
    return model._per_joint("integrate", q, v, h), StaggeredResult(v, alpha, b, it)
