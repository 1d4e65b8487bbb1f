# Handheld Gomoku: every target sets itself up (.venv from requirements.txt,
# Debian packages for the emulated micro:bit when missing).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: setup debs test bench sim clean

$(STAMP): requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -r requirements.txt
	touch $@

debs:
	@tools/ensure-debs.sh

setup: $(STAMP) debs

test: setup
	$(PY) -m pytest -q

bench: setup
	$(PY) tools/bench.py

sim: setup
	$(PY) tools/play.py

clean:
	rm -rf build .pytest_cache
