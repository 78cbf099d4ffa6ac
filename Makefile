# notifyd — build, test and run.
#
#   make run    set up, build, and run the daemon in the foreground on config/shop.yaml
#   make test   set up, build, and run every test (unit, integration, python interop, systemd end-to-end)
#
# Set-up installs what is missing (Debian -dev packages, the python varlink client), so both
# targets work on a fresh machine.

SWIFT       ?= swift
PREFIX      ?= /usr/local
CONFIG      ?= config/shop.yaml
RUN_DIR     ?= $(CURDIR)/.run
SOCKET      ?= $(RUN_DIR)/notifyd.sock
STATE_DIR   ?= $(RUN_DIR)/state
APT_PACKAGES = libsystemd-dev libyaml-dev libsqlite3-dev pkg-config systemd graphviz
PIP_PACKAGES = varlink pytest
RELEASE_FLAGS = -c release -Xswiftc -enforce-exclusivity=checked

.PHONY: all deps build release test unit-test integration-test e2e-test run bench fuzz install lint format clean

all: build

deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi
	@for p in $(PIP_PACKAGES); do \
	    python3 -c "import $$p" 2>/dev/null || python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore $$p; \
	done

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build $(RELEASE_FLAGS) --static-swift-stdlib

unit-test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# The real binaries on temporary sockets, driven by the independent Python varlink client.
integration-test: deps
	$(SWIFT) build
	python3 -m pytest -q tests/integration

# A real systemd as PID 1 in a namespace, with the hardened units and the static binary.
e2e-test: release
	bash tests/e2e/run.sh

test: unit-test integration-test e2e-test

run: build
	@mkdir -p $(RUN_DIR) $(STATE_DIR)
	@echo "notifyd on $(SOCKET) — try: .build/debug/notifyctl --socket $(SOCKET) send examples/payloads/apns-offer.json"
	.build/debug/notifyd --config $(CONFIG) --socket $(SOCKET) --state-dir $(STATE_DIR) --log-target console

lint:
	$(SWIFT) format lint --recursive Sources Tests Benchmarks

format:
	$(SWIFT) format --in-place --recursive Sources Tests Benchmarks

clean:
	rm -rf .build $(RUN_DIR)
