# stonebrain: build, test and measure. `make ci` is what CI runs.
CARGO ?= cargo

.PHONY: all build test ci fmt-check clippy toolchain bench vectors clean fuzz soak soak-memory load \
	release dist-binaries install check-install check-release botzone check-botzone windows check-windows \
	musl-target windows-toolchain wine bench-startup

# Where the shipped files go (a build output, ignored by git).
DIST := dist
MUSL := x86_64-unknown-linux-musl
WINDOWS := x86_64-pc-windows-gnu
# Names under which the Linux binary picks its game (or, `pbrain-`, the Gomocup protocol).
GAME_NAMES := pbrain-stonebrain stonebrain-nogo stonebrain-gomoku stonebrain-connect6
# Debian packages are installed when missing: by root directly, by anyone else through sudo.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# A fresh machine may have no package lists yet: update them only if the install fails.
apt_install = DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $(1) \
	|| ($(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $(1))
WINE := $(firstword $(wildcard /usr/lib/wine/wine64) $(shell command -v wine64 wine 2>/dev/null))

all: build

build:
	$(CARGO) build --release

# All tests. Search-heavy tests run optimised, where they take seconds, not minutes: the
# `testing` profile (Cargo.toml) is the release build without its link-time optimisation.
TEST_PROFILE := --profile testing
test:
	$(CARGO) test $(TEST_PROFILE)

# Makes sure the formatter and linter are installed (a fresh machine may lack them).
toolchain:
	@$(CARGO) fmt --version >/dev/null 2>&1 || rustup component add rustfmt
	@$(CARGO) clippy --version >/dev/null 2>&1 || rustup component add clippy

fmt-check: toolchain
	$(CARGO) fmt --check

clippy: toolchain
	$(CARGO) clippy --all-targets -- -D warnings

# Every shipping route is checked by CI too: the static binary and the Botzone packages (35 s
# of games), and the .exe under Wine (installing MinGW and Wine takes under 30 s, the games
# 12 s). The two binaries are built first, together: 3 min 26 s on this 2-core machine, against
# 4 min 30 s one after the other (stop 111).
ci: fmt-check clippy test dist-binaries check-botzone check-install check-windows

# Both shipped binaries in one cargo run. Each ends in an optimisation of the whole crate that
# runs on one core (one codegen unit, thin LTO, about two minutes here); built together, the two
# take the two cores at once, and `release` and `windows` then find them built.
dist-binaries: musl-target windows-toolchain
	$(CARGO) build --profile dist --target $(MUSL) --target $(WINDOWS) --bin stonebrain

# Speed figures (playouts per second on fixed positions); `--json` for machines.
bench: build
	./target/release/stonebrain bench nogo

# The in-process fuzzer over every input surface: ten million inputs (a few minutes on two
# cores), the inputs per second of each target and in all; it stops with a failure status on a
# panic, an answer out of the platform's form, or a hang, and writes the input to
# target/fuzz-failures/<target>/. `make test` runs a short slice of it.
FUZZ_INPUTS ?= 10000000
FUZZ_SEED ?= 1
fuzz:
	$(CARGO) build --release --bin stonebrain-fuzz
	./target/release/stonebrain-fuzz --inputs $(FUZZ_INPUTS) --seed $(FUZZ_SEED)

# The soak: SOAK_GAMES games between two copies of the release binary over every game and
# protocol (13 pairs, games shared evenly), refereed by the arena with real processes at 175 ms a
# move (SAU: 5 s a game), SOAK_CONCURRENCY at once; about half an hour for 3,000 on two cores. It
# fails on any illegal move, time loss, crash or protocol error, and lists them; every game goes
# to target/soak-games.jsonl. `make test` plays a 26-game slice.
SOAK_GAMES ?= 3000
SOAK_CONCURRENCY ?= 2
soak:
	$(CARGO) build --release --bin stonebrain --bin stonebrain-soak
	./target/release/stonebrain-soak play --games $(SOAK_GAMES) --concurrency $(SOAK_CONCURRENCY) \
		--out target/soak-games.jsonl

# The bot's peak memory (max RSS of its processes, from wait4) in one game of each game and mode
# at its platform's largest limit: Botzone's Python limits (6 s a turn, 4 s later kept-running
# turns), SAU's 180 s a side, Gomocup's 5 s a move and 180 s a game, GTP 6 s a move; against
# Botzone's 256 MB. One game at a time, so that each bot searches as on an idle judge: most of an
# hour (SOAK_MEMORY_CONCURRENCY=2 halves it, with a core per game only on an otherwise idle
# machine). SOAK_MEMORY_LANGUAGE=cpp measures at Botzone's C++ limits (1 s, 2 s the first turn).
SOAK_MEMORY_CONCURRENCY ?= 1
SOAK_MEMORY_LANGUAGE ?= python
soak-memory:
	$(CARGO) build --release --bin stonebrain --bin stonebrain-soak
	./target/release/stonebrain-soak memory --concurrency $(SOAK_MEMORY_CONCURRENCY) \
		--botzone-language $(SOAK_MEMORY_LANGUAGE)

# The class server under load: LOAD_ACCOUNTS students (two a game, LOAD_GAMES at once) play
# through the real HTTP API with RSA logins for LOAD_SECONDS, hostile requests of every kind go
# beside them, and the server is killed with SIGKILL LOAD_KILLS times under load and started
# again on its folder. It prints requests/s, latencies, games, the hostile requests' answers and
# each kill's downtime, then audits every finished game and rating after a last kill and
# restart: exit 0 pass, 1 fail, 2 could not run. `make test` runs an 8-second slice.
LOAD_SECONDS ?= 600
LOAD_ACCOUNTS ?= 60
LOAD_GAMES ?= 30
LOAD_KILLS ?= 1
load:
	$(CARGO) build --release --bin stonebrain --bin stonebrain-load
	./target/release/stonebrain-load --seconds $(LOAD_SECONDS) --accounts $(LOAD_ACCOUNTS) \
		--games $(LOAD_GAMES) --kills $(LOAD_KILLS)

# Records test_vectors/botzone again, when the engine's play has changed on purpose.
vectors:
	$(CARGO) test $(TEST_PROFILE) --test botzone_transcripts -- --ignored

# A static (musl) Linux binary, and the same file under the names that choose a game.
release: musl-target
	$(CARGO) build --profile dist --target $(MUSL) --bin stonebrain
	mkdir -p $(DIST)/linux
	cp target/$(MUSL)/dist/stonebrain $(DIST)/linux/stonebrain
	for name in $(GAME_NAMES); do ln -f $(DIST)/linux/stonebrain $(DIST)/linux/$$name; done
	@$(MAKE) --no-print-directory check-release

# Copies the static binary and its game names into $(PREFIX)/bin (default /usr/local/bin;
# `make install PREFIX=$$HOME/.local` needs no root).
PREFIX ?= /usr/local
install: release
	mkdir -p $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(DIST)/linux/stonebrain $(DESTDIR)$(PREFIX)/bin/stonebrain
	for name in $(GAME_NAMES); do ln -f $(DESTDIR)$(PREFIX)/bin/stonebrain $(DESTDIR)$(PREFIX)/bin/$$name; done

# The installed names choose their protocol and game: a Gomocup brain, a Botzone NoGo bot.
check-install:
	$(MAKE) --no-print-directory install PREFIX=$(CURDIR)/target/install-check
	echo ABOUT | target/install-check/bin/pbrain-stonebrain | grep -q '^name="stonebrain"'
	echo '{"requests":[{"x":-1,"y":-1}],"responses":[]}' \
		| target/install-check/bin/stonebrain-nogo --playouts 100 | grep -q '"response":{"x"'
	@echo "make install: every name answers its platform"

# The binary must run on any x86-64 Linux (Botzone's judges, a Gomocup manager): no dynamic
# libraries at all.
check-release:
	@file $(DIST)/linux/stonebrain
	@file $(DIST)/linux/stonebrain | grep -Eq 'statically linked|static-pie linked' \
		|| (echo "$(DIST)/linux/stonebrain is not statically linked" && false)
	@! ldd $(DIST)/linux/stonebrain 2>&1 | grep -q '=>' \
		|| (echo "$(DIST)/linux/stonebrain loads shared libraries" && false)
	@echo "$(DIST)/linux/stonebrain is static: $$(stat -c %s $(DIST)/linux/stonebrain) bytes"

musl-target:
	@rustup target list --installed | grep -qx $(MUSL) || rustup target add $(MUSL)

# Botzone upload packages: a Python zip per game and mode around the static binary.
botzone: release
	python3 src/packaging/botzone/pack.py --binary $(DIST)/linux/stonebrain --out $(DIST)/botzone

# Complete games against the packages, driven as Botzone drives bots.
check-botzone: botzone
	STONEBRAIN_BOTZONE_DIR=$(abspath $(DIST)/botzone) $(CARGO) test $(TEST_PROFILE) --test botzone_package

# The Windows executable for the SAU platform and Gomocup managers, cross-built with MinGW-w64.
windows: windows-toolchain
	$(CARGO) build --profile dist --target $(WINDOWS) --bin stonebrain
	mkdir -p $(DIST)/windows
	cp target/$(WINDOWS)/dist/stonebrain.exe $(DIST)/windows/stonebrain.exe
	cp target/$(WINDOWS)/dist/stonebrain.exe $(DIST)/windows/pbrain-stonebrain.exe
	rm -f $(DIST)/windows/pbrain-stonebrain.zip
	cd $(DIST)/windows && python3 -m zipfile -c pbrain-stonebrain.zip pbrain-stonebrain.exe
	@ls -l $(DIST)/windows

windows-toolchain:
	@command -v x86_64-w64-mingw32-gcc >/dev/null || $(call apt_install,gcc-mingw-w64-x86-64)
	@rustup target list --installed | grep -qx $(WINDOWS) || rustup target add $(WINDOWS)

wine:
	@test -n "$(WINE)" || $(call apt_install,wine64)

# The .exe under Wine through full SAU and Gomocup sessions, and the Windows-only code through
# clippy.
check-windows: windows wine
	mkdir -p target/wine
	x86_64-w64-mingw32-gcc -O2 -shared -o target/wine/bcryptprimitives.dll \
		src/packaging/wine/bcryptprimitives.c -lbcrypt
	STONEBRAIN_WINDOWS_DIR=$(abspath $(DIST)/windows) \
	STONEBRAIN_WINE="$(or $(WINE),$(firstword $(wildcard /usr/lib/wine/wine64)))" \
	STONEBRAIN_WINE_SHIM=$(abspath target/wine/bcryptprimitives.dll) \
		$(CARGO) test $(TEST_PROFILE) --test windows_exe -- --ignored
	$(CARGO) clippy --target $(WINDOWS) -- -D warnings

# NoGo's network trainer (src/training/nogo/, docs/training-framework.md): PyTorch from PyPI in
# its own virtualenv under target/, never needed by the bot (which links none of it), `make
# test` or `make ci`. PyPI has no CPU-only torch for Linux, so the install is the ordinary one
# with its CUDA packages, which stay unused: 2.8 GB downloaded, 5.4 GB on disk, 1.5 to 4 minutes.
# Nothing is done when the venv already holds these packages; `rm -rf target/train-venv` starts
# it again.
.PHONY: train-env train-nogo train-vectors train-vectors-connect6
TRAIN_PYTHON ?= python3
TRAIN_VENV := target/train-venv
TRAIN_PY := $(TRAIN_VENV)/bin/python -B
TRAIN_PACKAGES := torch==2.15.0 numpy==2.4.6
train-env:
	@if [ "$$(cat $(TRAIN_VENV)/.installed 2>/dev/null)" = "$(TRAIN_PACKAGES)" ]; then \
		echo "$(TRAIN_VENV): $(TRAIN_PACKAGES) already installed"; \
	else \
		set -e; \
		$(TRAIN_PYTHON) -m venv $(TRAIN_VENV); \
		$(TRAIN_PY) -m pip install --quiet --no-cache-dir --upgrade pip; \
		$(TRAIN_PY) -m pip install --quiet --no-cache-dir $(TRAIN_PACKAGES); \
		$(TRAIN_PY) -c 'import torch; torch.nn.Conv2d(9, 8, 3)(torch.zeros(1, 9, 9, 9)).sum().backward(); print("torch", torch.__version__, "runs on the CPU")'; \
		echo "$(TRAIN_PACKAGES)" > $(TRAIN_VENV)/.installed; \
	fi

# Trains a network on the self-play data under DATA (`stonebrain selfplay nogo --out DATA`) and
# writes NET, with a checkpoint NET.ckpt every thousand steps: run again with the same NET (and
# a larger STEPS) to carry on. About 950 positions a second on two cores: the default 10,000
# steps of 256 take 45 minutes. TRAIN_ARGS passes any other flag of train.py (--help lists
# them), e.g. TRAIN_ARGS='--init target/nogo-net-1.sbnn --value-mix 0.5'. An --init network
# narrower or shallower than CHANNELS x BLOCKS is grown to that size first, computing what it did.
DATA ?= target/nogo-data
NET ?= target/nogo-net.sbnn
STEPS ?= 10000
CHANNELS ?= 32
BLOCKS ?= 6
VALUE_HIDDEN ?= 32
BATCH ?= 256
LR ?=
SEED ?= 1
TRAIN_THREADS ?= 2
TRAIN_ARGS ?=
train-nogo: train-env
	$(TRAIN_PY) src/training/nogo/train.py --data $(DATA) --out $(NET) --steps $(STEPS) \
		--channels $(CHANNELS) --blocks $(BLOCKS) --value-hidden $(VALUE_HIDDEN) \
		--batch $(BATCH) $(if $(LR),--lr $(LR)) --seed $(SEED) --threads $(TRAIN_THREADS) $(TRAIN_ARGS)

# One generation of the Gumbel loop (docs/nogo-network.md: generations 2 and 3 were made this
# way by hand). PREV's search plays GEN_GAMES games of self-play into GEN/data, choosing each
# move by Gumbel sequential halving over 16 of the prior's moves in GEN_VISITS visits (PUCT,
# leaves judged half by the value head, half by 8 playouts); PREV's weights learn those games
# and the folders in GEN_KEEP (earlier generations' data, kept as a window) for GEN_STEPS steps
# into GEN/net.sbnn; the new network then meets PREV in the search it will play in, PUCT (the
# default's settings) at 2,000 visits a move, two games at a time, until the SPRT (0, 50)
# decides or GEN_SCREEN games are played (GEN/screen.jsonl). GEN_SCREEN_ENGINE sets both
# sides' search: the screen of generations 2 to 4, the playout search at 10,000 playouts
# asking the network at 256 visits, is GEN_SCREEN_ENGINE="--playouts 10000 --nogo-search mcts
# --net-precision float --net-after 256". Self-play and training carry on where a stopped run
# left them; the screen starts again. At 64 visits the self-play makes some 17,000 games an
# hour on two cores, at 128 some 8,100; the training of 4,000 steps takes 8 minutes.
# CHANNELS and BLOCKS (train-nogo's) set the new network's size: a wider one starts from PREV.
# GEN_SELFPLAY_ARGS adds self-play flags, such as playout cap randomisation:
#   GEN_SELFPLAY_ARGS="--full-share 0.25 --fast-playouts 64" (a quarter of the moves searched
#   with GEN_VISITS and written, the rest with 64 and only played).
# Example (generation 3 of docs/nogo-network.md, 61 minutes): make nogo-generation
#   PREV=src/engine/nogo/network/nogo-gen2-gumbel.sbnn GEN=target/nogo-gen3 GEN_SEED=92
#   GEN_GAMES=5000 GEN_VISITS=128 GEN_STEPS=6000 GEN_KEEP=<generation 2's 64-visit games>
PREV ?= src/engine/nogo/network/nogo-gen3-gumbel.sbnn
GEN ?= target/nogo-generation
GEN_SEED ?= 1
GEN_GAMES ?= 4000
GEN_VISITS ?= 64
GEN_STEPS ?= 4000
GEN_KEEP ?=
GEN_SCREEN ?= 400
GEN_SCREEN_ENGINE ?= --playouts 2000
GEN_SELFPLAY_ARGS ?=
SB := target/release/stonebrain
.PHONY: nogo-generation
nogo-generation: build train-env
	mkdir -p $(GEN)
	$(SB) selfplay nogo --playouts $(GEN_VISITS) --gumbel 16 --nogo-search puct --net-precision int8 \
		--puct-rollouts 8 --puct-mix 0.5 --nogo-net $(PREV) --seed $(GEN_SEED) --threads 2 \
		--out $(GEN)/data --games $(GEN_GAMES) $(GEN_SELFPLAY_ARGS)
	$(MAKE) --no-print-directory train-nogo DATA="$(GEN)/data $(GEN_KEEP)" NET=$(GEN)/net.sbnn \
		STEPS=$(GEN_STEPS) SEED=$(GEN_SEED) LR=1e-3 \
		TRAIN_ARGS="--value-mix 0.25 --init $(PREV) --warmup 100 --log-every 500"
	$(SB) arena --game nogo --games $(GEN_SCREEN) --concurrency 2 --seed $(GEN_SEED) \
		--sprt elo0=0 elo1=50 --out $(GEN)/screen.jsonl \
		--engine name=new cmd="$(SB) --game nogo --keep-running $(GEN_SCREEN_ENGINE) --nogo-net $(GEN)/net.sbnn" proto=botzone-keep-running \
		--engine name=prev cmd="$(SB) --game nogo --keep-running $(GEN_SCREEN_ENGINE) --nogo-net $(PREV)" proto=botzone-keep-running

# Writes test_vectors/nogo/network again (a tiny network and its outputs on fixed positions,
# which the Rust forward pass is tested against), when the network's format changes on purpose.
train-vectors: train-env
	$(TRAIN_PY) src/training/nogo/train.py --export-vectors test_vectors/nogo/network --seed 1

# Writes test_vectors/connect6/network again: a tiny Connect6 value network (reach 2, width 4)
# trained for 20 epochs on the positions of the 40 self-play games there, and its logits for
# held-out positions, which the engine's forward pass is tested against.
C6_VECTORS := test_vectors/connect6/network
train-vectors-connect6: build train-env
	target/release/stonebrain positions connect6 --reach 2 --out target/c6-vectors.c6d $(C6_VECTORS)/games.jsonl
	rm -f target/c6-vectors.sbc6 target/c6-vectors.sbc6.ckpt
	$(TRAIN_PY) src/training/connect6/train.py --data target/c6-vectors.c6d --out target/c6-vectors.sbc6 \
		--dim 4 --hidden 4 --epochs 20 --lr 0.02 --seed 1 --holdout-every 5 --threads 1 \
		--export-vectors $(C6_VECTORS)/logits.json
	cp target/c6-vectors.sbc6 $(C6_VECTORS)/net.sbc6

clean:
	$(CARGO) clean
