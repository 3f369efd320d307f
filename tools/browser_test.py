"""Open the course in a real browser and check that its widgets work (``make test-browser``).

nbval runs every notebook in a kernel, but nothing there shows that JupyterLab renders the
widgets as controls and that moving a slider redraws the figure under it.  This script does
what a student does:

1. starts JupyterLab on 127.0.0.1 with a random token, in fast mode (``SPATIAL_NB_FAST=1``),
   with its own settings folder (notebook windowing off, so every cell is in the page) and on a
   temporary copy of the notebooks (JupyterLab autosaves executed notebooks, outputs included);
2. drives headless Chromium through ``chromedriver`` (Debian's ``chromium`` and
   ``chromium-driver``; the Makefile installs them) to open a few notebooks with widgets and
   run all their cells from the Run menu;
3. checks that every code cell ran without an error output, that each ``nb.interact`` widget
   renders as controls (a slider, not the text fallback ``interactive(children=...)``), that
   dragging the first slider of the first widget changes the figure under it, that the 3D
   scenes (``spatial.nb.figure3d``, in ``SCENES_3D``) are live ipympl canvases, not PNGs, and
   turn when dragged with the mouse (the server sets ``SPATIAL_3D=live``, as ``make lab``
   does), and that the browser console logged no errors;
4. stops the server it started, by its process id, whatever happened;
5. if the static book has been built (``make book`` writes ``build/book``; ``.ci/run`` builds
   it), opens every chapter and project page from disk and checks that it shows each figure its
   executed notebook drew, that MathJax typeset its equations offline and that the console
   stayed clean, then opens the book's other pages (landing page, glossary, API reference,
   ...) and checks their equations and console (``tools/book_pages.py``).

Usage: ``python tools/browser_test.py [NOTEBOOK ...]`` (paths in ``notebooks/``, e.g.
``projects/P3-three-formulations.ipynb``; default: three notebooks with slider widgets).  Exits
non-zero and says what failed; prints what it checked.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ["01-spatial-vectors.ipynb", "05-inverse-dynamics-rnea.ipynb", "06-crba-sparsity.ipynb"]
SCENES_3D = {"01-spatial-vectors.ipynb"}  # opened notebooks with a 3D scene to drag
RUN_TIMEOUT = 240  # s for one notebook to run all its cells in fast mode
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

# JavaScript run in the page: the state of every code cell, widget and figure.
CELLS_JS = """
const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
if (!panel) return [];
return Array.from(panel.querySelectorAll('.jp-CodeCell')).map(cell => ({
  prompt: (cell.querySelector('.jp-InputPrompt') || {}).textContent || '',
  collapsed: !!cell.querySelector('.jp-InputPlaceholder'),
  errors: Array.from(cell.querySelectorAll(
      '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'))
    .map(e => e.textContent).filter(t => /Traceback|Error/.test(t)),
  text: Array.from(cell.querySelectorAll('.jp-OutputArea-output'))
    .map(e => e.textContent).join('\\n'),
  interact: cell.querySelectorAll('.widget-interact').length,
  sliders: cell.querySelectorAll('.widget-interact .widget-slider').length,
}));
"""
FIGURE_JS = """
const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
const box = panel && panel.querySelectorAll('.widget-interact')[arguments[0]];
const img = box && box.querySelector('img');
if (img) return img.src;
// a 3D scene is a live ipympl canvas (spatial.nb.figure3d): its pixels, once drawn
const canvas = box && box.querySelector('.jupyter-matplotlib-canvas-div canvas');
if (!canvas || !canvas.width) return null;
const blank = document.createElement('canvas');
[blank.width, blank.height] = [canvas.width, canvas.height];
const url = canvas.toDataURL();
return url === blank.toDataURL() ? null : url;
"""
# JavaScript: the live 3D canvases (ipympl, from spatial.nb.figure3d) of the open notebook,
# whether each has drawn pixels, and those pixels.
SCENES_JS = """
const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
if (!panel) return null;
return Array.from(panel.querySelectorAll('.jupyter-matplotlib-figure')).map(fig => {
  const canvas = fig.querySelector('.jupyter-matplotlib-canvas-div canvas');
  if (!canvas || !canvas.width) return {drawn: false, pixels: null};
  const blank = document.createElement('canvas');
  [blank.width, blank.height] = [canvas.width, canvas.height];
  const url = canvas.toDataURL();
  return {drawn: url !== blank.toDataURL(), pixels: url};
});
"""


class BrowserTestError(AssertionError):
    """A check of the browser test failed."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_lab(settings: Path) -> tuple[subprocess.Popen, str]:
    """Start JupyterLab on 127.0.0.1; return the process and the base URL with its token."""
    port, token = _free_port(), secrets.token_hex(16)
    # a copy of the notebooks: JupyterLab autosaves what it runs, outputs and all
    shutil.copytree(ROOT / "notebooks", settings / "notebooks")
    tracker = settings / "@jupyterlab" / "notebook-extension"
    tracker.mkdir(parents=True)
    (tracker / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
    env = dict(os.environ, SPATIAL_NB_FAST="1", SPATIAL_NB_STRICT="1")
    env["SPATIAL_3D"] = "live"  # 3D scenes as rotatable ipympl canvases, as in `make lab`
    env.pop("MPLBACKEND", None)  # the kernel's own inline backend, as a student has it
    command = [
        str(Path(sys.executable).parent / "jupyter"),
        "lab",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={settings / 'notebooks'}",
        f"--LabApp.user_settings_dir={settings}",
        f"--LabApp.workspaces_dir={settings / 'workspaces'}",
    ]
    if os.geteuid() == 0:
        command.append("--allow-root")
    log = open(settings / "lab.log", "w")  # noqa: SIM115 (closed with the process)
    server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    for _ in range(120):
        if server.poll() is not None:
            raise BrowserTestError(f"JupyterLab exited early; see {settings / 'lab.log'}")
        try:
            urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
            return server, f"{base}/lab/tree/{{}}?reset&token={token}"  # one notebook open
        except OSError:
            time.sleep(0.5)
    raise BrowserTestError("JupyterLab did not answer within 60 s")


def stop(server: subprocess.Popen) -> None:
    """Stop the server this script started (by its pid), then make sure it is gone."""
    if server.poll() is None:
        os.kill(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.kill(server.pid, signal.SIGKILL)
            server.wait()


def open_browser() -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.add_argument("--window-size=1400,1000")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def _wait(condition, timeout: float, what: str):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.5)
    raise BrowserTestError(f"timed out after {timeout:.0f} s waiting for {what}")


def _click_label(driver: webdriver.Chrome, selector: str, text: str, timeout: float) -> None:
    """Click the first element matching ``selector`` whose text is ``text``, once it shows."""
    found = _wait(
        lambda: [e for e in driver.find_elements(By.CSS_SELECTOR, selector) if e.text == text],
        timeout,
        repr(text),
    )
    found[0].click()


def run_all_cells(driver: webdriver.Chrome) -> None:
    """Click Run > Run All Cells in JupyterLab's menu bar."""
    _click_label(driver, ".lm-MenuBar-itemLabel", "Run", 60)
    _click_label(driver, ".lm-Menu-itemLabel", "Run All Cells", 10)


def _finished(cells: list[dict]) -> bool:
    """Every code cell has run; a collapsed cell (a hidden solution) shows no prompt to read."""
    shown = [c for c in cells if not c["collapsed"]]
    return bool(shown) and all(c["prompt"].strip() not in ("[*]:", "[ ]:", "") for c in shown)


def check_notebook(driver: webdriver.Chrome, url: str, name: str) -> list[str]:
    """Open ``name``, run it, check its cells, widgets and one slider; return what was seen."""
    driver.get(url.format(name))
    _wait(lambda: driver.execute_script(CELLS_JS), 90, f"{name} to open")
    time.sleep(3)  # let the kernel start before running everything
    run_all_cells(driver)
    try:
        cells = _wait(
            lambda: (c := driver.execute_script(CELLS_JS)) and _finished(c) and c,
            RUN_TIMEOUT,
            f"{name} to finish running",
        )
    except BrowserTestError:
        cells = driver.execute_script(CELLS_JS)
        stuck = [
            i
            for i, c in enumerate(cells)
            if not c["collapsed"] and c["prompt"].strip() in ("[*]:", "[ ]:", "")
        ]
        errors = [e for c in cells for e in c["errors"]]
        raise BrowserTestError(
            f"{name}: cells {stuck[:5]} did not run; errors: {errors[:2]}"
        ) from None
    time.sleep(3)  # a trailing collapsed cell has no prompt to wait for: give it time
    cells = driver.execute_script(CELLS_JS)
    errors = [(i, e[:300]) for i, c in enumerate(cells) for e in c["errors"]]
    if errors:
        raise BrowserTestError(f"{name}: cell errors {errors}")
    widgets = [c for c in cells if c["interact"]]
    fallback = [c for c in cells if "interactive(children=" in c["text"]]
    if not widgets or fallback:
        raise BrowserTestError(f"{name}: widgets rendered as text ({len(fallback)} cells)")
    if not any(c["sliders"] for c in widgets):
        raise BrowserTestError(f"{name}: no slider among its widgets")
    box = next(i for i, c in enumerate(c for c in cells if c["interact"]) if c["sliders"])
    before = _wait(lambda: driver.execute_script(FIGURE_JS, box), 30, "the widget's figure")
    panel = driver.find_element(By.CSS_SELECTOR, ".jp-NotebookPanel:not(.lm-mod-hidden)")
    handle = panel.find_elements(By.CSS_SELECTOR, ".widget-interact")[box].find_element(
        By.CSS_SELECTOR, ".widget-slider .noUi-handle, .widget-slider .ui-slider-handle"
    )
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", handle)
    ActionChains(driver).click_and_hold(handle).move_by_offset(60, 0).release().perform()
    _wait(
        lambda: (after := driver.execute_script(FIGURE_JS, box)) and after != before,
        60,
        f"{name}: the figure to change after moving the slider",
    )
    return [
        f"{len(cells)} code cells ran without errors",
        f"{len(widgets)} widgets rendered as controls",
        "moving a slider redrew its figure",
    ]


def check_rotatable_3d(driver: webdriver.Chrome, name: str) -> list[str]:
    """The open notebook's 3D scenes are live ipympl canvases that turn when dragged.

    Run after :func:`check_notebook` on a notebook with a 3D scene (``spatial.nb.figure3d``);
    fails if the scenes came as static PNGs (the fallback of nbval and the book) or if
    dragging the first one with the mouse does not redraw it.
    """
    scenes = _wait(
        lambda: (s := driver.execute_script(SCENES_JS)) and all(x["drawn"] for x in s) and s,
        30,
        f"{name}: its 3D scenes to render as live ipympl canvases (found none drawn)",
    )
    panel = driver.find_element(By.CSS_SELECTOR, ".jp-NotebookPanel:not(.lm-mod-hidden)")
    area = panel.find_element(By.CSS_SELECTOR, ".jupyter-matplotlib-canvas-div")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", area)
    before = scenes[0]["pixels"]
    drag = ActionChains(driver).move_to_element(area).click_and_hold()
    drag.move_by_offset(80, 30).pause(0.5).release().perform()
    _wait(
        lambda: driver.execute_script(SCENES_JS)[0]["pixels"] != before,
        30,
        f"{name}: the 3D scene to turn when dragged",
    )
    return [f"{len(scenes)} 3D scenes rendered as live canvases", "dragging one turned it"]


def check_book(driver: webdriver.Chrome) -> tuple[list[str], list[str]]:
    """Every page of the built book: the chapters' figures, and every page's equations and
    console (book_pages)."""
    sys.path.insert(0, str(ROOT / "tools"))
    import book_pages

    try:
        return book_pages.check_pages(driver, ROOT / "build" / "book", ROOT / "build" / "executed")
    except (FileNotFoundError, WebDriverException) as error:
        return [], [str(error).splitlines()[0]]


def console_errors(driver: webdriver.Chrome) -> list[str]:
    """Errors the page logged (JupyterLab's own and the widgets')."""
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def main(names: list[str]) -> int:
    names = names or DEFAULT
    with tempfile.TemporaryDirectory(prefix="spatial-browser-") as tmp:
        server, url = start_lab(Path(tmp))
        print(f"JupyterLab started (pid {server.pid}) on 127.0.0.1")
        driver = None
        failures = []
        try:
            driver = open_browser()
            print(f"Chromium {driver.capabilities.get('browserVersion', '?')} (headless)")
            for name in names:
                try:
                    seen = check_notebook(driver, url, name)
                    if name in SCENES_3D:
                        seen += check_rotatable_3d(driver, name)
                    logged = console_errors(driver)
                    if logged:
                        raise BrowserTestError(f"{name}: console errors {logged[:3]}")
                    print(f"ok   {name}: " + "; ".join(seen) + "; no console errors")
                except (BrowserTestError, WebDriverException) as error:
                    failures.append(name)
                    print(f"FAIL {name}: {str(error).splitlines()[0]}")
            if (ROOT / "build" / "book" / "index.html").exists():
                names = names + ["the static book"]
                pages, problems = check_book(driver)
                if problems:
                    failures.append("the static book")
                    print(f"FAIL the static book: {len(problems)} pages fail: {problems}")
                else:
                    chapters = sum(" figures, " in line for line in pages)
                    print(
                        f"ok   the static book: all {chapters} chapter pages show their"
                        f" notebooks' figures, and all {len(pages)} pages typeset their"
                        " equations with no console errors"
                    )
            elif os.environ.get("CI"):  # CI builds the book first: a missing one is a failure
                names = names + ["the static book"]
                failures.append("the static book")
                print("FAIL the static book: not built (.ci/run runs `make book` before this)")
            else:
                print("skip the static book: not built (make book writes build/book)")
        finally:
            if driver is not None:
                driver.quit()
            stop(server)
            print(f"JupyterLab stopped (pid {server.pid})")
    print(f"{len(names) - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
