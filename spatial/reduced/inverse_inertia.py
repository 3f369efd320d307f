"""The inverse reduced inertia ``M_r⁻¹`` by recursive forward dynamics (Sueda §2.13, Alg. 10).

A forward-dynamics algorithm solves ``M_r q̈ = f`` for any right-hand side ``f``.  Feeding it an
arbitrary vector ``x`` as the generalized force, with no velocities and no gravity, it returns
``M_r⁻¹ x`` without ever forming ``M_r``.  The articulated-body recursion (Featherstone
Table 7.1; Sueda's Alg. 10 writes it in adjoint notation) splits into two parts:

* what depends on the configuration only — the articulated inertias.  From the leaves to the
  root, ``Î_i = I_i + Σ_c ^cX_iᵀ Π_c ^cX_i`` (a body plus what its children's subtrees offer
  through their joints), ``Ψ_i = (S_iᵀ Î_i S_i)⁻¹`` and ``Π_i = Î_i - Î_i S_i Ψ_i S_iᵀ Î_i``
  (Alg. 10 lines 9–11).  This pass is done once per configuration and kept in an
  :class:`InertiaFactor`;
* what depends on ``x`` — a backward pass that carries the forces ``β`` towards the root,
  ``B̂_i = Σ_c ^cX_iᵀ β_c``, ``β_i = B̂_i + Î_i S_i Ψ_i (x_i - S_iᵀ B̂_i)`` (lines 16–17), and a
  forward pass that recovers the accelerations,
  ``y_i = Ψ_i (x_i - S_iᵀ Î_i ^iX_λ(i) a_λ(i) - S_iᵀ B̂_i)``,
  ``a_i = ^iX_λ(i) a_λ(i) + S_i y_i`` (lines 20–21), starting from ``a_0 = 0``.

Each product costs ``O(NB)``; the ``nv`` columns of the identity give ``M_r⁻¹`` in
``O(NB · nv)``, i.e. ``O(n²)`` — the same order as merely forming ``M_r``.  Here the body frame
is the joint's successor frame (Featherstone's convention), so Sueda's ``M_j = ^iAdᵀ M_i ^iAd``
is simply the model's spatial inertia ``I_i``.

Preconditioner for the linearly implicit step (§2.5, Alg. 10 lines 5–8).  The step of
:func:`~spatial.reduced.redmax_step` solves with ``M_r + h D + h² K``.  A joint's own damping and
stiffness enter its ``Ψ`` (``Ψ_i = (S_iᵀ Î_i S_i + h D_i + h² K_i)⁻¹``), exactly as a rotor's
reflected inertia does in Featherstone's eq. 9.28, and a body-fixed (maximal) damping or
stiffness enters its ``Î_i`` like extra inertia.  Couplings between different joints or
bodies would break the tree structure and are not allowed.  The book writes the terms as
``hD - h²K`` with ``K = +∂f/∂q``; the package's ``K`` is ``-∂f/∂q`` (positive semidefinite, as
in :mod:`.implicit`), hence the ``+``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import as_array, positive_scalar, real_array
from ..kinematics import _forward_pass
from ..model import Model

__all__ = ["InertiaFactor", "inverse_inertia_factor", "inverse_inertia_product", "inverse_inertia"]


def _T(A: np.ndarray) -> np.ndarray:
    return np.swapaxes(A, -1, -2)


@dataclass(frozen=True)
class InertiaFactor:
    """The configuration-dependent part of Alg. 10 (its lines 2–12), reusable for any ``x``.

    Built by :func:`inverse_inertia_factor`.  Lists are indexed by body number (entry 0 unused).

    Attributes
    ----------
    model : Model
    Xup : list of ndarray (..., 6, 6)
        ``^iX_λ(i)``.
    S : list of ndarray (..., 6, n_i)
        Motion subspaces.
    U : list of ndarray (..., 6, n_i)
        ``Î_i S_i``.
    Psi : list of ndarray (..., n_i, n_i)
        ``Ψ_i = (S_iᵀ Î_i S_i + P_i)⁻¹``.
    batch : tuple
        Batch shape of the configuration.
    """

    model: Model
    Xup: list
    S: list
    U: list
    Psi: list
    batch: tuple

    def _solve(self, x: np.ndarray) -> np.ndarray:
        """Alg. 10 lines 15–22 on unvalidated columns ``x`` (..., nv, k) → (..., nv, k)."""
        model, Xup, S, U, Psi = self.model, self.Xup, self.S, self.U, self.Psi
        NB, k = model.NB, x.shape[-1]
        batch = np.broadcast_shapes(self.batch, x.shape[:-2])
        B = [np.zeros(batch + (6, k)) for _ in range(NB + 1)]  # B̂_i
        u = [None] * (NB + 1)
        for i in range(NB, 0, -1):  # backward pass, lines 15–18
            u[i] = x[..., model.v_index[i], :] - _T(S[i]) @ B[i]  # x_i - S_iᵀ B̂_i
            beta = B[i] + U[i] @ (Psi[i] @ u[i])
            p = model.parent[i]
            if p != 0:
                B[p] = B[p] + _T(Xup[i]) @ beta
        y = np.zeros(batch + (model.nv, k))
        a = [np.zeros(batch + (6, k))] + [None] * NB
        for i in range(1, NB + 1):  # forward pass, lines 19–22
            a_p = Xup[i] @ a[model.parent[i]]
            y_i = Psi[i] @ (u[i] - _T(U[i]) @ a_p)
            a[i] = a_p + S[i] @ y_i
            y[..., model.v_index[i], :] = y_i
        return y

    def solve(self, x) -> np.ndarray:
        """``y = M_r⁻¹ x`` (or the preconditioned inverse) in ``O(NB)`` (Alg. 10 lines 15–22).

        Parameters
        ----------
        x : array_like, shape (..., nv)

        Returns
        -------
        y : ndarray, shape (..., nv)

        Raises
        ------
        ValueError
            If ``x`` has the wrong shape or is not finite, or its batch shape does not
            broadcast with the configuration's.
        """
        x = as_array(x, "x", (self.model.nv,))
        try:
            np.broadcast_shapes(self.batch, x.shape[:-1])
        except ValueError:
            raise ValueError(
                f"x has batch shape {x.shape[:-1]}, which does not broadcast with the "
                f"configuration's batch shape {self.batch}"
            ) from None
        return self._solve(x[..., None])[..., 0]

    def inverse(self) -> np.ndarray:
        """``M_r⁻¹`` (or the preconditioned inverse), column by column in ``O(NB · nv)``.

        Returns
        -------
        ndarray, shape (..., nv, nv)
        """
        return self._solve(np.eye(self.model.nv))


def _joint_gains(model: Model, gains, name: str) -> np.ndarray | None:
    if gains is None:
        return None
    gains = as_array(gains, name, (model.nv,))
    if gains.ndim != 1:
        raise ValueError(f"{name} must be one gain per velocity variable, shape ({model.nv},)")
    if np.any(gains < 0):
        raise ValueError(f"{name} must be nonnegative (a joint damping or stiffness), got {gains}")
    return gains


def _body_gains(model: Model, gains, name: str) -> np.ndarray | None:
    if gains is None:
        return None
    gains = real_array(gains, name)
    if gains.shape != (model.NB, 6, 6) or not np.all(np.isfinite(gains)):
        raise ValueError(
            f"{name} must be finite with shape (NB, 6, 6) = ({model.NB}, 6, 6): one body-fixed "
            f"6x6 block per body; got shape {gains.shape}"
        )
    if not np.allclose(gains, _T(gains), atol=1e-12) or np.linalg.eigvalsh(gains).min() < -1e-12:
        raise ValueError(f"{name} must hold symmetric positive semidefinite 6x6 blocks")
    return gains


def _factor(model: Model, fp, batch, joint_terms, body_terms) -> InertiaFactor:
    """Alg. 10 lines 2–12 on a validated forward pass."""
    NB = model.NB
    Ihat = [None] + [np.broadcast_to(model.inertia[i], batch + (6, 6)) for i in range(1, NB + 1)]
    if body_terms is not None:
        Ihat = [None] + [Ihat[i] + body_terms[i - 1] for i in range(1, NB + 1)]  # + P^m_i
    U, Psi = [None] * (NB + 1), [None] * (NB + 1)
    for i in range(NB, 0, -1):
        S_i = fp.S[i]
        U[i] = Ihat[i] @ S_i
        D = _T(S_i) @ U[i]
        if joint_terms is not None:
            D = D + np.diag(joint_terms[model.v_index[i]])  # + P^r_i
        eig = np.linalg.eigvalsh(D) if D.shape[-1] else np.ones(1)
        if np.any(eig <= 1e-12 * max(1.0, float(np.abs(eig).max()))):
            raise ValueError(
                f"inverse inertia: joint {i} moves a subtree with no inertia along its motion "
                "(S_iᵀ Î_i S_i is singular), so M_r is not invertible"
            )
        Psi[i] = np.linalg.inv(D)
        p = model.parent[i]
        if p != 0:
            Pi = Ihat[i] - U[i] @ Psi[i] @ _T(U[i])
            Ihat[p] = Ihat[p] + _T(fp.Xup[i]) @ Pi @ fp.Xup[i]
    return InertiaFactor(model, fp.Xup, fp.S, U, Psi, batch)


def inverse_inertia_factor(
    model: Model,
    q,
    h=None,
    damping=None,
    stiffness=None,
    body_damping=None,
    body_stiffness=None,
) -> InertiaFactor:
    """Preprocess a configuration for ``M_r⁻¹`` products (Sueda Alg. 10 lines 1–12).

    Without ``h`` the factor inverts ``M_r`` (Featherstone's ``H``).  With a step ``h`` it
    inverts the preconditioner ``M_r + Jᵀ blkdiag(h D_m + h² K_m) J + h D + h² K`` of the
    linearly implicit step, with joint gains on the diagonal and body gains block-diagonal.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    h : float, optional
        Time step, > 0; needed when any gain is given.
    damping, stiffness : array_like, shape (nv,), optional
        Joint damping ``D`` and stiffness ``K = -∂τ/∂q``, one nonnegative gain per velocity
        variable.
    body_damping, body_stiffness : array_like, shape (NB, 6, 6), optional
        Body-fixed damping and stiffness blocks in body coordinates (symmetric PSD).

    Returns
    -------
    InertiaFactor

    Raises
    ------
    ValueError
        If ``q`` is invalid, a gain has the wrong shape or sign, gains are given without
        ``h``, ``h`` is given but not a number > 0 (even without gains), or ``M_r`` (or the
        preconditioner) is singular; if the model has loop joints, as
        :func:`~spatial.reduced.redmax_mass_matrix`.
    """
    q, _, _, _ = model.check_state(q, tree_dynamics="inverse_inertia_factor")
    if h is not None:
        h = positive_scalar(h, "h")
    gains = [
        _joint_gains(model, damping, "damping"),
        _joint_gains(model, stiffness, "stiffness"),
        _body_gains(model, body_damping, "body_damping"),
        _body_gains(model, body_stiffness, "body_stiffness"),
    ]
    joint_terms = body_terms = None
    if any(g is not None for g in gains):
        if h is None:
            raise ValueError("damping or stiffness given without the time step h")
        zeros = (np.zeros(model.nv),) * 2 + (np.zeros((model.NB, 6, 6)),) * 2
        D, K, Dm, Km = (z if g is None else g for g, z in zip(gains, zeros, strict=True))
        joint_terms, body_terms = h * D + h * h * K, h * Dm + h * h * Km
    fp = _forward_pass(model, q)
    return _factor(model, fp, q.shape[:-1], joint_terms, body_terms)


def inverse_inertia_product(model: Model, q, x, **preconditioner) -> np.ndarray:
    """``y = M_r⁻¹ x`` in ``O(NB)`` by recursive forward dynamics (Sueda §2.13, Alg. 10).

    Equal to ``solve(crba(q), x)``.  To reuse the configuration's preprocessing for many
    vectors, build :func:`inverse_inertia_factor` once and call its ``solve``.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    x : array_like, shape (..., nv)
    **preconditioner
        ``h``, ``damping``, ``stiffness``, ``body_damping``, ``body_stiffness`` as for
        :func:`inverse_inertia_factor`.

    Returns
    -------
    y : ndarray, shape (..., nv)

    Raises
    ------
    ValueError
        As :func:`inverse_inertia_factor` and :meth:`InertiaFactor.solve`.

    Examples
    --------
    >>> import numpy as np, spatial as sp
    >>> from spatial.builders import simple_pendulum
    >>> model = simple_pendulum(length=2.0, mass=3.0)   # M_r = m l² = 12
    >>> sp.reduced.inverse_inertia_product(model, [0.4], [6.0])
    array([0.5])
    """
    model.check_tree("inverse_inertia_product")
    return inverse_inertia_factor(model, q, **preconditioner).solve(x)


def inverse_inertia(model: Model, q, **preconditioner) -> np.ndarray:
    """``M_r⁻¹`` built column by column in ``O(NB · nv)`` (Sueda §2.13).

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    **preconditioner
        As :func:`inverse_inertia_factor`.

    Returns
    -------
    ndarray, shape (..., nv, nv)

    Raises
    ------
    ValueError
        As :func:`inverse_inertia_factor`.
    """
    model.check_tree("inverse_inertia")
    return inverse_inertia_factor(model, q, **preconditioner).inverse()
