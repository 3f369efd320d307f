"""One constrained step for every integrator: bilateral rows, contacts and friction (§0.10).

ArtiSynth §0.10 adds the constraints to whichever velocity-level step an integrator builds,
``M̂ v⁺ = M v + h f̂`` (``M̂ = M`` for symplectic Euler, ``M - hD - h²K`` for backward Euler,
...): bilateral rows ``G`` with free multipliers ``λ``, unilateral rows ``N`` with ``θ >= 0``
complementary to their velocities, and friction rows ``D`` whose impulses are bounded by the
normal ones — a box ``|φ| <= μθ̂`` with ``θ̂`` an estimate (eqs. 0.5–0.6), or the Anitescu–Stewart
polyhedral cone with its slip variables ``ξ`` and the matrix ``E``.

:func:`constrained_step` solves that system in two stages.  First the bilateral KKT system alone
(``M̂ v + ... = b + Gᵀλ``, ``G v = g``) gives the free velocity ``v₀``; eliminating ``λ`` leaves the
contact rows ``J = [N; D]`` acting through the projected inverse ``P = M̂⁻¹ - M̂⁻¹Gᵀ(G M̂⁻¹Gᵀ)⁻¹G M̂⁻¹``
(the inverse mass seen by motions that respect the bilateral rows).  Then the contact problem in
contact space, ``v_c = J v₀ + (J P Jᵀ) λ_c``, is one call to :func:`spatial.solvers.solve_impulses`
with the chosen friction model (``"box"``, ``"polyhedral"``, ``"pyramid"``, ``"gauss-seidel"``),
and ``v⁺ = v₀ + P Jᵀ λ_c``.  Signs follow :mod:`spatial.solvers`: ``M̂ v⁺ = b + Gᵀλ + Jᵀλ_c``.
The reduction is :func:`spatial.solvers.mixed_lcp_to_lcp` (one factorization of the KKT matrix).
Soft contacts (ArtiSynth eq. 0.10) add ``R = γα/h²`` to the normal rows' diagonal of
``J P Jᵀ`` (``regularization``).

The package's other steps are instances of this one: :func:`spatial.maximal.kkt_step` (joints
as ``G``, ground contacts as ``J``, with the linearly implicit Euler ``M̂``) and the rigid-contact
stepper :func:`spatial.contact.step` (``M̂ = H``, no ``G``, after its impulsive collision) call
its kernel.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._validate import as_scalar_array
from ..solvers.friction import FrictionResult
from ..solvers.impulses import _impulse_inputs, _impulse_options, _solve_impulses
from ..solvers.kkt import _solve_kkt
from ..solvers.qp import _mixed_lcp_to_lcp

__all__ = ["ConstrainedStep", "constrained_step"]


class ConstrainedStep(NamedTuple):
    """The outcome of :func:`constrained_step`.

    Attributes
    ----------
    v : ndarray (n,)
        Velocity at the end of the step.
    lam : ndarray (m,)
        Bilateral impulses.
    contact : FrictionResult or None
        Contact impulses and velocities (None without contact rows).
    """

    v: np.ndarray
    lam: np.ndarray
    contact: FrictionResult | None

    @property
    def converged(self) -> bool:
        """False if the contact solver did not solve the contact problem."""
        return self.contact is None or bool(self.contact.converged)

    @property
    def message(self) -> str:
        """The contact solver's message ("" without contact rows)."""
        return "" if self.contact is None else self.contact.message


def _matrix(x, name: str, cols: int) -> np.ndarray:
    a = as_scalar_array(x, name)
    if a.ndim != 2 or a.shape[1] != cols:
        raise ValueError(f"{name} must have shape (rows, {cols}), got {a.shape}")
    return a


def _step_system(M, b) -> tuple[np.ndarray, np.ndarray]:
    """The step's matrix ``M`` (square) and right-hand side ``b`` (one entry per row), checked."""
    M = as_scalar_array(M, "M")
    if M.ndim != 2 or M.shape[0] != M.shape[1]:
        raise ValueError(f"M must be a square matrix, got shape {M.shape}")
    b = as_scalar_array(b, "b")
    if b.shape != (M.shape[0],):
        raise ValueError(f"b must have shape ({M.shape[0]},), got {b.shape}")
    return M, b


