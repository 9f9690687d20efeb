# Hearth: the two commands are `make serve` and `make test` (see README.md).
SHELL := /bin/bash
SWIFT ?= swift
# `make serve` honours the same environment variables as `hearth serve`.
HOST ?= $(or $(HEARTH_HOST),127.0.0.1)
PORT ?= $(or $(HEARTH_PORT),8080)
DATABASE ?= $(or $(HEARTH_DATABASE),./data/hearth.sqlite)
VENV := .venv
PYTHON := $(VENV)/bin/python

# Debian packages the build, the tests and the tools need. tzdata is the time zone database
# the server reads at run time (/usr/share/zoneinfo). chromium and chromium-driver run the link
# pages in a real headless browser (EndToEndTests.BrowserTests, driven by Selenium from .venv).
# libpq-dev: the PostgreSQL store's client library; postgresql: the server of the throwaway
# cluster the PostgreSQL pass of `make test` runs against (tools/postgres/cluster); nginx-light:
# the load balancer in front of several instances; openssl: the test cluster's TLS certificate.
BUILD_PACKAGES := libsqlite3-dev libpq-dev libssl-dev zlib1g-dev tzdata
TEST_PACKAGES := postgresql openssl python3-venv tmux chromium chromium-driver unzip nginx-light
# sqlite3: the command-line shell tools/bench/geo/index_choice.py migrates its database with (the geo
# benchmarks' R*Tree comes with Debian's libsqlite3, through Python's sqlite3 module).
# postgresql: the throwaway cluster tools/bench/scale runs its instances on.
BENCH_PACKAGES := wrk nginx-light postgresql nodejs node-graphql node-ws valgrind binutils faketime sqlite3 linux-perf
# Autobahn's accelerators (wsaccel, ujson) and Twisted are built from source: a C compiler.
CONFORMANCE_PACKAGES := build-essential

.PHONY: serve test test-postgres build release install deps test-deps bench-deps venv bench fuzz clean embed-check check-dependencies conformance conformance-venv conformance-fast

serve: deps release
	@mkdir -p "$(dir $(DATABASE))"
	./.build/release/hearth migrate --database "$(DATABASE)"
	exec ./.build/release/hearth serve --host "$(HOST)" --port "$(PORT)" --database "$(DATABASE)"

# The fast Autobahn groups run here too (seconds, on the debug build); `make conformance` runs them all.
CONFORMANCE_FAST_GROUPS := 1,2,3,4,5,6,7,10

# The suites that exist for PostgreSQL (`Postgres` in their name: `PostgresPoolTests`,
# `SharedDeploymentPostgresTests`) need a cluster: the
# SQLite pass leaves them to the PostgreSQL pass (tools/postgres/suites lists them).
POSTGRES_ONLY_SUITES := '^[A-Za-z]+\.[A-Za-z]*Postgres[A-Za-z]*Tests[/.]'

# Two runs: the end-to-end tests wait on server processes from Swift's cooperative threads (one
# per core), which would starve the in-process servers of the other suites if they shared a run.
# Then the PostgreSQL pass (test-postgres).
test: deps test-deps venv embed-check check-dependencies
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory conformance-fast
	HEARTH_BIN="$$($(SWIFT) build --show-bin-path)/hearth" HEARTH_PYTHON="$(CURDIR)/$(PYTHON)" $(SWIFT) test --skip-build --skip '^EndToEndTests\.' --skip $(POSTGRES_ONLY_SUITES)
	HEARTH_BIN="$$($(SWIFT) build --show-bin-path)/hearth" HEARTH_PYTHON="$(CURDIR)/$(PYTHON)" $(SWIFT) test --skip-build --filter '^EndToEndTests\.' --skip $(POSTGRES_ONLY_SUITES)
	$(MAKE) --no-print-directory test-postgres
	@if [ -z "$(PYTHON2)" ]; then echo "$$NO_PYTHON2" >&2; fi

