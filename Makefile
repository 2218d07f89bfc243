# somniq — build, try, test and package. Every target installs what it needs on Debian 12.
# `make help` lists the targets.

SWIFT      ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
PREFIX     ?= /usr/local
DESTDIR    ?=
# What building needs: the -dev packages of the C libraries somniq links (ALSA, FFTW,
# libsndfile, libsoxr) and of those it opens with dlopen (libcurl, libmosquitto: their
# headers), pkg-config, binutils (the linker, strip), and python3 (the build reads the learned
# rules into their binary form with it: scripts/learned-rules-form.py).
BUILD_PACKAGES = libasound2-dev libfftw3-dev libsndfile1-dev libsoxr-dev libcurl4-openssl-dev libmosquitto-dev \
                 pkg-config binutils python3
# What the tests need besides (and the benchmarks, screenshots, eval and learn): ALSA's
# plugins and tools, sound files made and read (sox, flac, opus-tools), a broker, a sound
# server, a browser, systemd-analyze, man, file, curl, python3's venv (sedeval), prlimit
# and setpriv (util-linux).
TEST_PACKAGES = libasound2-plugins alsa-utils ca-certificates openssl mosquitto mosquitto-clients \
                sox libsox-fmt-all flac opus-tools pulseaudio pulseaudio-utils util-linux procps systemd python3-venv \
                man-db file curl chromium
# What `make deb` needs besides the build: dpkg-shlibdeps and dpkg-gencontrol.
DEB_PACKAGES = dpkg-dev

.PHONY: all help deps test-deps test-packages deb-deps sedeval build demo report-demo screenshot test man readme-check \
        fuzz bench web-bench eval eval-home battery learn learn-venv learn-home clean deb deb-check format format-check test-python \
        classes classes-check

all: build

help: ## Lists the targets, one line each.
	@echo "make TARGET, where TARGET is one of (make alone: build):"
	@sed -n 's/^\([a-z][a-z-]*\):.*## \(.*\)/\1\t\2/p' $(MAKEFILE_LIST) | awk -F '\t' '{ printf "  %-14s %s\n", $$1, $$2 }'

# apt-get installs those of the packages $(1) that are missing (or removed, their
# configuration left: dpkg -s knows them all the same).
define apt_install
	@missing=""; for p in $(1); do \
	  [ "$$(dpkg-query -W -f '$${db:Status-Status}' $$p 2>/dev/null)" = installed ] || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi
endef

deps: ## Installs the apt packages building needs, if any is missing.
	$(call apt_install,$(BUILD_PACKAGES))

test-packages: deps
	$(call apt_install,$(TEST_PACKAGES))

test-deps: test-packages sedeval ## Installs what the tests need: apt packages, the sedeval virtualenv.

deb-deps: deps
	$(call apt_install,$(DEB_PACKAGES))

# The release build: the Swift runtime linked in (no Swift toolchain needed to run it), and
# no $ORIGIN run path (nothing is looked up beside the binary).
RELEASE_FLAGS = -c release --static-swift-stdlib --disable-local-rpath $(FUNCTION_SECTIONS)
# Each function compiled into a section of its own, the dependencies' too: the linker drops
# those nothing calls (0.8 MB of the stripped binary) and lays out the rest in the order of
# packaging/somniq.order (Package.swift).
FUNCTION_SECTIONS = -Xswiftc -Xfrontend -Xswiftc -function-sections

build: deps ## Builds the release binary, .build/release/somniq.
	$(SWIFT) build $(RELEASE_FLAGS)

demo: build ## Replays the bundled demo night and prints its events.
	@echo
	@.build/release/somniq replay fixtures/demo-night.flac --format table

# The demo night as if it began at 23:10, and its report: open demo-night.html.
report-demo: build ## The demo night's report, demo-night.html.
	@rm -f demo-night.jsonl
	@.build/release/somniq replay fixtures/demo-night.flac --format jsonl --output demo-night.jsonl --start 2026-11-22T23:10
	@.build/release/somniq report demo-night.jsonl --output demo-night.html
	@.build/release/somniq report demo-night.jsonl --format text
	@echo "the report: demo-night.html"

