"""Shared fixtures: a seeded random generator and random rigid transforms."""

import numpy as np
import pytest


@pytest.fixture
def rng():
    return np.random.default_rng(20261122)
