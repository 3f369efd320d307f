"""sp.nb.robot: a real robot from example-robot-data, or the stand-in when it is absent."""

import importlib.metadata

import pytest

import spatial as sp
from spatial import builders


def test_the_stand_in_is_loaded_through_urdf_when_the_package_is_absent(monkeypatch, capsys):
    def absent(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "distribution", absent)
    model = sp.nb.robot("panda.urdf", builders.arm7)
    assert "arm7() stands in for panda.urdf" in capsys.readouterr().out
    assert model.NB == builders.arm7().NB and model.nv == 7


def test_a_real_robot_is_read_from_its_file():
    pytest.importorskip("mujoco")  # the robots extra, which brings example-robot-data too
    panda = sp.nb.robot("panda.urdf", builders.arm7)
    assert panda.robot_name == "panda" and panda.nv == 9  # seven arm joints and two fingers
    with pytest.raises(FileNotFoundError, match="no file 'nobody.urdf'"):
        sp.nb.robot("nobody.urdf", builders.arm7)
