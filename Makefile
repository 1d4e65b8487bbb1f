# Handheld Gomoku: every target sets itself up: .venv from requirements.txt,
# and for test and bench (the emulated micro:bit) the Debian packages when
# missing, which needs root. `make setup` installs both.
PYTHON ?= python3
VENV   := .venv
BOARD  := pico_lcd13
PORT   := auto
PAIR_VIEW ?= --window
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: setup venv debs test bench sim sim-pair sim-pair-tmux play build deploy repl typecheck lint clean

$(STAMP): requirements.txt requirements-judges.txt
	@$(PYTHON) -c 'import sys; sys.exit(not (3, 11) <= sys.version_info[:2] <= (3, 13))' || \
		{ echo "make: $(PYTHON) is not Python 3.11 to 3.13, which the pinned packages need: make PYTHON=python3.12 ..." >&2; exit 1; }
	@$(PYTHON) -c 'import ensurepip, venv' 2> /dev/null || \
		{ echo "make: $(PYTHON) has no venv module: on Debian or Ubuntu, apt-get install python3-venv" >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -r requirements.txt
	$(VENV)/bin/pip install -q --disable-pip-version-check --no-deps --upgrade \
		--target $(VENV)/judges -r requirements-judges.txt
	touch $@

venv: $(STAMP)

debs:
	@tools/ensure-debs.sh

setup: venv debs

test: setup
	$(PY) -m pytest -q

bench: setup
	$(PY) tools/bench.py

# The simulated handheld: a window when there is a display, else the terminal.
sim: venv
	$(PY) -m host_sim $(SIM_ARGS)

# Two handhelds playing each other over UDP on 127.0.0.1.
sim-pair: venv
	$(PY) -m host_sim $(PAIR_VIEW) --udp 47101 --peer 47102 --flash build/flash-pair-a & a=$$!; \
	$(PY) -m host_sim $(PAIR_VIEW) --udp 47102 --peer 47101 --flash build/flash-pair-b; b=$$?; \
	wait $$a && exit $$b

# The same without a display: two terminal handhelds side by side in tmux
# (a new tmux window when run inside tmux).
PAIR_A := $(PY) -m host_sim --terminal --udp 47101 --peer 47102 --flash build/flash-pair-a
PAIR_B := $(PY) -m host_sim --terminal --udp 47102 --peer 47101 --flash build/flash-pair-b
sim-pair-tmux: venv
	@command -v tmux > /dev/null || { echo "sim-pair-tmux: needs tmux (apt-get install tmux)" >&2; exit 1; }
	tmux $$([ -n "$$TMUX" ] && echo new-window || echo new-session) '$(PAIR_A)' \; split-window -h '$(PAIR_B)'

# The engine alone, in the terminal: type moves like h8.
play: venv
	$(PY) tools/play.py

# A real board: .mpy files for BOARD in build/<board>/, copied by mpremote.
build: venv
	$(PY) tools/build.py --board $(BOARD)

deploy: build
	$(PY) tools/deploy.py --board $(BOARD) --port $(PORT)

repl: venv
	$(PY) tools/repl.py --port $(PORT)

typecheck: venv
	$(PY) tools/typecheck.py

lint: venv
	$(VENV)/bin/ruff check .

# Everything built; the simulators' flash (build/flash-*: saved games and
# settings) stays.
clean:
	[ ! -d build ] || find build -mindepth 1 -maxdepth 1 ! -name 'flash-*' -exec rm -rf {} +
	rm -rf .pytest_cache
