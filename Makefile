# calport — two commands on a fresh machine: `make demo` and `make test` (both run `make deps`).
SWIFT ?= swift
# chromium: the headless browser the HTML report's tests render pages in (Tests/ReportTests).
APT_PACKAGES := libicu-dev libxml2-dev libjemalloc-dev pkg-config chromium
PIP_PACKAGES := jsonschema python-dateutil exchangelib msgraph-sdk lunardate convertdate pyluach hijridate
TZLOCAL_VERSION := 5.4.5
CALDAV_SERVERS := radicale xandikos
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build demo test lint format bench bench-deps clean sample-report bench-expansion fuzz fuzz-repro mutate test-sanitized

# Installs the C libraries, the Python test oracles and Radicale when missing; does nothing when present.
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
	@python3 -c "import jsonschema, dateutil, exchangelib, msgraph, lunardate, convertdate, pyluach, hijridate" 2>/dev/null || python3 -m pip install -q $(PIP_PACKAGES)
	@# Oracles of the Windows zone table (tzlocal's CLDR snapshot, pinned: the table is generated
	@# from it) and of X-WR-TIMEZONE round trips (python icalendar and x-wr-timezone).
	@python3 -c "import importlib.metadata as m, icalendar, x_wr_timezone; assert m.version('tzlocal') == '$(TZLOCAL_VERSION)'" \
		2>/dev/null || python3 -m pip install -q icalendar x-wr-timezone tzlocal==$(TZLOCAL_VERSION)
	@# Radicale and Xandikos: the real CalDAV servers the CalDAV tests start on 127.0.0.1, in a
	@# git-ignored virtual environment (.venv) so no system Python is touched.
	@[ -x .venv/bin/python ] || python3 -m venv .venv
	@.venv/bin/python -c "import radicale, xandikos" 2>/dev/null || .venv/bin/python -m pip install -q $(CALDAV_SERVERS)

build: deps
	$(SWIFT) build

# Converts a real-looking Google export to calport's JSON and prints it.
demo: build
	@echo "== calport inspect samples/google-family.ics"
	@$(SWIFT) run -q calport inspect samples/google-family.ics
	@echo "== calport convert samples/google-family.ics -t json"
	@$(SWIFT) run -q calport convert samples/google-family.ics -t json

# The sample HTML report in docs/ (README, "The HTML report"): samples/ merged into Outlook's CSV.
SAMPLE_REPORT_RUN := convert samples/apple-personal.ics samples/google-family.ics samples/outlook-team-meetings.ics \
	--merge -t csv-outlook -o .build/sample-report/samples.csv --no-progress
sample-report: build
	@mkdir -p .build/sample-report
	$(SWIFT) run -q calport $(SAMPLE_REPORT_RUN) --report docs/sample-report.html
	$(SWIFT) run -q calport $(SAMPLE_REPORT_RUN) --report docs/sample-report.json

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

lint:
	$(SWIFT) format lint --strict -r Sources Tests

format:
	$(SWIFT) format -i -r Sources Tests

# Speed and memory against libical and python icalendar on generated archives (10k and 100k
# items, under bench-data/, git-ignored), and every format pair (ICS -> F, F -> ICS) against
# ICS -> ICS. Prints events/s, MB/s, peak RSS and the ratios, and fails when a pair is outside
# issue 19's bound (BENCH_FLAGS=--no-check to look without failing); BENCHMARKS.md says how to
# read it and records the figures. Never part of `make test`.
BENCH_SIZES ?= 10000,100000
BENCH_RUNS ?= 3
# Rounds of the format-pair section (per size, two conversions per format and ICS -> ICS beside
# them): 1 for a quick look.
BENCH_PAIRS_RUNS ?= $(BENCH_RUNS)
BENCH_FLAGS ?=
# The live CalDAV section: a push and a pull of this many items against a local Radicale, and
# the server's own PUT rate beside them. Radicale takes ~15 PUTs/s on this machine (fewer as a
# collection grows): 10,000 items is a quarter of an hour of the server's time, not calport's.
BENCH_CALDAV_ITEMS ?= 1000
bench: deps bench-deps
	$(SWIFT) build -c release --product calport
	python3 Benchmarks/bench.py --sizes $(BENCH_SIZES) --runs $(BENCH_RUNS) --pairs-runs $(BENCH_PAIRS_RUNS) \
		--caldav $(BENCH_CALDAV_ITEMS) $(BENCH_FLAGS)

