# stonebrain: build, test and measure. `make ci` is what CI runs.
CARGO ?= cargo

.PHONY: all build test ci fmt-check clippy toolchain bench vectors clean

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

ci: fmt-check clippy test

# Speed figures (playouts per second on fixed positions); `--json` for machines.
bench: build
	./target/release/stonebrain bench nogo

# Records test_vectors/botzone again, when the engine's play has changed on purpose.
vectors:
	$(CARGO) test --release --test botzone_transcripts -- --ignored

clean:
	$(CARGO) clean
