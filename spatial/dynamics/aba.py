"""Forward dynamics of a kinematic tree by the articulated-body algorithm (Featherstone ch. 7).

The articulated-body inertia ``I^A_i`` of body ``i`` is the inertia the body *appears* to have
when the rest of its subtree hangs from it through free-moving joints: a force ``f`` on body
``i`` gives it the acceleration ``a`` with ``f = I^A_i a + p^A_i`` (eq. 7.2).  Knowing
``I^A_i`` and the bias force ``p^A_i`` of every body, the joint accelerations follow one joint
at a time from the base outwards (eqs. 7.30–7.31).  The algorithm makes three passes over the
tree, all in body coordinates (Table 7.1):

1. outwards: joint transforms, body velocities ``v_i``, velocity-product accelerations ``c_i``
   and the rigid-body bias forces ``p_i`` (eqs. 7.32–7.36);
2. inwards: ``I^A_i`` and ``p^A_i`` by the assembly formulae (eqs. 7.37–7.48), keeping
   ``U_i = I^A_i S_i``, ``D_i = S_iᵀ U_i`` and ``u_i = τ_i - S_iᵀ p^A_i``;
3. outwards: ``q̈_i = D_i⁻¹ (u_i - U_iᵀ a'_i)`` and the body accelerations (eqs. 7.49–7.50),
   starting from the fictitious base acceleration ``a_0 = -a_g`` that stands for gravity.

The cost is ``O(N_B)``.  ``D_i`` is ``n_i x n_i`` for a joint with ``n_i`` degrees of freedom
(a division for the usual 1-DoF joints, a linear solve otherwise).  Featherstone §7.4 derives
other assembly formulae from the same five equations (Table 7.2); ``assembly="variant1"``
(inverse inertias ``Φ^A = (I^A)⁻¹`` and bias accelerations) and ``assembly="variant2"``
(articulated inertias with the joint's constraint-force subspace ``T``) run the algorithm with
them and give the same ``q̈``.

What does not change from call to call is prepared once (Featherstone §10.3 and App. A.5 make
the same point for compiled code): the joint transforms ``^iX_λ(i)`` of all bodies come first,
in one product per joint class (:func:`spatial.kinematics._tree_transforms`), ``c_J`` is skipped
for joints with a constant ``S``, and when ``S = e_k`` the products ``I^A_i S_i`` and
``S_iᵀ p^A_i`` are read off as a column and an entry.  The state's floating type (float32,
float64 or longdouble, promoted with the model's, :meth:`spatial.Model.astype`) is kept
throughout.

Conventions (``spatial.__doc__`` and the tree contract): ``q`` has shape ``(..., nq)``, ``qd``
and ``tau`` ``(..., nv)``, external forces ``f_ext`` ``(..., NB + 1, 6)`` in base coordinates
with row 0 (the base) zero; leading batch dimensions broadcast and go through the same code.
"""

from __future__ import annotations

import numpy as np

from .._batched import T as _T
from .._batched import apply_force, crm_matrix, spd_solve, symmetric, xinv  # unvalidated
from ..inertia import inertia_inverse
from ..kinematics import _joint_motions, _S_T_times, _times_S, _tree_factors, _tree_transforms
from ..model import Model
from ..vectors.factored import factored_congruence, factored_force_T_columns
from .rnea import _batch_shape, _check_f_ext

__all__ = ["aba", "articulated_inertia"]

_ASSEMBLIES = ("standard", "variant1", "variant2")


# ----------------------------------------------------------------------------- small helpers
# The inner loops call these on arrays that were validated once at the public entry point.