# The suites of tools/postgres/suites again, each test on its own database of a throwaway
# PostgreSQL cluster started and stopped around the run (tools/postgres/run-suites); a cluster
# that cannot start fails the run. Needs `make test`'s build.
test-postgres: test-deps
	SWIFT="$(SWIFT)" HEARTH_BIN="$$($(SWIFT) build --show-bin-path)/hearth" HEARTH_PYTHON="$(CURDIR)/$(PYTHON)" tools/postgres/run-suites

release: embed-check
	$(SWIFT) build -c release --static-swift-stdlib --product hearth

# `make install` puts the release binary on the PATH: $(PREFIX)/bin/hearth (PREFIX=/usr/local by
# default; DESTDIR for packaging). The binary carries its migrations, schema and resources.
PREFIX ?= /usr/local
install: deps release
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 0755 .build/release/hearth "$(DESTDIR)$(PREFIX)/bin/hearth"
	@echo "installed $(DESTDIR)$(PREFIX)/bin/hearth"

# Package.swift declares exactly what each target imports, within docs/architecture.md's layering.
check-dependencies:
	tools/check-dependencies

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
	$(SWIFT) build -c release --product RecurrenceBench
	$(SWIFT) build -c release --product GeoBench
	$(SWIFT) build -c release --product PushBench
	tools/bench/run-all

# RFC 6455 / RFC 7692 conformance: Autobahn|Testsuite's fuzzingclient against `hearth serve --ws-echo`
# (tools/conformance/README.md). Autobahn is Python 2 code, and Debian 12 has no Python 2:
# tools/find-python2 looks for a 2.7 interpreter (PYTHON2=..., the PATH, pyenv's versions).
# Without one, `make test` runs everything else and says loudly that these groups were skipped;
# `make conformance` fails with the way to get one (`pyenv install 2.7.18`).
ifndef PYTHON2
PYTHON2 := $(shell tools/find-python2)
endif
AUTOBAHN_VENV := .venv-autobahn
# The last virtualenv that runs on Python 2.
VIRTUALENV_FOR_PYTHON2 := virtualenv==20.15.1
define NO_PYTHON2
==============================================================================
 WEBSOCKET CONFORMANCE SKIPPED: no Python 2.7 interpreter found.
 The Autobahn|Testsuite groups (RFC 6455 / RFC 7692) did not run; `make test`
 runs every other test without them. To run them: `pyenv install 2.7.18` (or
 set PYTHON2=/path/to/python2.7), then `make test` or `make conformance`.
 See tools/conformance/README.md.
==============================================================================
endef
export NO_PYTHON2

# The permessage-deflate groups (12, 13) push thousands of large messages: they run on the release build.
conformance: deps
	@if [ -z "$(PYTHON2)" ]; then echo "$$NO_PYTHON2" >&2; exit 1; fi
	$(MAKE) --no-print-directory conformance-venv release
	tools/conformance/run --hearth .build/release/hearth

# The fast groups on the debug build, or a loud notice when there is no Python 2.7 to run them.
conformance-fast:
	@if [ -z "$(PYTHON2)" ]; then \
		echo "$$NO_PYTHON2" >&2; \
	else \
		$(MAKE) --no-print-directory conformance-venv && \
		tools/conformance/run --groups $(CONFORMANCE_FAST_GROUPS) --hearth "$$($(SWIFT) build --show-bin-path)/hearth"; \
	fi

conformance-venv: $(AUTOBAHN_VENV)/.installed

$(AUTOBAHN_VENV)/.installed: tools/conformance/requirements.txt
	@tools/install-packages $(CONFORMANCE_PACKAGES)
	$(PYTHON2) -m pip install --user --quiet --disable-pip-version-check $(VIRTUALENV_FOR_PYTHON2)
	rm -rf $(AUTOBAHN_VENV)
	$(PYTHON2) -m virtualenv --quiet $(AUTOBAHN_VENV)
	$(AUTOBAHN_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r tools/conformance/requirements.txt
	touch $@

FUZZ_SECONDS ?= 120
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) tools/fuzz/run-all

clean:
	rm -rf .build $(VENV) $(AUTOBAHN_VENV)