# The README's pictures (Debian's chromium, headless): that report, and the web page of
# the daemon listening to the demo night on the ALSA file plugin (scripts/web-screenshots.sh).
screenshot: report-demo test-packages ## Remakes the README's pictures (headless chromium).
	chromium --headless --no-sandbox --hide-scrollbars --force-device-scale-factor=1 --window-size=1040,1640 \
	  --screenshot=docs/report.png demo-night.html
	scripts/web-screenshots.sh

# sed_eval (PyPI) in a virtualenv: the reference `somniq eval` is tested against;
# prometheus_client, whose text parser reads the metrics file in the tests; and jsonschema,
# which checks the shipped profiles and configuration against schemas/. The stamp lists
# what was installed, so a virtualenv made before a package was added gets it.
SEDEVAL_PACKAGES = sed_eval prometheus_client jsonschema
sedeval: test-packages ## Makes the virtualenv the tests use (sed_eval, prometheus_client, jsonschema).
	@[ "$$(cat .build/sedeval/.installed 2>/dev/null)" = "$(SEDEVAL_PACKAGES)" ] || { \
	  python3 -m venv .build/sedeval && \
	  .build/sedeval/bin/pip install --quiet --disable-pip-version-check $(SEDEVAL_PACKAGES) && \
	  echo "$(SEDEVAL_PACKAGES)" > .build/sedeval/.installed; }

# Also fails while docs/man/somniq.1 does not match the commands' help (see `man`).
test: test-deps test-python ## Runs every test (a debug build, the Python tools') and checks that the manual page is current.
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	SWIFT=$(SWIFT) scripts/man.sh --check

# The Swift code's rules (.swift-format: the swift-format rules the code keeps; those it
# does not are off, and its layout, which is laid out by hand, is not checked:
# --debug-disable-pretty-print). format-check fails on a finding (CI); format fixes what a
# rule can fix by itself.
FORMAT_PATHS = Package.swift Sources Tests Fuzz Plugins
format-check: ## Checks the Swift code against .swift-format's rules; fails on a finding.
	$(SWIFT) format lint --strict --debug-disable-pretty-print --configuration .swift-format -r -p $(FORMAT_PATHS)

format: ## Rewrites the Swift code where a rule of .swift-format can fix it.
	$(SWIFT) format format -i --debug-disable-pretty-print --configuration .swift-format -r -p $(FORMAT_PATHS)

# The Python tools' own tests (tools/tests, pytest; tools/pyproject.toml): the trainer,
# the home protocol and the scripts, run by the trainer's pinned virtualenv (the packages
# they run with) with pytest added to it.
PYTEST = pytest==9.2.0
test-python: test-packages learn-venv ## Runs the Python tools' tests (tools/tests, pytest).
	@$(LEARN_VENV)/bin/pip show pytest 2>/dev/null | grep -qx 'Version: $(subst pytest==,,$(PYTEST))' || \
	  $(LEARN_VENV)/bin/pip install --quiet --disable-pip-version-check $(PYTEST)
	$(LEARN_VENV)/bin/python -m pytest -q tools

# What classes/classes.tsv, the one list of the sound classes, makes of the files other tools
# read from the repository (the schemas' class enums, the fuzz dictionaries, the trainer's
# CANDIDATES, the docs' class tables; scripts/classes.sh). The Swift SoundClass is made
# from it by the build. A test (SoundClassPlacesTests) fails where they are stale.
classes: ## Rewrites the lists of classes made from classes/classes.tsv.
	scripts/classes.sh

classes-check: ## Fails, naming the file, where a list of classes is not what classes/classes.tsv makes.
	scripts/classes.sh --check

# The manual page, docs/man/somniq.1, regenerated from the command definitions by
# swift-argument-parser's generate-manual plugin (scripts/man.sh); run it after changing
# any command's help, and commit the page. It is committed, not made by `make install`,
# so that installing needs neither the plugin nor a second build.
man: ## Regenerates docs/man/somniq.1 from the commands' help.
	SWIFT=$(SWIFT) scripts/man.sh