def _mv(A: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``A x`` for stacks of matrices (..., m, n) and vectors (..., n).

    By ``einsum`` rather than :func:`spatial._batched.mv`: on the stack of all bodies' ``v×``
    (pass 1) it is the cheaper of the two.
    """
    return np.einsum("...ij,...j->...i", A, x)


def _mTv(A: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``Aᵀ x`` for stacks of matrices (..., m, n) and vectors (..., m)."""
    return np.einsum("...ji,...j->...i", A, x)


def _col(x: np.ndarray) -> np.ndarray:
    """A batch of vectors (..., n) as column vectors (..., n, 1)."""
    return x[..., None]


def _solve(D: np.ndarray, B: np.ndarray) -> np.ndarray:
    """``D⁻¹ B`` for a small positive-definite ``D`` (..., n, n) and ``B`` (..., n, k).

    ``n = 1`` (every 1-DoF joint) is a division; ``n = 0`` (a fixed joint) gives an empty result.
    :func:`spatial._batched.spd_solve` also solves on symbols, for :mod:`spatial.symbolic`.
    """
    return spd_solve(D, B)


def _mul(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """``A @ B``; with one column in ``A`` (a 1-DoF joint) it is a broadcast product, cheaper."""
    return A * B if A.shape[-1] == 1 else A @ B


# ----------------------------------------------------------------------------- the three passes
# Inside the passes every vector is a column, (..., 6, 1) or (..., n_i, 1), so that each product
# of Table 7.1 is one ``@``.  Lists are indexed by body number; entry 0 is the base.


def _pass1(model: Model, q, qd, f_ext):
    """Pass 1 of Table 7.1: ``Xup``, ``S``, ``v``, ``c`` and ``I^A_i = I_i``, ``p^A_i = p_i``.

    ``Xup[i]`` is ``^iX_λ(i)``; ``v_i = Xup[i] v_λ(i) + v_J`` (eq. 7.34), ``c_i = c_J + v_i × v_J``
    (eq. 7.35) and ``p_i = v_i ×* I_i v_i - ^iX_0* f^x_i`` (eq. 7.36).  Only the velocities need
    the recursion: ``c_i`` and ``p_i`` of all bodies follow from them in one product each.
    """
    NB, dtype, constants = model.NB, q.dtype, model.motion_constants(q.dtype)
    batch = np.broadcast_shapes(q.shape[:-1], qd.shape[:-1])
    Xup = _tree_transforms(model, q)  # ^iX_λ(i) = X_J X_T(i) of every body
    S, v_J, c_J = _joint_motions(
        model, constants, q, qd, batch
    )  # v_J: (NB, ..., 6), body i in row i - 1
    v = [np.zeros((6, 1), dtype)] + [None] * NB
    if NB == 0:  # a model without bodies: nothing to compute
        return Xup, S, v, [None], [None], [None]
    for i in range(1, NB + 1):
        p = model.parent[i]
        v_Ji = v_J[i - 1, ..., None]
        v[i] = v_Ji if p == 0 else Xup[i] @ v[p] + v_Ji  # v_0 = 0
    V = np.stack(v[1:])[..., 0]  # (NB, ..., 6)
    v_cross = crm_matrix(V)  # v_i× of every body; v_i×* = -(v_i×)ᵀ
    # I_i v_i of every body as rows, v_iᵀ I_i (I_i is symmetric): one product per body
    IV = (V.reshape(NB, -1, 6) @ constants.inertia).reshape(V.shape)
    c = [None] + list(_mv(v_cross, v_J)[..., None])  # c_J = 0 for a constant S, else below
    pA = [None] + list(-_mTv(v_cross, IV)[..., None])
    X0 = [None] * (NB + 1)
    for i in range(1, NB + 1):
        if c_J[i] is not None:
            c[i] = c[i] + _col(c_J[i])
        if f_ext is not None:
            p = model.parent[i]
            X0[i] = Xup[i] if p == 0 else Xup[i] @ X0[p]  # ^iX_0
            pA[i] = pA[i] - _col(apply_force(X0[i], f_ext[..., i, :]))
    IA = [None] + list(constants.inertia)  # read-only: pass 2 builds new arrays
    return Xup, S, v, c, IA, pA


def _pass2(model: Model, Xup, S, c, IA, pA, tau):
    """Pass 2 of Table 7.1 (eqs. 7.43–7.48): completes ``IA`` and ``pA`` in place.

    Returns the lists ``U``, ``D``, ``u`` that pass 3 uses again.  Where the joint does not
    translate (revolute joints), ``r`` of ``^iX_λ(i) = rot(E) xlt(r)`` is a constant of the
    model, and the transforms to the parent are applied as these factors (Table A.4), as in
    :func:`~spatial.rnea` and :func:`~spatial.crba`: the symmetric congruence of eq. 7.47
    rotation first (:func:`~spatial.vectors.factored.factored_congruence`).  Where ``r``
    changes with ``q`` the 6x6 transform is the cheaper.
    """
    NB, axis = model.NB, model.motion_constants(tau.dtype).axis
    X = _tree_factors(model, Xup, constant_only=True)  # Xup stays whole: pass 3 uses it
    U, D, u = ([None] * (NB + 1) for _ in range(3))
    for i in range(NB, 0, -1):
        k = axis[i]
        U[i] = _times_S(IA[i], S[i], k)
        D[i] = _S_T_times(S[i], U[i], k)
        u[i] = tau[..., model.v_index[i], None] - _S_T_times(S[i], pA[i], k)
        p = model.parent[i]
        if p != 0:
            Ia = symmetric(IA[i] - _mul(U[i], _solve(D[i], _T(U[i]))))
            pa = pA[i] + Ia @ c[i] + _mul(U[i], _solve(D[i], u[i]))
            if X[i] is None:  # λ(i)X_i* I^a iX_λ(i) and λ(i)X_i* p^a with the 6x6 transform
                X_star = _T(Xup[i])
                IA[p] = symmetric(IA[p] + X_star @ Ia @ Xup[i])
                pA[p] = pA[p] + X_star @ pa
            else:  # the same by the factors
                IA[p] = symmetric(IA[p] + factored_congruence(X[i], Ia))
                pA[p] = pA[p] + factored_force_T_columns(X[i], pa)
    return U, D, u


def _pass3(model: Model, Xup, S, c, U, D, u, batch: tuple, dtype) -> np.ndarray:
    """Pass 3 of Table 7.1 (eqs. 7.49–7.50): ``q̈`` (batch + (nv,), of type ``dtype``)."""
    qdd = np.zeros(batch + (model.nv,), dtype)
    a = [_col(-model.a_grav)] + [None] * model.NB
    for i in range(1, model.NB + 1):
        a_prime = Xup[i] @ a[model.parent[i]] + c[i]
        qdd_i = _solve(D[i], u[i] - _T(U[i]) @ a_prime)
        a[i] = a_prime + _mul(S[i], qdd_i)
        qdd[..., model.v_index[i]] = qdd_i[..., 0]
    return qdd


def _aba(model: Model, q, qd, tau, f_ext) -> np.ndarray:
    """The three passes of Table 7.1 on validated arrays; ``nan`` where a ``D_i`` is singular."""
    batch = _batch_shape(q=(q, 1), qd=(qd, 1), tau=(tau, 1), f_ext=(f_ext, 2))
    with np.errstate(divide="ignore", invalid="ignore"):  # D_i = 0: reported by aba
        Xup, S, v, c, IA, pA = _pass1(model, q, qd, f_ext)
        U, D, u = _pass2(model, Xup, S, c, IA, pA, tau)
        return _pass3(model, Xup, S, c, U, D, u, batch, q.dtype)


# ----------------------------------------------------------------------------- Table 7.2


def _require_invertible_inertias(model: Model, assembly: str) -> None:
    """The variants invert (articulated) inertias: every body inertia must be definite."""
    for i in range(1, model.NB + 1):
        eig = np.linalg.eigvalsh(model.inertia[i])
        if eig.min() <= 1e-12 * eig.max():
            raise ValueError(
                f"assembly={assembly!r} inverts spatial inertias, but body {i}'s inertia is "
                "singular (e.g. a point mass); use assembly='standard'"
            )


def _joint_force_subspaces(model: Model, q, S, tau):
    """``T``, ``T_a`` and the active joint force ``T_a τ`` of every joint (eqs. 3.34–3.36).

    Table 7.2 writes the force transmitted by joint ``i`` as ``f_J = T_a τ + T λ``: ``T`` spans
    the constraint forces (``Tᵀ S = 0``) and ``T_a = S (SᵀS)⁻¹`` satisfies ``T_aᵀ S = 1``.  The
    motion constraint becomes ``Tᵀ a_i = Tᵀ (a_1 + c_i)``, with ``a_1`` the parent's
    acceleration in body ``i`` coordinates, and ``q̈_i = T_aᵀ (a_i - a_1 - c_i)`` (Table 7.2,
    footnote).
    """
    T, Ta, Ta_tau = ([None] * (model.NB + 1) for _ in range(3))
    for i in range(1, model.NB + 1):
        T[i] = model.joints[i].constraint_subspace(q[..., model.q_index[i]])
        Ta[i] = _T(_solve(_T(S[i]) @ S[i], _T(S[i])))
        Ta_tau[i] = Ta[i] @ _col(tau[..., model.v_index[i]])
    return T, Ta, Ta_tau


def _variant1_passes(model: Model, q, Xup, S, c, IA, pA, tau, batch) -> np.ndarray:
    """Passes 2 and 3 with Table 7.2's variant 1: inverse inertias ``Φ`` and bias accelerations.

    Every handle obeys ``a = Φ f + b``; a rigid body starts from ``Φ = I⁻¹``, ``b = -Φ p``.
    Joining the parent's handle so far (``Φ_1``, ``b_1``) with subtree ``i`` (``Φ_2``, ``b_2``,
    both in parent coordinates) through joint ``i`` gives, with ``K = Tᵀ (Φ_1 + Φ_2) T``,
    ``Φ^A = Φ_1 - Φ_1 T K⁻¹ Tᵀ Φ_1`` and ``b^A = b_1 - Φ_1 T_a τ - Φ_1 T K⁻¹ z``,
    ``z = Tᵀ (c + b_1 - b_2 - (Φ_1 + Φ_2) T_a τ)``.
    """
    NB = model.NB
    T, Ta, Ta_tau = _joint_force_subspaces(model, q, S, tau)
    Phi = [None] + [inertia_inverse(model.inertia[i]) for i in range(1, NB + 1)]
    b = [None] + [-Phi[i] @ pA[i] for i in range(1, NB + 1)]
    for i in range(NB, 0, -1):
        p = model.parent[i]
        if p != 0:
            # motion-type quantities go to the parent with λ(i)X_i = Xup⁻¹, forces with Xupᵀ
            X = xinv(Xup[i])
            Phi2, b2, c2 = X @ Phi[i] @ _T(X), X @ b[i], X @ c[i]
            T2, Ta_tau2 = _T(Xup[i]) @ T[i], _T(Xup[i]) @ Ta_tau[i]
            K = _T(T2) @ (Phi[p] + Phi2) @ T2
            z = _T(T2) @ (c2 + b[p] - b2 - (Phi[p] + Phi2) @ Ta_tau2)
            Phi1_T = Phi[p] @ T2
            b[p] = b[p] - Phi[p] @ Ta_tau2 - Phi1_T @ _solve(K, z)
            Phi[p] = Phi[p] - Phi1_T @ _solve(K, _T(Phi1_T))
    a = [_col(-model.a_grav)] + [None] * NB
    qdd = np.zeros(batch + (model.nv,), q.dtype)
    for i in range(1, NB + 1):
        # a_i = Φ_i (T_a τ + T λ) + b_i with Tᵀ a_i = Tᵀ (a_1 + c_i)
        a1 = Xup[i] @ a[model.parent[i]]
        K_i = _T(T[i]) @ Phi[i] @ T[i]
        lam = _solve(K_i, _T(T[i]) @ (a1 + c[i] - b[i] - Phi[i] @ Ta_tau[i]))
        a[i] = Phi[i] @ (Ta_tau[i] + T[i] @ lam) + b[i]
        qdd[..., model.v_index[i]] = (_T(Ta[i]) @ (a[i] - a1 - c[i]))[..., 0]
    return qdd


def _variant2_passes(model: Model, q, Xup, S, c, IA, pA, tau, batch) -> np.ndarray:
    """Passes 2 and 3 with Table 7.2's variant 2: articulated inertias and the subspace ``T``.

    With ``K = Tᵀ (I^A_i)⁻¹ T`` and ``z = Tᵀ (c_i - (I^A_i)⁻¹ (T_a τ - p^A_i))``, the force
    through joint ``i`` is ``f = T_a τ + T K⁻¹ (z + Tᵀ a_1)``, so subtree ``i`` adds
    ``I^a = T K⁻¹ Tᵀ`` and ``p^a = T_a τ + T K⁻¹ z`` to its parent.
    """
    NB = model.NB
    T, Ta, Ta_tau = _joint_force_subspaces(model, q, S, tau)
    K, z = [None] * (NB + 1), [None] * (NB + 1)
    for i in range(NB, 0, -1):
        K[i] = _T(T[i]) @ np.linalg.solve(IA[i], T[i])
        z[i] = _T(T[i]) @ (c[i] - np.linalg.solve(IA[i], Ta_tau[i] - pA[i]))
        p = model.parent[i]
        if p != 0:
            Ia = T[i] @ _solve(K[i], _T(T[i]))
            pa = Ta_tau[i] + T[i] @ _solve(K[i], z[i])
            IA[p] = IA[p] + _T(Xup[i]) @ Ia @ Xup[i]
            pA[p] = pA[p] + _T(Xup[i]) @ pa
    a = [_col(-model.a_grav)] + [None] * NB
    qdd = np.zeros(batch + (model.nv,), q.dtype)
    for i in range(1, NB + 1):
        a1 = Xup[i] @ a[model.parent[i]]
        lam = _solve(K[i], z[i] + _T(T[i]) @ a1)
        a[i] = np.linalg.solve(IA[i], Ta_tau[i] + T[i] @ lam - pA[i])  # f = I^A a + p^A
        qdd[..., model.v_index[i]] = (_T(Ta[i]) @ (a[i] - a1 - c[i]))[..., 0]
    return qdd


_VARIANTS = {"variant1": _variant1_passes, "variant2": _variant2_passes}


# ----------------------------------------------------------------------------- public API


def aba(model: Model, q, qd, tau, f_ext=None, assembly: str = "standard") -> np.ndarray:
    """Forward dynamics ``q̈ = FD(q, q̇, τ, f^x)`` by the articulated-body algorithm (Table 7.1).

    Three passes over the tree in body coordinates, with Table 7.1's names: pass 1 computes
    ``Xup[i] = ^iX_λ(i)``, ``S[i]``, ``v[i]``, ``c[i]`` and the rigid-body bias forces; pass 2
    runs from the leaves to the root and assembles the articulated-body inertias ``IA[i]`` and
    bias forces ``pA[i]`` with ``U[i] = IA[i] S[i]``, ``D[i] = S[i]ᵀ U[i]`` and
    ``u[i] = τ_i - S[i]ᵀ pA[i]``; pass 3 runs outwards from ``a_0 = -a_g`` with
    ``q̈_i = D[i]⁻¹ (u[i] - U[i]ᵀ a')`` and ``a[i] = a' + S[i] q̈_i``.  For joints whose
    velocity variables are not ``q̇`` (quaternions, ``nq != nv``), ``qd`` and the result are the
    joint's velocity variables ``α`` and their derivatives ``α̇``.  Cost ``O(N_B)``.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
        Joint position variables.
    qd : array_like, shape (..., nv)
        Joint velocity variables.
    tau : array_like, shape (..., nv)
        Joint forces.
    f_ext : array_like, shape (..., NB + 1, 6), optional
        External spatial force on each body **in base coordinates** (Featherstone's ``f^x_i``);
        row 0 (the fixed base) must be zero.
    assembly : {"standard", "variant1", "variant2"}
        Assembly formulae for pass 2 (Table 7.2): ``"standard"`` is eqs. 7.47–7.48;
        ``"variant1"`` assembles inverse articulated inertias ``Φ^A`` and bias accelerations
        ``b^A``; ``"variant2"`` assembles ``I^A`` through the joint's constraint-force subspace
        ``T``.  The variants are slower (they invert 6x6 inertias) and need every body's
        inertia to be positive definite; all three give the same ``q̈``.

    Returns
    -------
    qdd : ndarray, shape (..., nv)
        Joint accelerations; the batch shape is the broadcast of the inputs' batch shapes.

    Raises
    ------
    ValueError
        If a state array has the wrong shape, is complex, not finite or not a valid
        configuration; if ``f_ext`` has the wrong shape or a nonzero row 0; if the batch shapes
        do not broadcast; if ``assembly`` is unknown, or a variant is asked for with a singular
        body inertia; if a joint moves a subtree without mass or inertia along its motion
        (``D_i`` singular).  If the model has loop joints (:meth:`~spatial.Model.check_tree`):
        use :func:`~spatial.dynamics.loops.loop_forward_dynamics` for the closed loops, or pass
        ``model.spanning_tree()`` for the open tree's answer.
    FloatingPointError
        If the result overflows because the velocities or forces are too large (e.g. inside a
        diverging simulation), told apart from a singular ``D_i`` by ``q̈(q, 0, 0)``.

    Examples
    --------
    A pendulum released horizontally falls with ``θ̈ = -(g/l) sin θ``:

    >>> import numpy as np, spatial as sp
    >>> from spatial.builders import simple_pendulum
    >>> model = simple_pendulum(length=2.0)
    >>> qdd = sp.aba(model, [np.pi / 2], [0.0], [0.0])
    >>> bool(np.isclose(qdd[0], -9.81 / 2.0))
    True
    """
    if assembly not in _ASSEMBLIES:
        raise ValueError(f"assembly must be one of {_ASSEMBLIES}, got {assembly!r}")
    q, qd, _, tau = model.check_state(q, qd, None, tau, tree_dynamics="aba")
    f_ext = _check_f_ext(model, f_ext)
    if assembly != "standard":
        batch = _batch_shape(q=(q, 1), qd=(qd, 1), tau=(tau, 1), f_ext=(f_ext, 2))
        _require_invertible_inertias(model, assembly)
        Xup, S, v, c, IA, pA = _pass1(model, q, qd, f_ext)
        return _VARIANTS[assembly](model, q, Xup, S, c, IA, pA, tau, batch)
    return _aba_checked(model, q, qd, tau, f_ext)


def _aba_checked(model: Model, q, qd, tau, f_ext) -> np.ndarray:
    """:func:`aba` (standard assembly) of validated arrays, with its overflow and singularity
    errors: the core a simulation calls at every stage once the state is validated."""
    qdd = _aba(model, q, qd, tau, f_ext)  # checks the batch shapes first
    if not np.isfinite(qdd).all():
        # D_i depends on q alone: if q̈(q, 0, 0) is finite, the velocities or forces overflowed
        with np.errstate(all="ignore"):
            at_rest = _aba(model, q, np.zeros_like(qd), np.zeros_like(tau), None)
        if np.isfinite(at_rest).all():
            largest = max(float(np.abs(x).max(initial=0.0)) for x in (qd, tau))
            raise FloatingPointError(
                f"aba: q̈ overflowed: the velocities or forces (largest |q̇|, |τ| = "
                f"{largest:.3g}) are too large for {qdd.dtype.name} arithmetic"
            )
        raise ValueError(
            "aba: a joint's articulated inertia D_i = S_iᵀ I^A_i S_i is singular: the subtree "
            "it moves has no mass or no inertia along its motion, so q̈ is undefined"
        )
    return qdd


def articulated_inertia(model: Model, q) -> np.ndarray:
    """Articulated-body inertia ``I^A_i`` of every body, in its own coordinates (§7.1–7.3).

    ``I^A_i`` is the inertia body ``i`` presents when the subtree it supports hangs from it
    through unactuated joints (joint ``i`` itself excluded): a spatial force ``f`` on body ``i``
    then gives it the acceleration ``a`` with ``f = I^A_i a + p^A_i``.  It depends on ``q``
    only, is symmetric positive semi-definite, lies between the body's own inertia and the
    composite (welded) inertia of its subtree, and equals ``I_i`` for a leaf.  Computed by
    passes 1–2 of :func:`aba` (eqs. 7.37, 7.47).

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)

    Returns
    -------
    IA : ndarray, shape (..., NB + 1, 6, 6)
        Row ``i`` = ``I^A_i`` in body ``i`` coordinates; row 0 (the fixed base) is zero.

    Raises
    ------
    ValueError
        If ``q`` has the wrong shape, is not finite or is not a valid configuration; if the
        model has loop joints, as :func:`aba`.
    """
    q, _, _, _ = model.check_state(q, tree_dynamics="articulated_inertia")
    zeros = np.zeros(model.nv)
    Xup, S, v, c, IA, pA = _pass1(model, q, zeros, None)
    _pass2(model, Xup, S, c, IA, pA, zeros)
    IA[0] = np.zeros((6, 6))
    batch = q.shape[:-1]
    return np.stack([np.broadcast_to(I, batch + (6, 6)) for I in IA], axis=len(batch))
