"""Operations on a model: a floating base and another regular numbering (Featherstone §4.1, §9.4).

A robot modelled with its torso welded to the world becomes a free-floating system by giving its
root body a 6-DoF joint to the fixed base (§4.1: the base is body 0 and every tree needs one;
§9.4 treats the floating case); :func:`floating_base` does that, either by replacing the root's
fixed joint or by adding a new floating body.

A kinematic tree has many regular numberings (§4.1.2: every body numbered after its parent).
The algorithms must give the same answer for each of them, which makes :func:`renumber` a test
tool: it returns the renumbered model and the permutations of ``q`` and ``q̇`` that go with it.
"""

from __future__ import annotations

import numpy as np

from .. import joints as J
from .._validate import integers
from ..model import Model

__all__ = ["floating_base", "renumber"]


def _copy(model: Model, bodies) -> Model:
    """A new model with ``model``'s gravity and the bodies ``(parent, joint, X_tree, I, name)``."""
    out = Model(gravity=model.gravity.copy())
    for parent, joint, X_tree, inertia, name in bodies:
        out.add_body(parent, joint, X_tree, inertia, name=name)
    return out


def _bodies(model: Model, i: int) -> tuple:
    return model.parent[i], model.joints[i], model.X_tree[i], model.inertia[i], model.names[i]


def floating_base(model: Model, inertia=None, name: str = "floating_base") -> Model:
    """The same tree made free-floating: a 6-DoF joint to the fixed base (§4.1, §9.4).

    Two ways, both adding exactly 6 degrees of freedom:

    * ``inertia=None``: the model's single root body (body 1, the only child of the base)
      becomes the floating base; its joint must be :class:`~spatial.joints.Fixed` (a robot
      whose torso was welded to the world) and is replaced by :class:`~spatial.joints.Free`,
      keeping ``X_T(1)``.
    * ``inertia`` given: a new body 1 called ``name``, with that inertia, is connected to the
      base by a Free joint (``X_T = 1``) and every former root body hangs from it with its old
      joint and tree transform; the other bodies are renumbered ``i → i + 1``.

    The Free joint's ``q`` is ``[quaternion, position]`` (see :class:`~spatial.joints.Free`);
    at its neutral value the bodies are where the original model put them.

    Parameters
    ----------
    model : Model
    inertia : array_like, shape (6, 6), optional
        Inertia of a new floating body (see above).
    name : str
        Name of the new body (only with ``inertia``).

    Returns
    -------
    Model

    Raises
    ------
    ValueError
        If ``inertia`` is None and the model does not have exactly one root body whose joint
        is Fixed.
    """
    bodies = [_bodies(model, i) for i in range(1, model.NB + 1)]
    if inertia is None:
        roots = model.children(0)
        if roots != [1] or model.joints[1].nv != 0:
            raise ValueError(
                "floating_base without an inertia needs one root body with a Fixed joint (got "
                f"roots {roots}, joint 1 = {model.joints[1]!r}); pass inertia= to add a new "
                "floating body instead"
            )
        _, _, X_tree, I, body_name = bodies[0]
        bodies[0] = (0, J.Free(), X_tree, I, body_name)
        return _copy(model, bodies)
    shifted = [(p + 1 if p > 0 else 1, j, X, I, nm) for p, j, X, I, nm in bodies]
    return _copy(model, [(0, J.Free(), np.eye(6), inertia, name)] + shifted)


def renumber(model: Model, order) -> tuple[Model, np.ndarray, np.ndarray]:
    """The same tree with another regular numbering (§4.1.2), and the maps of ``q`` and ``qd``.

    Parameters
    ----------
    model : Model
    order : sequence of int, length NB
        The old body numbers in their new order: new body ``k`` is old body ``order[k-1]``.
        Every body's parent must come before it (a regular numbering).

    Returns
    -------
    new_model : Model
        Same joints, tree transforms, inertias and names, renumbered.
    q_perm, v_perm : ndarray of int, shapes (nq,), (nv,)
        ``q_new = q_old[..., q_perm]`` and ``qd_new = qd_old[..., v_perm]`` (also for
        ``qdd`` and ``tau``).  Per-body results map as ``new[k] = old[order[k-1]]``.

    Raises
    ------
    ValueError
        If ``order`` is not a permutation of ``1 … NB`` or puts a body before its parent.
    """
    order = list(integers(order, "order"))  # no int() truncation of 1.5
    if sorted(order) != list(range(1, model.NB + 1)):
        raise ValueError(f"order must be a permutation of 1 … {model.NB}, got {order}")
    new_number = {0: 0}
    bodies = []
    for k, old in enumerate(order, start=1):
        parent = model.parent[old]
        if parent not in new_number:
            raise ValueError(
                f"order puts body {old} before its parent {parent}; parents must come first"
            )
        new_number[old] = k
        _, joint, X_tree, inertia, name = _bodies(model, old)
        bodies.append((new_number[parent], joint, X_tree, inertia, name))
    new_model = _copy(model, bodies)
    q_perm = np.concatenate(
        [np.arange(model.nq)[model.q_index[i]] for i in order] + [np.zeros(0, int)]
    )
    v_perm = np.concatenate(
        [np.arange(model.nv)[model.v_index[i]] for i in order] + [np.zeros(0, int)]
    )
    return new_model, q_perm, v_perm
