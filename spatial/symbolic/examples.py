"""Symbolic execution at work: Table 10.3 and the planar RNEA (Featherstone §10.4, Table 5.1).

:func:`table_10_3` records the book's example, ``p = v × I v``, ``τ_out = p · s``, with the
model's ``I`` and ``s`` substituted.  :func:`planar_rnea` is the recursive Newton–Euler
algorithm in planar vectors (§2.16), written once for numbers and for symbols, so that
:func:`generate_planar_rnea` can record it on a planar chain, simplify the record and hand back
code that a test runs against :func:`spatial.rnea`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import square_matrix, vector
from ..model import Model
from ..planar import embed_transform, restrict
from .executer import Executer, Program

__all__ = [
    "table_10_3",
    "PlanarChainData",
    "planar_chain_data",
    "planar_rnea",
    "generate_planar_rnea",
]


def _cross(a, b):
    return np.array(
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    )


def table_10_3(I=None, s=None) -> Program:
    """Record Table 10.3's algorithm, ``p = v × I v``, ``τ_out = p · s``, as statements.

    Parameters
    ----------
    I : array_like, shape (3, 3), optional
        Model data, by default the book's ``diag(1.5, 1.6, 1.7)``.
    s : array_like, shape (3,), optional
        Model data, by default ``[0, 0, 1]``.

    Returns
    -------
    Program
        Seven statements with 29 operations; :meth:`Program.simplify` leaves 5.

    Raises
    ------
    ValueError
        If ``I`` is not a real finite 3x3 matrix or ``s`` not a real finite 3-vector.

    Examples
    --------
    >>> from spatial.symbolic import table_10_3
    >>> program = table_10_3()
    >>> program.operations().total, program.simplify().operations().total
    (29, 5)
    >>> print(program.simplify().source())
    tmp001 = 1.5 * v(1)
    tmp002 = 1.6 * v(2)
    p(3) = v(1) * tmp002 - v(2) * tmp001
    tau_out = p(3)
    """
    I = np.diag([1.5, 1.6, 1.7]) if I is None else square_matrix(I, "I")
    s = np.array([0.0, 0.0, 1.0]) if s is None else vector(s, "s", 3)
    if I.shape != (3, 3):
        raise ValueError(f"I must be a 3x3 matrix (the rotational inertia), got shape {I.shape}")
    ex = Executer()
    v = ex.input("v", 3)
    tmp = ex.temp(I @ v)  # one 3x3x1 product: 9m + 6a
    p = ex.assign("p", _cross(v, tmp))  # one cross product: 6m + 3a
    ex.output("tau_out", p @ s)  # one dot product: 3m + 2a
    return ex.program()


def _planar_rotation(c, s):
    """Planar ``X_J`` of a revolute joint turned by θ (``c = cos θ``, ``s = sin θ``), §2.16."""
    return np.array([[1.0, 0.0, 0.0], [0.0, c, s], [0.0, -s, c]], dtype=object)


def _planar_crm(v):
    """Planar ``v×`` for motion vectors ``[ω, v_x, v_y]`` (eq. 2.76)."""
    w, vx, vy = v
    return np.array([[0.0, 0.0, 0.0], [vy, 0.0, -w], [-vx, w, 0.0]], dtype=object)


@dataclass(frozen=True)
class PlanarChainData:
    """A planar chain of revolute joints: per-body planar ``X_T``, inertia, parent; gravity."""

    parent: tuple
    X_tree: tuple
    inertia: tuple
    a_grav: np.ndarray


def planar_chain_data(model: Model) -> PlanarChainData:
    """The planar (3D) model data of a tree whose joints all turn about z (§2.16).

    Raises
    ------
    ValueError
        If ``model`` is not a Model, a joint is not a revolute joint about the z axis (its
        motion subspace is not ``[0 0 1 0 0 0]ᵀ``), or a tree transform or gravity leaves the
        x-y plane; if the model has loop joints (:meth:`~spatial.Model.check_tree`: the RNEA is
        the tree's).
    """
    if not isinstance(model, Model):
        raise ValueError(f"model must be a spatial.Model, got {type(model).__name__}")
    model.check_tree("planar_chain_data")
    X_tree, inertia = [], []
    e_z = np.array([0, 0, 1.0, 0, 0, 0])
    for i in range(1, model.NB + 1):
        joint = model.joints[i]
        S = np.asarray(joint.motion_subspace(np.zeros(joint.nq)))
        if S.shape != (6, 1) or not np.allclose(S[:, 0], e_z):
            raise ValueError(f"body {i}: the planar RNEA needs revolute joints about z, got {S}")
        X = np.asarray(model.X_tree[i], dtype=float)
        try:
            planar = np.allclose(embed_transform(restrict(X)), X, atol=1e-12)
        except ValueError:
            planar = False
        if not planar:
            raise ValueError(f"body {i}: X_tree leaves the x-y plane (not a planar transform)")
        X_tree.append(restrict(X))
        inertia.append(restrict(model.inertia[i]))
    g = np.asarray(model.gravity, dtype=float)
    if abs(g[2]) > 0:
        raise ValueError(f"gravity {g} leaves the x-y plane of a planar model")
    a_grav = np.array([0.0, g[0], g[1]])
    return PlanarChainData(tuple(model.parent[1:]), tuple(X_tree), tuple(inertia), a_grav)


def planar_rnea(data: PlanarChainData, c, s, qd, qdd, record=None):
    """Table 5.1 in planar vectors, for numbers or symbols: ``τ`` of a revolute planar tree.

    Parameters
    ----------
    data : PlanarChainData
    c, s : sequence, length NB
        ``cos qᵢ`` and ``sin qᵢ`` (the book leaves the sines and cosines out of the counts).
    qd, qdd : sequence, length NB
    record : callable, optional
        ``record(name, values)`` names each intermediate vector (an :meth:`Executer.assign`);
        by default the values are used as they are.

    Returns
    -------
    ndarray, shape (NB,)

    Raises
    ------
    ValueError
        If ``data`` is not a :class:`PlanarChainData` or a sequence has another length than NB.
    """
    if not isinstance(data, PlanarChainData):
        raise ValueError(f"data must be a PlanarChainData, got {type(data).__name__}")
    for name, values in (("c", c), ("s", s), ("qd", qd), ("qdd", qdd)):
        if np.ndim(values) != 1 or len(values) != len(data.parent):
            raise ValueError(
                f"{name} must be a sequence of length NB = {len(data.parent)}, "
                f"got shape {np.shape(values)}"
            )
    if record is None:

        def record(name, values):
            return values

    n = len(data.parent)
    S = np.array([1.0, 0.0, 0.0])
    Xup, v, a, f = [None] * n, [None] * n, [None] * n, [None] * n
    for i in range(n):  # outward pass, eqs. 5.7-5.9 with the planar operators of §2.16
        Xup[i] = record(f"X{i + 1}", (_planar_rotation(c[i], s[i]) @ data.X_tree[i]).ravel())
        Xup[i] = Xup[i].reshape(3, 3)
        vJ = S * qd[i]
        p = data.parent[i] - 1
        v_parent = np.zeros(3) if p < 0 else v[p]
        a_parent = -data.a_grav if p < 0 else a[p]
        v[i] = record(f"v{i + 1}", Xup[i] @ v_parent + vJ)
        a[i] = record(f"a{i + 1}", Xup[i] @ a_parent + S * qdd[i] + _planar_crm(v[i]) @ vJ)
        Iv = data.inertia[i] @ v[i]
        f[i] = data.inertia[i] @ a[i] - _planar_crm(v[i]).T @ Iv  # v ×* I v = -(v×)ᵀ I v
    tau = [None] * n
    for i in range(n - 1, -1, -1):  # inward pass, eqs. 5.10-5.11
        f[i] = record(f"f{i + 1}", f[i])
        tau[i] = S @ f[i]
        p = data.parent[i] - 1
        if p >= 0:
            f[p] = f[p] + Xup[i].T @ f[i]
    return np.array(tau, dtype=object)


def generate_planar_rnea(model: Model) -> tuple[Program, Program]:
    """Record the planar RNEA on ``model`` and simplify it (the process of Fig. 10.6).

    Returns
    -------
    recorded, simplified : Program
        Inputs ``c``, ``s`` (cosines and sines of ``q``), ``qd``, ``qdd``; output ``tau(1…n)``.

    Raises
    ------
    ValueError
        As :func:`planar_chain_data`.
    """
    model.check_tree("generate_planar_rnea")
    data = planar_chain_data(model)
    ex = Executer()
    n = model.NB
    c, s, qd, qdd = (ex.input(name, n) for name in ("c", "s", "qd", "qdd"))
    tau = planar_rnea(data, c, s, qd, qdd, record=ex.assign)
    ex.output("tau", tau)
    program = ex.program()
    return program, program.simplify()
