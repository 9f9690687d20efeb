# Hearth: the two commands are `make serve` and `make test` (see README.md).
SHELL := /bin/bash
SWIFT ?= swift
# `make serve` honours the same environment variables as `hearth serve`.
HOST ?= $(or $(HEARTH_HOST),127.0.0.1)
PORT ?= $(or $(HEARTH_PORT),8080)
DATABASE ?= $(or $(HEARTH_DATABASE),./data/hearth.sqlite)
VENV := .venv
PYTHON := $(VENV)/bin/python

# Debian packages the build, the tests and the tools need.
BUILD_PACKAGES := libsqlite3-dev libssl-dev zlib1g-dev
TEST_PACKAGES := python3-venv tmux
BENCH_PACKAGES := wrk nginx-light nodejs node-graphql node-ws

.PHONY: serve test build release deps test-deps bench-deps venv bench fuzz clean embed-check

serve: deps release
	@mkdir -p "$(dir $(DATABASE))"
	./.build/release/hearth migrate --database "$(DATABASE)"
	exec ./.build/release/hearth serve --host "$(HOST)" --port "$(PORT)" --database "$(DATABASE)"

test: deps test-deps venv embed-check
	$(SWIFT) build --build-tests
	HEARTH_BIN="$$($(SWIFT) build --show-bin-path)/hearth" HEARTH_PYTHON="$(CURDIR)/$(PYTHON)" $(SWIFT) test --skip-build

release: embed-check
	$(SWIFT) build -c release --static-swift-stdlib --product hearth

build: embed-check
	$(SWIFT) build

# The build embeds migrations/ through a plugin that watches the folder itself; an edited
# migration file does not change the folder's time, so refresh it here.
embed-check:
	@if [ -n "$$(find migrations -name '*.sql' -newer migrations)" ]; then touch migrations; fi

deps:
	@tools/install-packages $(BUILD_PACKAGES)

test-deps:
	@tools/install-packages $(TEST_PACKAGES)

bench-deps:
	@tools/install-packages $(BENCH_PACKAGES)

# Python packages used only by tests and tools, as oracles and real protocol peers.
venv: $(VENV)/.installed

$(VENV)/.installed: tools/requirements.txt
	python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -r tools/requirements.txt
	touch $@

bench: deps bench-deps venv release
	$(SWIFT) build -c release --product GraphQLBench
	tools/bench/run-all

FUZZ_SECONDS ?= 120
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) tools/fuzz/run-all

clean:
	rm -rf .build $(VENV)
