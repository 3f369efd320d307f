"""The checkers of notebook 15 accept correct solutions and reject the tempting mistakes."""

import numpy as np
import pytest

from spatial.exercises import ch15


def directions(axis):
    a = np.asarray(axis, float) / np.linalg.norm(axis)
    v1 = np.zeros(3)
    v1[np.argmin(np.abs(a))] = 1.0
    v2 = np.cross(a, v1)
    v2 /= np.linalg.norm(v2)
    v1 = np.cross(v2, a)
    return np.stack([v1 / np.linalg.norm(v1), v2])


def transpose_product(model, q, y):
    Xup, S = [None], [None]
    for i in range(1, model.NB + 1):
        qi = q[model.q_index[i]]
        Xup.append(model.joints[i].transform(qi) @ model.X_tree[i])
        S.append(model.joints[i].motion_subspace(qi))
    acc = [None] + [y[6 * (i - 1) : 6 * i].copy() for i in range(1, model.NB + 1)]
    x = np.zeros(model.nv)
    for i in range(model.NB, 0, -1):
        x[model.v_index[i]] = S[i].T @ acc[i]
        if model.parent[i]:
            acc[model.parent[i]] += Xup[i].T @ acc[i]
    return x


def test_chapter_15_checkers_accept_solutions_and_reject_mistakes():
    ch15.CHECKS["15.1"](directions)
    ch15.CHECKS["15.2"](transpose_product)
    with pytest.raises(AssertionError, match="redundant"):
        ch15.CHECKS["15.1"](lambda a: np.vstack([directions(a), np.asarray(a) / np.linalg.norm(a)]))
    with pytest.raises(AssertionError, match="eq. 2.94"):
        ch15.CHECKS["15.1"](lambda a: directions(a)[::-1])

    def no_transform(model, q, y):  # the accumulator passed on without the transform
        acc = [None] + [y[6 * (i - 1) : 6 * i].copy() for i in range(1, model.NB + 1)]
        x = np.zeros(model.nv)
        for i in range(model.NB, 0, -1):
            S = model.joints[i].motion_subspace(q[model.q_index[i]])
            x[model.v_index[i]] = S.T @ acc[i]
            if model.parent[i]:
                acc[model.parent[i]] += acc[i]
        return x

    with pytest.raises(AssertionError, match="Alg. 6"):
        ch15.CHECKS["15.2"](no_transform)
