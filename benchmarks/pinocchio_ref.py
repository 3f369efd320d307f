"""The same trees in Pinocchio, as the speed reference of ``make bench`` (not a dependency).

Pinocchio (``pip install pin``, the ``bench`` extra) is a C++ library of the same recursive
algorithms.  :func:`to_pinocchio` rebuilds a :class:`spatial.Model` whose joints are all
:class:`~spatial.joints.Revolute` about a coordinate axis (GU(n), branched trees): Featherstone's
tree transform ``X_T(i) = rot(E) xlt(r)`` (eq. 2.24) is the placement ``SE3(Eᵀ, r)`` of joint
``i``'s frame in its parent's, and the spatial inertia ``[[Ī_O, m c×], [m c×ᵀ, m 1]]``
(eq. 2.63) gives Pinocchio's mass, centre of mass ``c`` and rotational inertia about ``c``,
``Ī_O + m c× c×``.  :func:`check_agrees` compares one ``aba`` call of both before anything is
timed, so that the two libraries are known to solve the same problem.
"""

from __future__ import annotations

import numpy as np

import spatial as sp

try:  # the reference is optional: make bench runs without it
    import pinocchio as pin
except ImportError:  # pragma: no cover - depends on the environment
    pin = None

_AXES = {(1.0, 0.0, 0.0): "RX", (0.0, 1.0, 0.0): "RY", (0.0, 0.0, 1.0): "RZ"}


def _skew(c: np.ndarray) -> np.ndarray:
    return np.array([[0.0, -c[2], c[1]], [c[2], 0.0, -c[0]], [-c[1], c[0], 0.0]])


def to_pinocchio(model: sp.Model):
    """The Pinocchio model of ``model`` (revolute joints about x, y or z only)."""
    pm = pin.Model()
    pm.gravity = pin.Motion(np.concatenate([model.gravity, np.zeros(3)]))
    for i in range(1, model.NB + 1):
        joint = model.joints[i]
        kind = _AXES.get(tuple(getattr(joint, "axis", ())))
        if not isinstance(joint, sp.joints.Revolute) or kind is None:
            raise ValueError(f"body {i}: only revolute joints about x, y or z are converted")
        X = model.X_tree[i]
        E = X[:3, :3]
        r = -np.array(_unskew(E.T @ X[3:, :3]))  # X[3:, :3] = -E r×
        joint_model = getattr(pin, f"JointModel{kind}")()
        jid = pm.addJoint(model.parent[i], joint_model, pin.SE3(E.T, r), f"j{i}")
        I = model.inertia[i]
        m = I[3, 3]
        c = np.array(_unskew(I[:3, 3:])) / m
        Ic = I[:3, :3] + m * _skew(c) @ _skew(c)
        pm.appendBodyToJoint(jid, pin.Inertia(m, c, Ic), pin.SE3.Identity())
    return pm


def _unskew(A: np.ndarray) -> tuple:
    return (A[2, 1], A[0, 2], A[1, 0])


def check_agrees(model: sp.Model, pm, rng: np.random.Generator) -> float:
    """Largest difference of ``q̈`` between ``sp.aba`` and ``pin.aba`` at a random state."""
    q = model.random_configuration(rng)
    qd, tau = rng.standard_normal((2, model.nv))
    ours = sp.aba(model, q, qd, tau)
    theirs = pin.aba(pm, pm.createData(), q, qd, tau)
    return float(np.abs(ours - theirs).max())


def batched_aba(pm, threads: int, q, qd, tau):
    """A call ``f()`` of Pinocchio's ``abaInParallel`` on the states in the rows of ``q, qd, tau``.

    Pinocchio takes the states as columns (nq x batch), so they are transposed once here.
    """
    pool = pin.ModelPool(pm, threads)
    columns = [np.asfortranarray(a.T) for a in (q, qd, tau)]
    out = np.zeros_like(columns[1])

    def run():
        pin.abaInParallel(threads, pool, *columns, out)
        return out

    return run