# Re-runs every command the README shows and fails where today's output differs
# (scripts/readme-check.py; --update writes today's output in). The test build is used:
# its output is the release build's, and CI has just made it.
README_SOMNIQ ?= .build/debug/somniq
readme-check: test-deps ## Re-runs the commands the README shows; fails where the output differs.
	$(SWIFT) build --product somniq
	scripts/readme-check.py --somniq $(README_SOMNIQ) --corpus $(CORPUS)

# libFuzzer on the audio reader, the profile, config and label readers, the event log
# (report, history), its index and the learned rules file reader,
# FUZZ_SECONDS each (Fuzz/, scripts/fuzz.sh); exits non-zero on any finding.
FUZZ_SECONDS ?= 60
fuzz: deps ## Runs each libFuzzer target for FUZZ_SECONDS (default 60).
	scripts/fuzz.sh $(FUZZ_SECONDS)

bench: build ## Throughput and memory on a synthetic 8 h night.
	.build/release/somniq bench --hours 8

# The web page's times on a log of 365 nights of 8 h (scripts/web-bench.sh).
web-bench: build test-packages ## Times the web page on a log of 365 nights.
	scripts/web-bench.sh

# Scores the classifier on the shared corpus (beside the clone), if it is there: tune/ (the
# folds rules are tuned on), check/ (other recordings, reported, never tuned on), the legacy
# dev scenes, and false alerts on background-only quiet/ nights, stress/ loops and eight new
# 10-minute nights mixed from the fold 3-4 loops only (made once into NIGHTS34 by the corpus's
# own mixer: numpy, scipy and sox; reported, never tuned on); then every smoke alarm found or
# missed, each class by its hand rule, its learned rule and as shipped side by side, the five
# profiles side by side, and the alarm battery (600 synthetic alarms and 200
# look-alikes, somniq-battery).
CORPUS ?= ../shared/corpus
EVAL_SETS = tune check scenes quiet stress
NIGHTS34 = .build/nights34
eval: build test-packages ## Scores the classifier on the shared corpus (CORPUS=).
	@if [ -d $(CORPUS)/tune ]; then \
	  [ -d $(NIGHTS34) ] || (cd $(CORPUS) && python3 tools/make_scenes.py quiet --n 8 --seed 34 --length 600 \
	    --folds 3,4 --room 0.5 --gain-range=-20,0 --out $(abspath $(NIGHTS34)) >/dev/null); \
	  .build/release/somniq eval $(addprefix $(CORPUS)/,$(EVAL_SETS)) $(NIGHTS34); echo; \
	  .build/release/somniq eval --by-rule $(addprefix $(CORPUS)/,$(EVAL_SETS)) $(NIGHTS34); echo; \
	  .build/release/somniq eval --profile all $(addprefix $(CORPUS)/,$(EVAL_SETS)) $(NIGHTS34); echo; \
	  .build/release/somniq-battery --corpus $(CORPUS); \
	else echo "no corpus at $(CORPUS); set CORPUS=/path/to/corpus"; fi

# Re-fits the learned rules, rules/learned.txt, and their spectrogram network (about an hour
# on 2 cores): mixes 16 h of material from folds 0-2 of the corpus into .build/learn
# (tools/learn/material.py), fits them there with the pinned packages of
# tools/learn/requirements.txt (tools/learn/train.py, network.py), and rebuilds (the build
# embeds the file: Plugins/EmbedData). Commit rules/learned.txt and rules/network-check.tsv.
LEARN_VENV = .build/learn/venv
learn: build test-packages learn-venv ## Re-fits the learned rules on the corpus (about an hour).
	@[ -d $(CORPUS)/tune ] || { echo "no corpus at $(CORPUS); set CORPUS=/path/to/corpus"; exit 1; }
	python3 tools/learn/material.py --corpus $(CORPUS)
	$(LEARN_VENV)/bin/python tools/learn/train.py --corpus $(CORPUS)
	$(SWIFT) build $(RELEASE_FLAGS)

