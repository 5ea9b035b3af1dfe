#!/usr/bin/env bash
# make fuzz: builds the libFuzzer targets (Fuzz/, with -sanitize=fuzzer,address) and runs each
# reader's target for FUZZ_SECONDS (default 60; 0: no time limit), or until FUZZ_RUNS
# executions when that is set. Fails on any crash, sanitizer report, leak, timeout (FUZZ_TIMEOUT
# seconds per input, default 10) or out-of-memory (FUZZ_RSS_MB, default 2048); each finding is
# kept under Fuzz/findings/ and printed with the command that reproduces it. Inputs are at most
# FUZZ_MAX_LEN bytes (default 8192; longer seeds are cut); conversions use FUZZ_JOBS threads
# (default 1; 2 or more fuzz the worker threads). FUZZ_TARGETS picks targets (default: all);
# FUZZ_NO_BUILD=1 skips the build. FUZZ_FORK=N runs N fuzzing processes at once (libFuzzer's
# -fork=N; FUZZ_RUNS counts the executions of all of them): a million ics executions take hours on
# one core.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
seconds="${FUZZ_SECONDS:-60}"
runs="${FUZZ_RUNS:--1}"
max_len="${FUZZ_MAX_LEN:-8192}"
jobs="${FUZZ_JOBS:-1}"
fork="${FUZZ_FORK:-0}"
timeout="${FUZZ_TIMEOUT:-10}"
rss="${FUZZ_RSS_MB:-2048}"
swift="${SWIFT:-swift}"
targets="${FUZZ_TARGETS:-ics json jsonl jcal jscalendar csv csv-outlook csv-google xcal caldav ews graph caldav-client}"
binary="Fuzz/.build/release/CalPortFuzz"

if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
    "$swift" build -c release --package-path Fuzz --scratch-path Fuzz/.build -Xswiftc -sanitize=fuzzer,address || exit 1
fi
[ -x "$binary" ] || { echo "fuzz: $binary is missing (build it, or unset FUZZ_NO_BUILD)"; exit 1; }

failed=0
summary=""
for target in $targets; do
    work="Fuzz/work/$target"
    mkdir -p "$work/corpus" "$work/seeds" Fuzz/findings
    scripts/fuzz-seeds.sh "$target" "$work/seeds" >/dev/null
    log="$work/last.log"
    # ASan's leak check runs at exit and after inputs that allocate more than they free.
    started=$(date +%s)
    CALPORT_FUZZ_TARGET="$target" CALPORT_FUZZ_JOBS="$jobs" \
        ASAN_OPTIONS="detect_leaks=1:malloc_context_size=8:${ASAN_OPTIONS:-}" \
        "$binary" "$work/corpus" "$work/seeds" -dict="Fuzz/dictionaries/$target.dict" -max_total_time="$seconds" \
        -runs="$runs" -timeout="$timeout" -rss_limit_mb="$rss" -malloc_limit_mb="$rss" -max_len="$max_len" \
        -print_final_stats=1 -artifact_prefix="Fuzz/findings/$target-" -close_fd_mask=1 -fork="$fork" >"$log" 2>&1
    status=$?
    elapsed=$(($(date +%s) - started))
    executions="$(grep -E '^stat::number_of_executed_units:' "$log" | awk '{print $2}' | tail -1)"
    rate="$(grep -E '^stat::average_exec_per_sec:' "$log" | awk '{print $2}' | tail -1)"
    if [ "$fork" != 0 ]; then
        # The processes print their stats to their own logs; the parent's lines count them all.
        executions="$(grep -oE '^#[0-9]+:' "$log" | tr -d '#:' | tail -1)"
        [ -n "$executions" ] && [ "$elapsed" -gt 0 ] && rate=$((executions / elapsed))
    fi
    line="$target: ${executions:-?} executions in ${elapsed} s (${rate:-?}/s, -j $jobs, inputs up to $max_len bytes$([ "$fork" != 0 ] && echo ", $fork processes"))"
    if [ "$status" -eq 72 ] && grep -q 'libFuzzer: run interrupted' "$log"; then
        # libFuzzer's exit on SIGINT/SIGTERM (-interrupted_exitcode): the run did not finish,
        # which fails `make fuzz`, but it is no finding.
        failed=1
        line="$line — INTERRUPTED (not a finding; the corpus so far is kept in $work/corpus)"
    elif [ "$status" -ne 0 ]; then
        failed=1
        artifact="$(grep -oE "Fuzz/findings/$target-[a-z-]+[0-9a-f]+" "$log" | tail -1)"
        line="$line — FINDING (exit $status): $(grep -m1 -E 'ERROR|==[0-9]+==|Fatal error|timeout|out-of-memory' "$log" | cut -c1-160)"
        [ -n "$artifact" ] && line="$line
    reproduce: CALPORT_FUZZ_TARGET=$target CALPORT_FUZZ_JOBS=$jobs $binary $artifact    (or: calport convert -j $jobs -f $target $artifact -o /tmp/out.ics)"
        line="$line
    log: $log"
    fi
    echo "$line"
    summary="$summary$line
"
done
echo "== fuzz summary (FUZZ_SECONDS=$seconds FUZZ_RUNS=$runs FUZZ_MAX_LEN=$max_len FUZZ_JOBS=$jobs FUZZ_FORK=$fork, $(date -u +%Y-%m-%dT%H:%MZ))"
printf '%s' "$summary"
exit "$failed"
