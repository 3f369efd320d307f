"""Hybrid dynamics: forces known at some joints, accelerations at the rest (Featherstone §9.1–9.2).

Forward dynamics is given ``τ`` at every joint and finds ``q̈``; inverse dynamics is given ``q̈``
and finds ``τ``.  Hybrid dynamics mixes the two joint by joint: at each *force-driven* joint
(the book's set ``fd``) the force is known and the acceleration unknown, at each
*acceleration-driven* joint the reverse.  Prescribed motions (a shaking platform, a perfectly
servoed joint, an animated character's limbs) are the typical use.

Two algorithms, which must agree:

* ``method="crba"`` — §9.1: reorder ``H q̈ + C = τ`` so that the unknowns ``q̈₁`` (force-driven)
  and ``τ₂`` (acceleration-driven) sit on the left (eq. 9.2), then (1) ``C' = ID(q, q̇, [0; q̈₂])``
  by the RNEA (eq. 9.3), (2) ``H₁₁`` by the modified composite-rigid-body algorithm of Table 9.1,
  (3) solve ``H₁₁ q̈₁ = τ₁ - C'₁`` with the sparse ``LᵀDL`` factorization, using the parent
  array of the graph in which acceleration-driven joints are merged (Figure 9.1), and
  (4) ``τ = C' + H [q̈₁; 0]`` by the differential inverse dynamics of Table 6.1.
* ``method="articulated"`` — §9.2, Tables 9.2–9.3: the articulated-body algorithm with, at each
  acceleration-driven joint, ``I^a_i = I^A_i`` and ``p^a_i = p^A_i + I^A_i (c_i + S_i q̈_i)``
  (eqs. 9.9–9.10) in pass 2, and ``τ_i = S_iᵀ (I^A_i a_i + p^A_i)`` in pass 3.

Both accept the "quick-and-dirty" rotor model of Featherstone Example 9.5: a constant
reflected rotor inertia added to the diagonal of ``H`` (``D_i = S_iᵀ U_i + I^rot_i`` in the
articulated version, eq. 9.28); see :mod:`spatial.dynamics.gears`.
"""

from __future__ import annotations

import numpy as np

from .._validate import as_array
from ..kinematics import _forward_pass
from ..model import Model
from .aba import _T, _col, _pass1, _solve
from .crba import inertia_product
from .rnea import _batch_shape, _check_f_ext, _rnea
from .sparse import ltdl, ltdl_solve

__all__ = ["hybrid_dynamics", "hybrid_parent", "hybrid_inertia"]

METHODS = ("crba", "articulated")


# ----------------------------------------------------------------------------- the joint sets


def _force_driven(model: Model, accel_known_mask) -> list[bool]:
    """``fd[i]`` (body-indexed, ``fd[0] = False``) from the user's mask over joints ``1 … NB``."""
    mask = np.asarray(accel_known_mask)
    if mask.dtype != bool or mask.shape != (model.NB,):
        raise ValueError(
            f"accel_known_mask must be a boolean array of shape (NB,) = ({model.NB},): entry "
            f"i - 1 says whether joint i's acceleration is known; got dtype {mask.dtype}, "
            f"shape {mask.shape}"
        )
    return [False] + [not bool(known) for known in mask]


def _supported_by_fd(model: Model, fd: list[bool]) -> list[bool]:
    """``ν(fd)``: the bodies supported by at least one force-driven joint (eq. 9.5).

    As the book's footnote suggests, an array of ``N_B + 1`` booleans indexed by body number.
    """
    nu = [False] * (model.NB + 1)
    for i in range(1, model.NB + 1):
        nu[i] = fd[i] or nu[model.parent[i]]
    return nu


def _fd_variables(model: Model, fd: list[bool]) -> np.ndarray:
    """Indices of the force-driven velocity variables (the rows of ``Q`` that come first)."""
    idx = [np.arange(model.nv)[model.v_index[i]] for i in range(1, model.NB + 1) if fd[i]]
    return np.concatenate(idx + [np.zeros(0, int)]).astype(int)


