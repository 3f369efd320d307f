"""Sphinx configuration of the static book: the course's notebooks as one HTML site.

``make book`` executes every notebook (MyST-NB, full mode) and builds the site into
``build/book``; ``make test`` builds it without executing (``SPATIAL_BOOK_EXECUTE=off``) with
warnings as errors, so a broken cross-reference or table-of-contents entry fails the tests.
The table of contents is ``notebooks/_toc.yml`` (read by ``sphinx-external-toc``).  Widgets
are drawn as static figures of their teaching defaults (``SPATIAL_STATIC=1``, see
``spatial.nb.interact``); the live widgets stay in JupyterLab.
"""

import os

project = "spatial: rigid-body dynamics, verified"
author = "the spatial developers"
extensions = ["myst_nb", "sphinx_external_toc"]
external_toc_path = "_toc.yml"
external_toc_exclude_missing = False
exclude_patterns = ["_build", ".ipynb_checkpoints"]

myst_enable_extensions = ["dollarmath", "amsmath"]
myst_dmath_double_inline = True  # $$ … $$ inside a paragraph, as Jupyter renders it
myst_heading_anchors = 3
nb_execution_mode = os.environ.get("SPATIAL_BOOK_EXECUTE", "force")
nb_execution_timeout = 900
nb_execution_raise_on_error = True
nb_merge_streams = True

html_theme = "sphinx_book_theme"
html_title = "spatial"
html_theme_options = {"show_toc_level": 2}
