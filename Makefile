# stonebrain: build, test and measure. `make ci` is what CI runs.
CARGO ?= cargo

.PHONY: all build test ci fmt-check clippy toolchain bench vectors clean \
	release install check-install check-release botzone check-botzone windows check-windows \
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

# All tests. Search-heavy tests run in release mode, where they take seconds, not minutes.
test:
	$(CARGO) test --release

# Makes sure the formatter and linter are installed (a fresh machine may lack them).
toolchain:
	@$(CARGO) fmt --version >/dev/null 2>&1 || rustup component add rustfmt
	@$(CARGO) clippy --version >/dev/null 2>&1 || rustup component add clippy

fmt-check: toolchain
	$(CARGO) fmt --check

clippy: toolchain
	$(CARGO) clippy --all-targets -- -D warnings

# Every shipping route is checked by CI too: the static binary and the Botzone packages (a
# minute of building, 20 s of games), and the .exe under Wine (installing MinGW and Wine takes
# under 30 s, the build a minute, the games 10 s).
ci: fmt-check clippy test check-botzone check-install check-windows

# Speed figures (playouts per second on fixed positions); `--json` for machines.
bench: build
	./target/release/stonebrain bench nogo

# Records test_vectors/botzone again, when the engine's play has changed on purpose.
vectors:
	$(CARGO) test --release --test botzone_transcripts -- --ignored

# A static (musl) Linux binary, and the same file under the names that choose a game.
release: musl-target
	$(CARGO) build --profile dist --target $(MUSL)
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
	STONEBRAIN_BOTZONE_DIR=$(abspath $(DIST)/botzone) $(CARGO) test --release --test botzone_package

# The Windows executable for the SAU platform and Gomocup managers, cross-built with MinGW-w64.
windows: windows-toolchain
	$(CARGO) build --profile dist --target $(WINDOWS)
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
		$(CARGO) test --release --test windows_exe -- --ignored
	$(CARGO) clippy --target $(WINDOWS) -- -D warnings

clean:
	$(CARGO) clean
