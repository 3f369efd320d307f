"""Project P1's checkers: the right answer passes, typical mistakes fail without the answer."""

import numpy as np
import pytest

import spatial as sp
from spatial import builders
from spatial.exercises import p1


def _weight_per_foot():
    # Independent route: the composite-rigid-body inertia of the whole robot about its
    # floating base; its translational block is m·1 (Featherstone §9.4 / ch. 6).
    model = builders.quadruped(floating=True)
    H = sp.crba(model, model.neutral_configuration())
    m = H[3, 3]
    return m * 9.81 / 4.0


def test_p1_1_right_answer_passes():
    p1.CHECKS["P1.1"](_weight_per_foot())


@pytest.mark.parametrize("factor", [4.0, 0.5, 1 / 9.81])
def test_p1_1_typical_mistakes_fail_without_answer(factor):
    wrong = _weight_per_foot() * factor
    with pytest.raises(AssertionError) as err:
        p1.CHECKS["P1.1"](wrong)
    assert "reread" in str(err.value).lower() or "§" in str(err.value)
    assert f"{_weight_per_foot():.3g}" not in str(err.value)


def test_p1_1_not_attempted():
    with pytest.raises(NotImplementedError):
        p1.CHECKS["P1.1"](...)


def test_total_mass_rejects_non_model():
    with pytest.raises(TypeError, match="model"):
        p1.total_mass("solo12")


def test_check_through_nb():
    sp.nb.check("P1.1", _weight_per_foot())
    assert np.isfinite(p1.foot_force())