learn-venv:
	@cmp -s tools/learn/requirements.txt $(LEARN_VENV)/.installed 2>/dev/null || { \
	  python3 -m venv $(LEARN_VENV) && \
	  $(LEARN_VENV)/bin/pip install --quiet --disable-pip-version-check -r tools/learn/requirements.txt && \
	  cp tools/learn/requirements.txt $(LEARN_VENV)/.installed; }

# Re-fits the learned rules with one home's labelled events (somniq label) added to the
# corpus material, weighted as the home's own (docs/home.md), into a file of their own:
# HOME_RULES, by default home-rules.txt beside the log; rules/learned.txt is not touched.
# Try them with `somniq replay --learned-rules FILE`. Mixes the material first if absent.
learn-home: build test-packages learn-venv ## Re-fits the learned rules with a home's labels: make learn-home HOME_LOG=events.jsonl
	@[ -n "$(HOME_LOG)" ] || { echo "give the home's event log: make learn-home HOME_LOG=/var/lib/somniq/events.jsonl"; exit 1; }
	@[ -d $(CORPUS)/tune ] || { echo "no corpus at $(CORPUS); set CORPUS=/path/to/corpus"; exit 1; }
	@[ -d .build/learn/material/fold0 ] || python3 tools/learn/material.py --corpus $(CORPUS)
	$(LEARN_VENV)/bin/python tools/learn/home.py --home $(HOME_LOG) --corpus $(CORPUS) $(if $(HOME_RULES),--out $(HOME_RULES))

eval-home: build test-packages ## The home protocol: a mixed home's first night labelled as a user would, its next night scored without and with learn --home's memory, alone and with its fit, and with one taught "it was X" (needs the corpus).
	@[ -d $(CORPUS)/clips ] || { echo "no corpus at $(CORPUS); set CORPUS=/path/to/corpus"; exit 1; }
	@for seed in 41 51 61; do for sources in 2 all; do \
	  echo "== home $$seed, hearing $$( [ $$sources = all ] && echo every check-side source || echo two sources of each class)"; \
	  python3 tools/eval-home/eval_home.py --somniq .build/release/somniq --corpus $(CORPUS) --seed $$seed --sources $$sources || exit 1; \
	done; done

# The alarm battery alone (about a minute); `somniq-battery --help` for its options.
battery: build ## Runs the alarm battery alone.
	.build/release/somniq-battery --corpus $(CORPUS)

clean: ## Removes .build: the builds, the virtualenvs, the package's staging.
	rm -rf .build

# Installs the release binary (stripped), its manual page, its bash, zsh and fish completions,
# the systemd unit (its ExecStart rewritten for PREFIX), the JSON Schemas of profile and
# configuration files, the profiles and the network drop-in (for sinks) as examples and,
# unless one exists, the default /etc/somniq/config.json. The bash completion is sourced,
# not run: its #! line is left out.
# The unit goes to /etc/systemd/system, or $(PREFIX)/lib/systemd/system when PREFIX=/usr
# (packaging); override with UNITDIR=. SOMNIQ_BIN= installs another build of the binary.
SOMNIQ_BIN ?= .build/release/somniq
UNITDIR    ?= $(if $(filter /usr,$(PREFIX)),$(PREFIX)/lib/systemd/system,/etc/systemd/system)
SYSCONFDIR ?= /etc
MANDIR     ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# Debian's zsh reads packages' completions from /usr/share/zsh/vendor-completions and, under
# /usr/local, only from site-functions; its fish reads /usr/share/fish/vendor_completions.d
# and, whatever XDG_DATA_DIRS says, /etc/fish/completions.
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/$(if $(filter /usr,$(PREFIX)),vendor-completions,site-functions)
FISHCOMPDIR ?= $(if $(filter /usr,$(PREFIX)),$(PREFIX)/share/fish/vendor_completions.d,$(SYSCONFDIR)/fish/completions)

.PHONY: install uninstall

