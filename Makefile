# Handheld Gomoku: every target sets itself up (.venv from requirements.txt,
# Debian packages for the emulated micro:bit when missing).
PYTHON ?= python3
VENV   := .venv
PAIR_VIEW ?= --window
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: setup debs test bench sim sim-pair play clean

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

# The simulated handheld: a window when there is a display, else the terminal.
sim: setup
	$(PY) -m host_sim $(SIM_ARGS)

# Two handhelds playing each other over UDP on 127.0.0.1.
sim-pair: setup
	$(PY) -m host_sim $(PAIR_VIEW) --udp 47101 --peer 47102 --flash build/flash-pair-a & \
	$(PY) -m host_sim $(PAIR_VIEW) --udp 47102 --peer 47101 --flash build/flash-pair-b; wait

# The engine alone, in the terminal: type moves like h8.
play: setup
	$(PY) tools/play.py

clean:
	rm -rf build .pytest_cache