def constrained_step(
    M,
    b,
    *,
    G=None,
    g=None,
    J=None,
    mu=0.0,
    bias=None,
    friction: str = "polyhedral",
    tangent_dim: int = 2,
    k: int | None = None,
    regularization=0.0,
    tol: float = 1e-9,
) -> ConstrainedStep:
    """Velocity after one step with bilateral rows, contacts and friction (ArtiSynth §0.10).

    Parameters
    ----------
    M : array_like (n, n)
        The step's matrix ``M̂`` (symmetric positive definite).
    b : array_like (n,)
        Its right-hand side ``M v + h f̂``.
    G, g : array_like (m, n) and (m,), optional
        Bilateral rows with ``G v⁺ = g`` (``g = 0``, or ``-γ φ`` for Baumgarte feedback).
    J : array_like (nc (1 + tangent_dim), n), optional
        Contact rows ``[N; D]``: the ``nc`` normal rows, then each contact's tangent rows
        (the layout of :mod:`spatial.solvers.friction`).
    mu : float or array_like (nc,)
        Friction coefficients, >= 0.
    bias : float or array_like (nc,), optional
        Target normal velocities (e.g. ``-gap/h`` for a gap still open).
    friction : {"polyhedral", "box", "pyramid", "gauss-seidel"}
        The friction model (:func:`spatial.solvers.solve_impulses`).
    tangent_dim : int
        2 in 3D, 1 in the plane.
    k : int, optional
        Facets of a polyhedral cone.
    regularization : float or array_like (nc,)
        ``R >= 0`` added to the normal rows' diagonal of the contact problem: soft contacts,
        ``w = N v⁺ + R z̃ - bias`` with ``R = γα/h²`` (ArtiSynth eq. 0.10); 0 for hard contact.
    tol : float
        Accuracy of the contact solver, > 0.

    Returns
    -------
    ConstrainedStep

    Raises
    ------
    ValueError
        For mismatched shapes, singular bilateral rows, a negative ``mu`` or
        ``regularization``, or an unknown friction model.

    Examples
    --------
    A unit mass sliding at 1 m/s on the floor with μ = 0.5 for one step of 0.01 s under gravity:
    friction removes μ g h = 0.049 m/s.

    >>> import numpy as np
    >>> from spatial.integrators import constrained_step
    >>> b = np.array([1.0, 0.0, -9.81 * 0.01])  # M v + h f
    >>> J = np.array([[0, 0, 1.0], [1.0, 0, 0], [0, 1.0, 0]])  # normal z, tangents x, y
    >>> out = constrained_step(np.eye(3), b, J=J, mu=0.5, tangent_dim=2, friction="box")
    >>> [round(float(x), 6) for x in out.v]
    [0.95095, 0.0, 0.0]
    """
    M, b = _step_system(M, b)
    n = M.shape[0]
    G = np.zeros((0, n)) if G is None else _matrix(G, "G", n)
    g = np.zeros(len(G)) if g is None else as_scalar_array(g, "g").reshape(-1)
    if g.shape != (len(G),):
        raise ValueError(f"g must have one value per row of G ({len(G)}), got {g.shape}")
    if len(G) and np.linalg.cond(G @ np.linalg.solve(M, G.T)) > 1e13:
        raise ValueError("singular bilateral rows: G M⁻¹ Gᵀ is singular (redundant constraints)")
    options = _impulse_options(friction, k, tangent_dim, tol)
    R = as_scalar_array(regularization, "regularization")  # checked even without contact rows
    if np.any(R < 0):
        raise ValueError(f"regularization must be >= 0, got {regularization!r}")
    if J is not None:
        J = _matrix(J, "J", n)
        rows = len(J)  # mu, bias and the row layout checked on a stand-in contact problem
        if rows % (1 + tangent_dim):
            raise ValueError(
                f"J has {rows} rows, not a multiple of 1 + tangent_dim = {1 + tangent_dim} "
                "(one normal and tangent_dim tangent rows per contact)"
            )
        _, _, mu, bias = _impulse_inputs(np.eye(rows), np.zeros(rows), mu, bias, options)
        nc = rows // (1 + tangent_dim)
        regularization = np.broadcast_to(R, (nc,)) if R.ndim else R
    return _constrained_step(M, b, G, g, J, mu, bias, regularization, options)


def _constrained_step(M, b, G, g, J, mu, bias, regularization, options) -> ConstrainedStep:
    """Kernel of :func:`constrained_step` on checked input (module docstring).

    ``G``, ``g`` are given (maybe with no rows); the bilateral stage also takes a batch of
    problems (``M (..., n, n)``, ``b (..., n)``, ``G (..., m, n)``), the contact stage one.
    ``J = None`` means no contact rows; ``options`` are those of
    :func:`spatial.solvers.solve_impulses` (``_impulse_options``).  A contact problem the
    solver could not solve comes back with :attr:`ConstrainedStep.converged` False.
    """
    if J is None:
        if G.shape[-2]:
            v, lam = _solve_kkt(M, G, b, g)
        else:
            v, lam = np.linalg.solve(M, b[..., None])[..., 0], np.zeros(b.shape[:-1] + (0,))
        return ConstrainedStep(v, lam, None)
    # the bilateral rows eliminated: contact-space Delassus matrix and free contact velocities
    reduced = _mixed_lcp_to_lcp(M, G, J, b, g, np.zeros(len(J)))
    W = reduced.M
    nc = len(J) // (1 + options["tangent_dim"])
    if np.any(regularization):  # soft normal rows, ArtiSynth eq. 0.10
        W = W.copy()
        W[np.arange(nc), np.arange(nc)] += regularization
    result = _solve_impulses(W, reduced.q, mu, bias=bias, **options)
    v, lam = reduced._recover(np.concatenate([result.normal, result.tangent.reshape(-1)]))
    return ConstrainedStep(v, lam, result)
