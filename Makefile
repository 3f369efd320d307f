# Every target sets up .venv itself from pyproject.toml (re-installing when it changes).
# Python's compiled-module cache stays on for every command here, even where the environment turns it
# off (PYTHONDONTWRITEBYTECODE, common in containers): otherwise each test worker, notebook kernel and
# grader process compiles the package, its tests and the imported libraries again from source.
unexport PYTHONDONTWRITEBYTECODE
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# The tests run several processes per core (two pytest workers each for the library and the
# notebooks, their kernels, the book check): a BLAS thread pool in each only spins while it waits
# for a core (the library alone: 336 -> 323 CPU-s with one thread).  The course's matrices are
# small; the benchmarks (make bench) keep the default.
ONE_BLAS_THREAD := OPENBLAS_NUM_THREADS=1
# matplotlib's inline backend is headless and keeps every shown figure as an image output, which
# notebooks/conftest.py counts (with Agg, plt.show() does nothing and no figure is kept).  Draft
# mode draws every figure once at half resolution, as nobody looks at the tests' images; widget
# updates still render as the reader's, so their recorded times are the reader's (spatial.nb).
NB_ENV := SPATIAL_NB_FAST=1 SPATIAL_NB_STRICT=1 SPATIAL_NB_DRAFT=1 \
	MPLBACKEND=module://matplotlib_inline.backend_inline $(ONE_BLAS_THREAD)
# Jupyter refuses to run as root unless told to (containers often run as root)
LAB_FLAGS ?= $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: setup lab test test-lib test-notebooks test-browser test-book book api choosing lint figures bench navigation student grade clean

EXTRAS := notebooks,test,robots,book,classroom
# uv resolves and installs the same packages as pip in about a tenth of the time (10 s against 80 s
# on the 2-core machine); if uv cannot be installed or fails, pip does the install.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet uv && \
		$(BIN)/uv pip install --quiet --python $(BIN)/python --upgrade pip -e ".[$(EXTRAS)]" || \
		$(BIN)/python -m pip install --quiet --upgrade pip -e ".[$(EXTRAS)]"
	touch $@

setup: $(STAMP)

# 3D scenes are rotatable ipympl canvases in JupyterLab (spatial.nb.figure3d_mode)
lab: export SPATIAL_3D = live
lab: $(STAMP)
	$(BIN)/jupyter lab $(LAB_FLAGS) notebooks/

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/nbstripout --verify notebooks/*.ipynb notebooks/projects/*.ipynb
	$(BIN)/lint-imports

# worksteal: a worker that runs out of tests takes half of the other's queue, so the run does not
# end on one worker finishing a long tail alone
test-lib: $(STAMP)
	MPLBACKEND=Agg $(ONE_BLAS_THREAD) $(BIN)/pytest -n 2 --dist worksteal --doctest-modules \
		spatial tests

# every notebook under notebooks/: the chapters and the projects (notebooks/projects/)
test-notebooks: $(STAMP)
	$(NB_ENV) $(BIN)/pytest --nbval --nbval-current-env -n 2 --dist loadscope \
		-p no:randomly notebooks/

# The four parts run at once (-j4), so the cores never wait: the single-threaded book build and
# lint overlap the test runs, and the notebook run starts without waiting for the library's last
# slow test.  -k runs every part even when one fails; --output-sync prints each part's output in
# one piece when it ends (its failures included), and `make test` fails if any part failed.
test: $(STAMP)
	@$(MAKE) --no-print-directory -k -j4 --output-sync=target lint test-lib test-notebooks test-book

# The static book (book/conf.py): `make book` executes every notebook into build/executed, two
# at a time (tools/execute_notebooks.py; widgets as static figures), then renders those copies
# into build/book with warnings as errors.  By hand it runs the notebooks in full mode, as a
# reader should see them; `make book BOOK_FAST=1` runs them in fast mode like the tests (CI).
# `make test-book` reads the unexecuted notebooks and resolves every cross-reference with the
# `dummy` builder, which writes no pages: a broken link, API anchor or table-of-contents entry fails
# the tests at a third less cost than writing the HTML (`make book` writes it, with -W too); nor
# does it turn quotes into typographic ones (smartquotes, 6 % of its time), which no link depends on.
BOOK_FLAGS := -W --keep-going -q -c book
BOOK := $(BIN)/sphinx-build $(BOOK_FLAGS) -b html
test-book: $(STAMP)
	SPATIAL_BOOK_EXECUTE=off $(BIN)/sphinx-build $(BOOK_FLAGS) -D smartquotes=0 -b dummy \
		notebooks build/book-check

book: $(STAMP)
	$(BIN)/python tools/execute_notebooks.py --jobs 2 $(if $(BOOK_FAST),--fast) notebooks build/executed
	SPATIAL_BOOK_EXECUTE=off $(BOOK) build/executed build/book
	@echo "the book is in build/book/index.html"

# The API reference's pages (notebooks/api/*.md) from the package's __all__ lists; run it after
# changing an __all__ (tests/test_book_pages.py fails until the pages are current).
api: $(STAMP)
	$(BIN)/python tools/api_pages.py

# The tables of notebooks/choosing.md, computed with the package (tests/test_book_pages.py fails
# when the page shows other numbers than the package computes now).
choosing: $(STAMP)
	$(BIN)/python tools/choosing_tables.py --write

# A real browser opens the course (tools/browser_test.py); Debian's Chromium and its driver are
# installed on first use (as root, or through sudo).
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)
test-browser: $(STAMP)
	@command -v chromedriver >/dev/null || { $(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium chromium-driver \
		>/dev/null; }
	$(BIN)/python tools/browser_test.py

figures: $(STAMP)
	MPLBACKEND=Agg $(BIN)/python figures/generate.py figures/

navigation: $(STAMP)
	$(BIN)/python tools/navigation.py

student: $(STAMP)
	$(BIN)/python tools/student_edition.py notebooks student

# Grade a class: SUBMISSIONS holds one folder per student with their student-edition notebooks;
# writes grades.csv and feedback/<student>.md there (tools/grade.py).
grade: $(STAMP)
	@test -n "$(SUBMISSIONS)" || { echo "usage: make grade SUBMISSIONS=<folder>"; exit 2; }
	$(BIN)/python tools/grade.py $(SUBMISSIONS) $(GRADE_FLAGS)

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/redmax.py
	$(BIN)/python benchmarks/generated.py

clean:
	rm -rf build student $(VENV) .pytest_cache .ruff_cache
