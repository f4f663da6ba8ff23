# The two entry points of the README. Both build .venv from nothing.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-deep bench bench-pg browser clean compiled

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# compat: the project's root on sys.path through a .pth file, not an import hook that costs
	# every command ~15 ms at start-up
	$(BIN)/pip install --quiet -e '.[test,postgres]' --config-settings editable_mode=compat
	touch $(STAMP)

# The project's bytecode, as an installed copy has it: where PYTHONDONTWRITEBYTECODE is set, every
# command would otherwise compile each module it imports, every time (about 40 ms an adj command).
compiled: $(STAMP)
	@$(BIN)/python -m compileall -q adjudicator events cli bench >/dev/null

demo: $(STAMP) compiled
	@rm -f $(VENV)/demo.sqlite3
	ADJ_STORE=$(VENV)/demo.sqlite3 $(BIN)/adj import fixtures/bacdef/demo-contradiction.jsonl
	ADJ_STORE=$(VENV)/demo.sqlite3 $(BIN)/adj log demo-contradiction
	ADJ_STORE=$(VENV)/demo.sqlite3 $(BIN)/adj state demo-contradiction
	ADJ_STORE=$(VENV)/demo.sqlite3 $(BIN)/adj verify demo-contradiction

# Two workers (pytest-xdist), a test file each at a time, so that module fixtures (a browser, a
# server) are set up once per file; the slowest tests are listed at the end with the count and time.
WORKERS ?= 2
test: $(STAMP) compiled
	HYPOTHESIS_PROFILE=$${HYPOTHESIS_PROFILE:-ci} $(BIN)/python -m pytest -n $(WORKERS) --dist loadfile --durations=15

test-deep: $(STAMP) compiled
	HYPOTHESIS_PROFILE=deep $(BIN)/python -m pytest -n $(WORKERS) --dist loadfile --durations=15

bench: $(STAMP) compiled
	$(BIN)/pip install --quiet eventsourcing
	$(BIN)/python bench/run.py $(BENCH_ARGS)

bench-pg: $(STAMP) compiled
	$(BIN)/python bench/pg_load.py

# Chromium and its driver for the page's browser tests (Debian; run as root). .ci/run does the same.
browser:
	apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
