# Race Companion: the two commands of the Quick start, and the benchmarks.
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
STAMP   = $(VENV)/.installed

.PHONY: run test bench demo clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[desktop,test]'
	touch $(STAMP)

# The table screen runs beside the emulator on the same state (its address is printed
# first; TABLE_ARGS="--port 8081" for another port); it stops with the companion.
run: $(STAMP)
	@$(VENV)/bin/companion table --if-enabled $(TABLE_ARGS) & table=$$!; \
	trap 'kill $$table 2>/dev/null' EXIT INT TERM; \
	$(VENV)/bin/companion run $(ARGS)

test: $(STAMP)
	$(PY) -m pytest $(ARGS)

demo: $(STAMP)
	$(VENV)/bin/companion demo --out demo-out $(ARGS)

bench: $(STAMP)
	$(PY) bench/run.py $(ARGS)

clean:
	rm -rf $(VENV) demo-out build *.egg-info