def hybrid_parent(model: Model, accel_known_mask) -> tuple[np.ndarray, np.ndarray]:
    """Parent array describing the sparsity of ``H₁₁`` (Featherstone Figure 9.1).

    Merging every body with its parent across each acceleration-driven joint leaves a smaller
    tree whose joints are the force-driven ones; ``H₁₁`` has the branch-induced sparsity of
    that tree.  Working directly on the expanded (one arc per velocity variable) parent array
    of :meth:`~spatial.model.Model.expanded_parent`, the parent of a force-driven variable is
    its nearest ancestor variable that is also force-driven.

    Parameters
    ----------
    model : Model
    accel_known_mask : array_like of bool, shape (NB,)
        Entry ``i - 1`` is True if joint ``i``'s acceleration is known (inverse-dynamics
        joint), False if its force is known (forward-dynamics joint).

    Returns
    -------
    lam : ndarray of int, shape (n₁,)
        0-based parent array over the force-driven velocity variables, ``-1`` at roots;
        usable with :func:`~spatial.dynamics.ltdl`.
    fd_vars : ndarray of int, shape (n₁,)
        Their indices in ``qd`` (``q̈₁ = qdd[..., fd_vars]``).

    Raises
    ------
    ValueError
        If the mask is not a boolean array of shape (NB,).
    """
    return _merged_parent(model, _force_driven(model, accel_known_mask))


