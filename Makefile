# The two commands a newcomer needs (see README.md). Each installs what is missing first.
.PHONY: run test setup

# Build the component, start checkout-server with the in-process gateway emulator and SQLite.
run:
	@scripts/run.sh

# Everything CI checks: format, lints, native tests, release wasm build, browser tests.
test:
	@scripts/test.sh

setup:
	@scripts/setup.sh test