# Only the RFC 7529 expansion section: a 100-year Chinese rule against a Gregorian yearly one.
bench-expansion: deps
	$(SWIFT) build -c release --product calport
	python3 Benchmarks/bench.py --expansion-only --runs $(BENCH_RUNS)

# The peers: libical's headers (for libical_roundtrip.c) and python icalendar; idempotent.
bench-deps:
	@dpkg -s libical-dev >/dev/null 2>&1 && dpkg -s pkg-config >/dev/null 2>&1 || { \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libical-dev pkg-config; }
	@python3 -c "import icalendar" 2>/dev/null || python3 -m pip install -q icalendar

clean:
	rm -rf .build

# Fuzzing (FUZZING.md). `make fuzz` builds Fuzz/ (a nested package, as Benchmarks/ is) with
# -sanitize=fuzzer,address and runs every reader's libFuzzer target for FUZZ_SECONDS each (or
# FUZZ_RUNS executions: `make fuzz FUZZ_SECONDS=0 FUZZ_RUNS=1000000`), inputs up to FUZZ_MAX_LEN
# bytes, converting on FUZZ_JOBS threads (2 fuzzes the worker threads), in FUZZ_FORK processes
# at once (libFuzzer's -fork; default one, in-process); any crash, sanitizer
# report, leak, timeout (10 s an input) or out-of-memory (2 GB) fails it, with the finding kept
# under Fuzz/findings/ and a command that reproduces it. `make test` runs the same harness
# without libFuzzer for a second a target (Tests/FuzzSmokeTests).
FUZZ_SECONDS ?= 60
FUZZ_JOBS ?= 1
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) SWIFT=$(SWIFT) scripts/fuzz.sh

# Replays one finding through its target: make fuzz-repro TARGET=ics FINDING=Fuzz/findings/ics-crash-…
# (FUZZ_JOBS=2 for a finding of a run on the worker threads).
fuzz-repro:
	CALPORT_FUZZ_TARGET=$(TARGET) CALPORT_FUZZ_JOBS=$(FUZZ_JOBS) Fuzz/.build/release/CalPortFuzz $(FINDING)

# The black-box mutation run of the release binary over every format (scripts/mutate.py),
# bounded by MUTATE_SECONDS; findings go to mutate-findings/.
MUTATE_SECONDS ?= 600
mutate: deps
	$(SWIFT) build -c release --product calport
	python3 scripts/mutate.py --calport .build/release/calport --seconds $(MUTATE_SECONDS)

# The whole test suite under AddressSanitizer, then the tests of the threaded code (the
# parallel readers and writers, the prefetching reader, the CalDAV client and the live servers)
# and the fuzz smoke on two threads under ThreadSanitizer. Each sanitizer builds everything
# again in its own scratch directory (.build-asan, .build-tsan): too long for CI's budget, so run
# by hand (FUZZING.md has results). The whole suite under TSan takes hours on a shared 2-core
# machine (`make test-sanitized TSAN_TESTS=.` runs it).
TSAN_TESTS ?= ParallelReadTests|ParallelXMLReadTests|XMLPullReaderModesTests|ParallelGraphTests|ParallelJSCalendarTests|OrderedWorkerPoolTests|PrefetcherTests|PrefetchingReaderTests|StreamingTests|BatchConversionTests|CalDAVClientTests|CalDAVLiveTests
test-sanitized: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	LSAN_OPTIONS="suppressions=$(CURDIR)/scripts/lsan.supp:$${LSAN_OPTIONS:-}" \
		$(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	$(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan --filter '$(TSAN_TESTS)'
	CALPORT_FUZZ_JOBS=2 $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan --filter FuzzSmokeTests
