# somniq — build, try and test. Every target installs what it needs on Debian 12.

SWIFT      ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
PREFIX     ?= /usr/local
DESTDIR    ?=
APT_PACKAGES = libasound2-dev libfftw3-dev libsndfile1-dev libsamplerate0-dev pkg-config sox libsox-fmt-all flac

.PHONY: all deps build demo test bench profiles clean

all: build

# Installs the C libraries somniq links and the tools its tests use, if any is missing.
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

build: deps
	$(SWIFT) build -c release

# Replays the bundled demo night and prints its events.
demo: build
	@echo
	@.build/release/somniq replay fixtures/demo-night.flac --format table

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

bench: build
	.build/release/somniq bench --hours 8

# Re-embeds profiles/*.json into the binary after editing them.
profiles:
	scripts/embed-profiles.sh

clean:
	rm -rf .build
