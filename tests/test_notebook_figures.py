"""notebooks/conftest.py: the count of image outputs per notebook fails, passes and skips.

Two tiny notebooks, one that shows a figure and one that shows none, are run by nbval with the
plugin (copied next to them) in a subprocess, once with the inline backend, which keeps figures,
and once with Agg, which does not.
"""

import json
import os
import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _notebook(path, source):
    cell = {"cell_type": "code", "execution_count": None, "id": "c0", "metadata": {}}
    cell |= {"outputs": [], "source": source}
    nb = {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb))


def _run(folder, backend):
    env = dict(os.environ, MPLBACKEND=backend, PYTHONPATH=str(ROOT))
    args = ["--nbval", "--nbval-current-env", "-p", "no:randomly", "-p", "no:cacheprovider"]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", *args, "-rA", str(folder)],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return run.stdout + run.stderr


def test_the_figure_count_fails_passes_and_skips(tmp_path):
    shutil.copy(ROOT / "notebooks" / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    draw = "import matplotlib.pyplot as plt\nplt.plot([0, 1], [1, 0])\nplt.show()\n"
    _notebook(tmp_path / "draws.ipynb", draw)
    _notebook(tmp_path / "silent.ipynb", "x = 1 + 1\n")

    out = _run(tmp_path, "module://matplotlib_inline.backend_inline")
    assert "PASSED draws.ipynb::figures" in out, out
    assert "FAILED silent.ipynb::figures" in out, out
    assert "silent: the executed notebook has 0 image output(s), fewer than its minimum of 1" in out
    assert "draws: 1 / 1" in out and "silent: 0 / 1" in out  # the summary

    out = _run(tmp_path, "Agg")
    assert "SKIPPED" in out, out
    assert "MPLBACKEND=Agg discards figures" in out, out
    assert "FAILED" not in out, out
