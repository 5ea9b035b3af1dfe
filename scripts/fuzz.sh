#!/usr/bin/env bash
# make fuzz: builds the libFuzzer targets (Fuzz/, with -sanitize=fuzzer,address) and runs each
# reader's target for FUZZ_SECONDS (default 60). Fails on any crash, sanitizer report, leak,
# timeout (FUZZ_TIMEOUT seconds per input, default 10) or out-of-memory (FUZZ_RSS_MB, default
# 2048); each finding is kept under Fuzz/findings/ and printed with the command that reproduces
# it. FUZZ_TARGETS picks targets (default: all); FUZZ_NO_BUILD=1 skips the build.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
seconds="${FUZZ_SECONDS:-60}"
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
    # The harness writes its input and outputs under TMPDIR: memory (/dev/shm) rather than disk.
    CALPORT_FUZZ_TARGET="$target" TMPDIR="${FUZZ_TMPDIR:-/dev/shm}" \
        ASAN_OPTIONS="detect_leaks=1:malloc_context_size=8:${ASAN_OPTIONS:-}" \
        "$binary" "$work/corpus" "$work/seeds" -dict="Fuzz/dictionaries/$target.dict" -max_total_time="$seconds" \
        -timeout="$timeout" -rss_limit_mb="$rss" -malloc_limit_mb="$rss" -max_len=65536 -print_final_stats=1 \
        -artifact_prefix="Fuzz/findings/$target-" -close_fd_mask=1 >"$log" 2>&1
    status=$?
    runs="$(grep -E '^stat::number_of_executed_units:' "$log" | awk '{print $2}' | tail -1)"
    line="$target: ${runs:-?} executions in ${seconds} s"
    if [ "$status" -ne 0 ]; then
        failed=1
        artifact="$(grep -oE "Fuzz/findings/$target-[a-z-]+[0-9a-f]+" "$log" | tail -1)"
        line="$line — FINDING (exit $status): $(grep -m1 -E 'ERROR|==[0-9]+==|Fatal error|timeout|out-of-memory' "$log" | cut -c1-160)"
        [ -n "$artifact" ] && line="$line
    reproduce: CALPORT_FUZZ_TARGET=$target $binary $artifact    (or: calport convert -f $target $artifact -o /tmp/out.ics)"
        line="$line
    log: $log"
    fi
    echo "$line"
    summary="$summary$line
"
done
echo "== fuzz summary (FUZZ_SECONDS=$seconds, $(date -u +%Y-%m-%dT%H:%MZ))"
printf '%s' "$summary"
exit "$failed"