install: build ## Installs binary, man page, completions, unit and config (PREFIX, DESTDIR).
	install -D -m 0755 -s $(SOMNIQ_BIN) $(DESTDIR)$(PREFIX)/bin/somniq
	install -D -m 0644 docs/man/somniq.1 $(DESTDIR)$(MANDIR)/man1/somniq.1
	gzip -9nf $(DESTDIR)$(MANDIR)/man1/somniq.1
	install -d $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	$(SOMNIQ_BIN) --generate-completion-script bash | sed '1{/^#!/d}' > $(DESTDIR)$(BASHCOMPDIR)/somniq
	$(SOMNIQ_BIN) --generate-completion-script zsh > $(DESTDIR)$(ZSHCOMPDIR)/_somniq
	$(SOMNIQ_BIN) --generate-completion-script fish > $(DESTDIR)$(FISHCOMPDIR)/somniq.fish
	chmod 0644 $(DESTDIR)$(BASHCOMPDIR)/somniq $(DESTDIR)$(ZSHCOMPDIR)/_somniq $(DESTDIR)$(FISHCOMPDIR)/somniq.fish
	install -D -m 0644 systemd/somniq.service $(DESTDIR)$(UNITDIR)/somniq.service
	sed -i 's#/usr/local/bin/somniq#$(PREFIX)/bin/somniq#g' $(DESTDIR)$(UNITDIR)/somniq.service
	install -D -m 0644 -t $(DESTDIR)$(PREFIX)/share/somniq/profiles profiles/*.json
	install -D -m 0644 -t $(DESTDIR)$(PREFIX)/share/somniq/schemas schemas/*.json
	install -D -m 0644 systemd/network.conf $(DESTDIR)$(PREFIX)/share/somniq/examples/network.conf
	install -D -m 0644 systemd/web.conf $(DESTDIR)$(PREFIX)/share/somniq/examples/web.conf
	@if [ -e $(DESTDIR)$(SYSCONFDIR)/somniq/config.json ]; then \
	  echo "kept $(DESTDIR)$(SYSCONFDIR)/somniq/config.json (the default is config/config.json)"; \
	else \
	  echo "install -D -m 0644 config/config.json $(DESTDIR)$(SYSCONFDIR)/somniq/config.json"; \
	  install -D -m 0644 config/config.json $(DESTDIR)$(SYSCONFDIR)/somniq/config.json; \
	fi
	@# The index of apropos and whatis; man finds the page without it.
	@[ -n "$(DESTDIR)" ] || ! command -v mandb >/dev/null || mandb -q
	@[ -n "$(DESTDIR)" ] || echo "now: systemctl daemon-reload && systemctl enable --now somniq"

# Leaves /etc/somniq (your configuration) and /var/lib/somniq (the event logs).
uninstall: ## Removes what install installed, but /etc/somniq and /var/lib/somniq.
	rm -f $(DESTDIR)$(PREFIX)/bin/somniq $(DESTDIR)$(UNITDIR)/somniq.service $(DESTDIR)$(MANDIR)/man1/somniq.1.gz
	rm -f $(DESTDIR)$(BASHCOMPDIR)/somniq $(DESTDIR)$(ZSHCOMPDIR)/_somniq $(DESTDIR)$(FISHCOMPDIR)/somniq.fish
	rm -rf $(DESTDIR)$(PREFIX)/share/somniq
	@[ -n "$(DESTDIR)" ] || ! command -v mandb >/dev/null || mandb -q
	@[ -n "$(DESTDIR)" ] || echo "kept /etc/somniq and /var/lib/somniq; run systemctl daemon-reload"

# The Debian package, somniq_VERSION_ARCH.deb, built by dpkg-deb from a staged tree (no
# debhelper): `make install` with PREFIX=/usr, the demo night and its licence in
# /usr/share/somniq, the copyright, a changelog and the README in /usr/share/doc/somniq;
# /etc/somniq/config.json is a conffile. packaging/deb/ has the control file, the
# maintainer scripts (the unit is installed disabled: postinst says why), the copyright
# and lintian's overrides. Depends: is worked out by dpkg-shlibdeps from the libraries the
# binary links (the Swift runtime is in it; a binary that needs /opt/swift is refused).
# VERSION is the binary's own (Release.version, in SomniqCore); the build is checked to say the same.
VERSION    := $(shell sed -n 's/^ *public static let version = "\([^"]*\)".*/\1/p' Sources/SomniqCore/Release.swift)
DEB_ARCH   ?= $(shell dpkg --print-architecture 2>/dev/null)
DEB        := somniq_$(VERSION)_$(DEB_ARCH).deb
DEB_WORK   := .build/deb
DEB_ROOT   := $(DEB_WORK)/debian/somniq
DEB_DOC    := $(DEB_ROOT)/usr/share/doc/somniq

