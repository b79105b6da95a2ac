# Race Companion: the two commands of the Quick start, and the benchmarks.
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
STAMP   = $(VENV)/.installed

.PHONY: run test bench demo image clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[desktop,test]'
	touch $(STAMP)

# The table screen runs beside the emulator on the same state and pinout, those of ARGS
# too (`companion run --table`: its address is printed first; TABLE_PORT=8081 for another
# port); it stops with the companion.
run: $(STAMP)
	@COMPANION_PORT_OPTION="TABLE_PORT=8081 (make run TABLE_PORT=8081)" $(VENV)/bin/companion run --table $(if $(TABLE_PORT),--table-port $(TABLE_PORT)) $(ARGS)

test: $(STAMP)
	$(PY) -m pytest $(ARGS)

demo: $(STAMP)
	$(VENV)/bin/companion demo --out demo-out $(ARGS)

bench: $(STAMP)
	$(PY) bench/run.py $(ARGS)

# The SD card image (as root; firmware/image/build.sh --dry-run prints its steps):
# out/race-companion.img.xz and out/race-companion.json for Raspberry Pi Imager.
image:
	firmware/image/build.sh $(ARGS)

clean:
	rm -rf $(VENV) demo-out build out *.egg-info