def _merged_parent(model: Model, fd: list[bool]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`hybrid_parent` on a validated body-indexed ``fd``."""
    fd_vars = _fd_variables(model, fd)
    new_index = -np.ones(model.nv, int)
    new_index[fd_vars] = np.arange(fd_vars.size)
    lam_full = model.expanded_parent()
    lam = -np.ones(fd_vars.size, int)
    for k_new, k in enumerate(fd_vars):
        j = lam_full[k]
        while j != -1 and new_index[j] == -1:  # skip merged (acceleration-driven) variables
            j = lam_full[j]
        lam[k_new] = new_index[j] if j != -1 else -1
    return lam, fd_vars


# ----------------------------------------------------------------------------- Table 9.1


def _modified_crba(model: Model, Xup: list, S: list, fd: list[bool]) -> np.ndarray:
    """Table 9.1 on a forward pass: ``H₁₁``, the force-driven rows and columns of ``H``.

    Composite inertias are formed only inside ``ν(fd)`` and blocks ``H_ij`` only for
    ``i, j ∈ fd``.  Returns the full-size (..., nv, nv) array with the other entries zero.
    """
    nu = _supported_by_fd(model, fd)
    batch = Xup[1].shape[:-2] if model.NB else ()
    H = np.zeros(batch + (model.nv, model.nv))
    Ic = [model.inertia[i] if nu[i] else None for i in range(model.NB + 1)]
    for i in range(model.NB, 0, -1):
        if nu[model.parent[i]]:
            p = model.parent[i]
            Ic[p] = Ic[p] + _T(Xup[i]) @ Ic[i] @ Xup[i]
        if fd[i]:
            F = Ic[i] @ S[i]
            ii = model.v_index[i]
            H[..., ii, ii] = _T(S[i]) @ F
            j = i
            while nu[model.parent[j]]:
                F = _T(Xup[j]) @ F
                j = model.parent[j]
                if fd[j]:
                    jj = model.v_index[j]
                    H[..., ii, jj] = _T(F) @ S[j]
                    H[..., jj, ii] = _T(H[..., ii, jj])
    return H


def hybrid_inertia(model: Model, q, accel_known_mask) -> np.ndarray:
    """``H₁₁``, the joint-space inertia seen by the force-driven joints (Table 9.1).

    The modified composite-rigid-body algorithm: the same loops as the CRBA, but composite
    inertias are accumulated only for bodies supported by a force-driven joint (``ν(fd)``,
    eq. 9.5) and only blocks between two force-driven joints are computed.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    accel_known_mask : array_like of bool, shape (NB,)
        As :func:`hybrid_dynamics`.

    Returns
    -------
    ndarray, shape (..., n₁, n₁)
        Rows and columns of ``H`` at the force-driven velocity variables, in their order in
        ``qd`` (``fd_vars`` of :func:`hybrid_parent`).

    Raises
    ------
    ValueError
        If ``q`` or the mask is invalid; if the model has loop joints, as
        :func:`~spatial.dynamics.crba`.
    """
    fd = _force_driven(model, accel_known_mask)
    q, _, _, _ = model.check_state(q, tree_dynamics="hybrid_inertia")
    fp = _forward_pass(model, q)
    fd_vars = _fd_variables(model, fd)
    return _modified_crba(model, fp.Xup, fp.S, fd)[..., fd_vars[:, None], fd_vars]


# ----------------------------------------------------------------------------- the two methods


def _hybrid_crba(model, q, qd, qdd_known, tau_known, fd, f_ext, rotor, batch):
    """§9.1's four steps on validated arrays; returns ``(q̈, τ)``."""
    fd_var = np.zeros(model.nv, bool)
    lam, fd_vars = _merged_parent(model, fd)
    fd_var[fd_vars] = True
    # step 1: C' = ID(q, q̇, Qᵀ[0; q̈₂]) (eq. 9.3), plus the rotors' share of q̈₂
    qdd2 = np.where(fd_var, 0.0, qdd_known)
    C_prime = _rnea(model, q, qd, qdd2, f_ext)[0] + rotor * qdd2
    # step 2: H₁₁ by Table 9.1
    fp = _forward_pass(model, q)
    H11 = _modified_crba(model, fp.Xup, fp.S, fd)[..., fd_vars[:, None], fd_vars]
    H11 = H11 + np.diag(rotor[fd_vars])
    # step 3: H₁₁ q̈₁ = τ₁ - C'₁, with the sparsity of the merged tree (Figure 9.1)
    qdd1 = np.zeros(batch + (model.nv,))
    if fd_vars.size:
        L, D = ltdl(np.broadcast_to(H11, batch + H11.shape[-2:]), lam)
        rhs = np.broadcast_to(tau_known - C_prime, batch + (model.nv,))[..., fd_vars]
        qdd1[..., fd_vars] = ltdl_solve(L, D, lam, rhs)
    # step 4: τ = C' + ID_δ(Qᵀ[q̈₁; 0])
    tau = C_prime + inertia_product(model, q, qdd1) + rotor * qdd1
    qdd = qdd1 + np.broadcast_to(qdd2, batch + (model.nv,))
    tau = np.where(fd_var, tau_known, tau)  # τ₁ is given; step 4 reproduces it to round-off
    return qdd, np.broadcast_to(tau, batch + (model.nv,)).copy()


def _hybrid_articulated(model, q, qd, qdd_known, tau_known, fd, f_ext, rotor, batch):
    """Table 9.3 on validated arrays; returns ``(q̈, τ)``."""
    NB = model.NB
    Xup, S, v, c, IA, pA = _pass1(model, q, qd, f_ext)
    qdd_id = [None] * (NB + 1)
    R = [None] * (NB + 1)  # the rotor inertias of each joint, n_i x n_i diagonal
    for i in range(1, NB + 1):
        R[i] = np.diag(rotor[model.v_index[i]])
        if not fd[i]:  # pass 1: c_i gains S_i q̈_i at an acceleration-driven joint
            qdd_id[i] = _col(qdd_known[..., model.v_index[i]])
            c[i] = c[i] + S[i] @ qdd_id[i]
    U, D, u = ([None] * (NB + 1) for _ in range(3))
    for i in range(NB, 0, -1):  # pass 2
        p = model.parent[i]
        if fd[i]:
            U[i] = IA[i] @ S[i]
            D[i] = _T(S[i]) @ U[i] + R[i]  # eq. 9.28 when rotor inertias are given
            u[i] = _col(tau_known[..., model.v_index[i]]) - _T(S[i]) @ pA[i]
            if p != 0:
                Ia = IA[i] - U[i] @ _solve(D[i], _T(U[i]))
                pa = pA[i] + Ia @ c[i] + U[i] @ _solve(D[i], u[i])
                IA[p] = IA[p] + _T(Xup[i]) @ Ia @ Xup[i]
                pA[p] = pA[p] + _T(Xup[i]) @ pa
        elif p != 0:
            Ia = IA[i]  # eq. 9.9
            pa = pA[i] + Ia @ c[i]  # eq. 9.10 (c_i already holds S_i q̈_i)
            IA[p] = IA[p] + _T(Xup[i]) @ Ia @ Xup[i]
            pA[p] = pA[p] + _T(Xup[i]) @ pa
    qdd = np.zeros(batch + (model.nv,))
    tau = np.zeros(batch + (model.nv,))
    a = [_col(-model.a_grav)] + [None] * NB
    for i in range(1, NB + 1):  # pass 3
        vi = model.v_index[i]
        if fd[i]:
            a_prime = Xup[i] @ a[model.parent[i]] + c[i]
            qdd_i = _solve(D[i], u[i] - _T(U[i]) @ a_prime)
            a[i] = a_prime + S[i] @ qdd_i
            qdd[..., vi] = qdd_i[..., 0]
            tau[..., vi] = tau_known[..., vi]
        else:
            a[i] = Xup[i] @ a[model.parent[i]] + c[i]
            tau_i = _T(S[i]) @ (IA[i] @ a[i] + pA[i]) + R[i] @ qdd_id[i]
            qdd[..., vi] = qdd_known[..., vi]
            tau[..., vi] = tau_i[..., 0]
    return qdd, tau


def _check_rotor(model: Model, rotor_inertia) -> np.ndarray:
    if rotor_inertia is None:
        return np.zeros(model.nv)
    rotor = as_array(rotor_inertia, "rotor_inertia", (model.nv,))
    if rotor.shape != (model.nv,) or np.any(rotor < 0):
        raise ValueError(
            f"rotor_inertia must be one non-negative number per velocity variable, shape "
            f"({model.nv},); got shape {rotor.shape}"
        )
    return rotor


def hybrid_dynamics(
    model: Model,
    q,
    qd,
    qdd_known,
    tau_known,
    accel_known_mask,
    f_ext=None,
    method: str = "articulated",
    rotor_inertia=None,
) -> tuple[np.ndarray, np.ndarray]:
    """Hybrid dynamics: the unknown accelerations and forces when each joint has one known.

    Joint ``i`` is acceleration-driven if ``accel_known_mask[i - 1]`` (its ``q̈_i`` is given in
    ``qdd_known`` and ``τ_i`` is computed) and force-driven otherwise (``τ_i`` given in
    ``tau_known``, ``q̈_i`` computed).  The result satisfies the equation of motion
    ``H q̈ + C = τ`` (plus ``diag(rotor_inertia) q̈`` on the left if given) in full:
    ``τ = rnea(q, q̇, q̈)`` at the returned ``q̈``.  With every joint force-driven this is
    forward dynamics (:func:`~spatial.dynamics.aba`), with every joint acceleration-driven
    inverse dynamics (:func:`~spatial.dynamics.rnea`).

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qd : array_like, shape (..., nv)
    qdd_known : array_like, shape (..., nv), or None
        Accelerations; only the entries of acceleration-driven joints are read.  None is
        allowed when every joint is force-driven.
    tau_known : array_like, shape (..., nv), or None
        Joint forces; only the entries of force-driven joints are read.  None is allowed when
        every joint is acceleration-driven.
    accel_known_mask : array_like of bool, shape (NB,)
        Entry ``i - 1`` is True when joint ``i``'s acceleration is known.
    f_ext : array_like, shape (..., NB + 1, 6), optional
        External forces on the bodies in base coordinates (row 0 zero), as for ``rnea``.
    method : {"articulated", "crba"}
        ``"articulated"``: Tables 9.2–9.3, ``O(N_B)``.  ``"crba"``: §9.1 with Table 9.1 and a
        sparse factorization of ``H₁₁``.
    rotor_inertia : array_like, shape (nv,), optional
        Reflected rotor inertias ``I^rot`` (``ρ² I_rotor``) added to the diagonal of ``H``
        (Featherstone Example 9.5, eq. 9.28); see :mod:`spatial.dynamics.gears`.

    Returns
    -------
    qdd : ndarray, shape (..., nv)
        All accelerations (the given ones copied).
    tau : ndarray, shape (..., nv)
        All joint forces (the given ones copied).

    Raises
    ------
    ValueError
        If the mask is not a boolean array of shape (NB,); if a needed ``qdd_known`` or
        ``tau_known`` is None; if a state array, ``f_ext`` or ``rotor_inertia`` is invalid or
        the batch shapes do not broadcast; if ``method`` is unknown; if the model has loop
        joints, as :func:`~spatial.dynamics.aba`.

    Examples
    --------
    A cart-pole whose cart is driven with a known acceleration of 2 m/s²:

    >>> import numpy as np
    >>> from spatial.builders import cart_pole
    >>> from spatial.dynamics import hybrid_dynamics
    >>> model = cart_pole()
    >>> qdd, tau = hybrid_dynamics(model, [0, 0.1], [0, 0], [2.0, 0], [0, 0], [True, False])
    >>> bool(qdd[0] == 2.0 and tau[1] == 0.0)
    True
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    fd = _force_driven(model, accel_known_mask)
    rotor = _check_rotor(model, rotor_inertia)
    if qdd_known is None:
        if not all(fd[1:]):
            raise ValueError("qdd_known is None but some joints are acceleration-driven")
        qdd_known = np.zeros(model.nv)
    if tau_known is None:
        if any(fd[1:]):
            raise ValueError("tau_known is None but some joints are force-driven")
        tau_known = np.zeros(model.nv)
    q, qd, qdd_known, tau_known = model.check_state(
        q, qd, qdd_known, tau_known, tree_dynamics="hybrid_dynamics"
    )
    f_ext = _check_f_ext(model, f_ext)
    batch = _batch_shape(
        q=(q, 1), qd=(qd, 1), qdd_known=(qdd_known, 1), tau_known=(tau_known, 1), f_ext=(f_ext, 2)
    )
    if method == "crba":
        return _hybrid_crba(model, q, qd, qdd_known, tau_known, fd, f_ext, rotor, batch)
    return _hybrid_articulated(model, q, qd, qdd_known, tau_known, fd, f_ext, rotor, batch)