deb: build deb-deps ## Builds the Debian package somniq_VERSION_ARCH.deb from the release build.
	@v=$$($(SOMNIQ_BIN) --version) && [ "$$v" = "$(VERSION)" ] || \
	  { echo "$(SOMNIQ_BIN) --version says '$$v', Sources/SomniqCore/Release.swift '$(VERSION)'"; exit 1; }
	@! ldd $(SOMNIQ_BIN) | grep -q /opt/swift || { echo "$(SOMNIQ_BIN) needs the Swift toolchain:"; ldd $(SOMNIQ_BIN); exit 1; }
	rm -rf $(DEB_WORK) $(DEB)
	umask 022 && $(MAKE) --no-print-directory -o build install DESTDIR=$(abspath $(DEB_ROOT)) PREFIX=/usr
	install -m 0644 -t $(DEB_ROOT)/usr/share/somniq fixtures/demo-night.flac fixtures/demo-night.LICENSE.md
	strip --remove-section=.comment --remove-section=.note $(DEB_ROOT)/usr/bin/somniq
	install -D -m 0644 packaging/deb/lintian-overrides $(DEB_ROOT)/usr/share/lintian/overrides/somniq
	install -D -m 0644 packaging/deb/copyright $(DEB_DOC)/copyright
	gzip -9n < README.md > $(DEB_DOC)/README.md.gz
	@# A native package's changelog, for this version, dated by the last commit.
	mkdir -p $(DEB_WORK)/debian
	{ echo "somniq ($(VERSION)) unstable; urgency=medium"; echo; \
	  echo "  * Built from $$(git describe --always --dirty 2>/dev/null || echo 'a tree outside git')."; echo; \
	  echo " -- $$(sed -n 's/^Maintainer: //p' packaging/deb/control)  $$(git log -1 --format=%cD 2>/dev/null || date -R)"; \
	} > $(DEB_WORK)/debian/changelog
	gzip -9n < $(DEB_WORK)/debian/changelog > $(DEB_DOC)/changelog.gz
	chmod 0644 $(DEB_DOC)/*.gz
	install -d -m 0755 $(DEB_ROOT)/DEBIAN
	install -m 0755 -t $(DEB_ROOT)/DEBIAN packaging/deb/postinst packaging/deb/prerm packaging/deb/postrm
	cd $(DEB_ROOT) && find etc -type f -printf '/%p\n' | sort > DEBIAN/conffiles
	cd $(DEB_ROOT) && find usr -type f -printf '%p\0' | sort -z | xargs -0 md5sum > DEBIAN/md5sums
	chmod 0644 $(DEB_ROOT)/DEBIAN/conffiles $(DEB_ROOT)/DEBIAN/md5sums
	cp packaging/deb/control $(DEB_WORK)/debian/control
	cd $(DEB_WORK) && dpkg-shlibdeps -Tdebian/somniq.substvars debian/somniq/usr/bin/somniq
	cd $(DEB_WORK) && dpkg-gencontrol -psomniq -Pdebian/somniq -Tdebian/somniq.substvars -DArchitecture=$(DEB_ARCH)
	dpkg-deb --root-owner-group --build $(DEB_ROOT) $(DEB)
	@ls -l $(DEB)

# Installs the package on this machine, checks it from the installed files (lintian,
# systemd-analyze verify, the demo night's replay, …) and purges it: scripts/deb-check.sh.
# For CI and test machines: it refuses where somniq is installed already.
deb-check: deb test-packages ## Installs the package here, checks it, and purges it (CI).
	$(call apt_install,lintian)
	scripts/deb-check.sh $(DEB)

# Live cost: CPU and RSS while listening in real time for 60 s to a paced PulseAudio source.
live-bench: build test-packages ## CPU and memory while listening in real time for 60 s.
	scripts/live-bench.sh 60
