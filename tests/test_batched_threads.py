"""Large batches in slices on threads (``spatial._batched.over_threads``, issue 15).

The slices go through the same kernel as the whole batch, so the oracle is the kernel on each
state alone (or on the batch in one piece with ``SPATIAL_THREADS=1`` and a large ``CHUNK``).
"""

import numpy as np
import pytest

import spatial as sp
from spatial import _batched
from spatial.builders import branched_tree, gu_chain, simple_pendulum


@pytest.mark.parametrize("threads", ["1", "2", "3"])
def test_sliced_batches_equal_one_state_at_a_time(monkeypatch, threads):
    monkeypatch.setenv("SPATIAL_THREADS", threads)
    monkeypatch.setattr(_batched, "CHUNK", 7)  # 40 states: six slices
    rng = np.random.default_rng(0)
    model = branched_tree(7, 2.0)
    q = model.random_configuration(rng, (5, 8))
    qd, qdd = rng.standard_normal((2, 5, 8, model.nv))
    tau = sp.rnea(model, q, qd, qdd)
    assert tau.shape == (5, 8, model.nv)
    one = np.array(
        [[sp.rnea(model, q[a, b], qd[a, b], qdd[a, b]) for b in range(8)] for a in range(5)]
    )
    np.testing.assert_allclose(tau, one, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(sp.aba(model, q, qd, tau), qdd, rtol=1e-9, atol=1e-9)
    H = sp.crba(model, q)
    np.testing.assert_allclose(H[3, 4], sp.crba(model, q[3, 4]), rtol=1e-13, atol=1e-13)


def test_broadcast_inputs_and_external_forces_are_sliced_with_the_batch(monkeypatch):
    monkeypatch.setattr(_batched, "CHUNK", 4)
    rng = np.random.default_rng(1)
    model = gu_chain(4)
    q = model.random_configuration(rng, (10,))
    qd = rng.standard_normal(model.nv)  # one velocity for all states
    f_ext = np.zeros((10, model.NB + 1, 6))
    f_ext[:, 1:] = rng.standard_normal((10, model.NB, 6))
    tau = rng.standard_normal((1, model.nv))  # broadcasts too
    qdd = sp.aba(model, q, qd, tau, f_ext)
    for k in (0, 9):
        np.testing.assert_allclose(
            qdd[k], sp.aba(model, q[k], qd, tau[0], f_ext[k]), rtol=1e-12, atol=1e-12
        )


def test_a_singular_joint_inside_a_large_batch_is_reported(monkeypatch):
    monkeypatch.setattr(_batched, "CHUNK", 2)
    model = sp.Model()
    model.add_body(0, sp.joints.Revolute("z"), np.eye(6), np.zeros((6, 6)))  # no mass at all
    with pytest.raises(ValueError, match="singular"):
        sp.aba(model, np.zeros((6, 1)), np.zeros((6, 1)), np.zeros((6, 1)))


@pytest.mark.parametrize("setting", ["0", "-1", "two", "1.5"])
def test_a_bad_thread_setting_is_named(monkeypatch, setting):
    monkeypatch.setenv("SPATIAL_THREADS", setting)
    monkeypatch.setattr(_batched, "CHUNK", 2)
    model = simple_pendulum()
    with pytest.raises(ValueError, match="SPATIAL_THREADS must be a positive integer"):
        sp.rnea(model, np.zeros((6, 1)), np.zeros((6, 1)), np.zeros((6, 1)))
