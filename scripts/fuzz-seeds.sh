#!/usr/bin/env bash
# Fills a seed corpus for one fuzz target (make fuzz): files of the target's format from the
# shared corpus (../shared/corpus), the tests' fixtures, the fuzz findings kept as regression
# inputs (Tests/FuzzSmokeTests/Fixtures) and samples/, told apart by extension and content as
# Tests/FuzzSmokeTests does. At most FUZZ_SEEDS (default 300) files of at most 64 KiB.
# Usage: scripts/fuzz-seeds.sh TARGET DIRECTORY
set -euo pipefail
target="$1"
out="$2"
limit="${FUZZ_SEEDS:-300}"
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$out"

# Whether FILE belongs to TARGET.
belongs() {
    local file="$1"
    case "$target:$file" in
        ics:*.ics) return 0 ;;
        csv*:*.csv) return 0 ;;
        jsonl:*.jsonl) return 0 ;;
        json:*.json) grep -q '"calport-json"' "$file" ;;
        jcal:*.json | jcal:*.jcal) head -c 64 "$file" | tr -d ' \n\r\t' | grep -q '^\["vcalendar"' ;;
        jscalendar:*.json) grep -q '"@type"' "$file" ;;
        graph:*.json) grep -q -e '@odata' -e '"subject"' "$file" ;;
        caldav:*.xml | caldav-client:*.xml) grep -q -i 'multistatus' "$file" ;;
        xcal:*.xml) grep -q 'icalendar-2.0' "$file" ;;
        ews:*.xml) grep -q 'exchange/services' "$file" ;;
        *) return 1 ;;
    esac
}

count=0
while IFS= read -r -d '' file; do
    [ "$count" -ge "$limit" ] && break
    belongs "$file" 2>/dev/null || continue
    # One name per content, so a rerun adds nothing twice.
    cp "$file" "$out/$(sha1sum "$file" | cut -c1-16)"
    count=$((count + 1))
done < <(find "$root/Tests/FuzzSmokeTests/Fixtures/$target" "$root/samples" "$root/Tests" "$root/../shared/corpus" \
    -type f -size -64k -print0 2>/dev/null | sort -z)
echo "$target: $(ls "$out" | wc -l) seeds"
