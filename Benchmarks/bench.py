#!/usr/bin/env python3
"""`make bench`: calport against its peers on the same generated archives, in the same run.

Generates archives with ../shared/bench/gen_archive.py (deterministic; kept under bench-data/,
which git ignores), then times, for each size:
  calport ICS -> ICS against libical parse + serialize (libical_roundtrip.c), in alternation,
  and python icalendar parse -> ICS and -> jCal;
  every format pair, ICS -> F and F -> ICS for each format `calport formats` lists, against
  ICS -> ICS in the same rounds (pairs_bench.py), then the bound check of issue 19: the run
  exits 1 when a pair is outside it, unless --no-check;
then the RSCALE expansion section and, with --caldav N, a live CalDAV push and pull.
Each figure is the median wall time of --runs runs; peak RSS is the child's ru_maxrss from
wait4. The machines are shared and noisy, so the ratios (same run, same files) are what count.
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

from pairs_bench import check, pairs_header, pairs_section, print_check

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared", "bench"))


def run_child(cmd):
    """Wall seconds, peak RSS (KB), exit code and standard error of one run of cmd."""
    # Standard error goes to a file, not a pipe: a conversion that warns per item would fill a
    # pipe's 64 KB and block, since it is read only once the child has ended.
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        return elapsed, usage.ru_maxrss, proc.returncode, err.read().decode(errors="replace")


def run_once(cmd):
    """Wall seconds and peak RSS (KB) of one run of cmd; stops the benchmark when it fails."""
    elapsed, rss, code, err = run_child(cmd)
    if code != 0:
        sys.exit(f"failed ({code}): {' '.join(cmd)}\n{err}")
    return elapsed, rss


def run(cmd, runs):
    """Median wall seconds and max peak RSS (KB) of `runs` runs of cmd."""
    results = [run_once(cmd) for _ in range(runs)]
    return statistics.median(r[0] for r in results), max(r[1] for r in results)


def run_alternating(cmds, runs):
    """Runs each command once per round, in turn, for `runs` rounds, so that a slow spell on this
    shared machine falls on every tool alike; per command the median seconds, max RSS and the
    seconds of each round (for ratios taken round by round)."""
    rounds = [[run_once(cmd) for cmd in cmds] for _ in range(runs)]
    out = []
    for i in range(len(cmds)):
        times = [r[i][0] for r in rounds]
        out.append((statistics.median(times), max(r[i][1] for r in rounds), times))
    return out


def archive(directory, items):
    path = os.path.join(directory, f"archive-{items}.ics")
    meta = path + ".meta.json"
    if not (os.path.exists(path) and os.path.exists(meta)):
        subprocess.run([sys.executable, os.path.join(SHARED, "gen_archive.py"), "-n", str(items), "-o", path], check=True)
    with open(meta) as f:
        info = json.load(f)
    return path, info


def build_libical(directory):
    binary = os.path.join(directory, "libical_roundtrip")
    source = os.path.join(SHARED, "libical_roundtrip.c")
    if not os.path.exists(binary) or os.path.getmtime(binary) < os.path.getmtime(source):
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libical"], check=True, capture_output=True, text=True).stdout.split()
        subprocess.run(["cc", "-O2", "-o", binary, source] + flags, check=True)
    return binary


def rscale_archive(directory, name, events, rule):
    """An ICS file of `events` all-day events, each with `rule(i)` as RRULE and its own start."""
    path = os.path.join(directory, f"expansion-{name}-{events}.ics")
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//calport//bench//EN"]
    for i in range(events):
        text, start = rule(i)
        lines += ["BEGIN:VEVENT", f"UID:{name}-{i}@bench", "DTSTAMP:20240101T000000Z", f"DTSTART;VALUE=DATE:{start}",
                  f"RRULE:{text}", f"SUMMARY:{name} {i}", "END:VEVENT"]
    with open(path, "w", newline="") as f:
        f.write("\r\n".join(lines + ["END:VCALENDAR"]) + "\r\n")
    return path


def expansion_section(args):
    """RFC 7529 expansion (issue 18): a 100-year Chinese yearly rule against a 100-year Gregorian
    yearly rule, per occurrence, through `convert --expand`. Each file holds `events` such series
    with their own months and days; a run's fixed cost (an empty calendar's run) is taken off
    before dividing by the occurrences. The single-series figure shows the first rule's cost,
    when no Chinese year is laid out yet (CalendarScale keeps each year once per process)."""
    os.makedirs(args.data, exist_ok=True)
    events = args.expansion_events
    gregorian = rscale_archive(args.data, "gregorian", events,
                               lambda i: ("FREQ=YEARLY;COUNT=100", f"2024{1 + i % 12:02d}{1 + i % 28:02d}"))
    # Chinese dates of 2024 (lunar year 4721) as DTSTART: the rule's own month and day.
    chinese_rule = lambda i: (f"RSCALE=CHINESE;FREQ=YEARLY;COUNT=100;BYMONTHDAY={1 + i % 28};BYMONTH={1 + i % 12}", "20240210")
    chinese = rscale_archive(args.data, "chinese", events, chinese_rule)
    single = rscale_archive(args.data, "chinese", 1, chinese_rule)
    empty = rscale_archive(args.data, "empty", 0, chinese_rule)
    cmd = lambda path: [args.calport, "convert", path, "-t", "jsonl", "-o", os.path.join(args.data, "expansion.jsonl"),
                        "--expand", "--start", "2000-01-01", "--end", "2200-01-01", "--no-progress"]
    runs = [cmd(empty), cmd(gregorian), cmd(chinese), cmd(single)]
    (t0, _, _), (tg, rg, _), (tc, rc, _), (ts, _, _) = run_alternating(runs, args.runs)
    occurrences = events * 100
    per_g = (tg - t0) / occurrences * 1e6
    per_c = (tc - t0) / occurrences * 1e6
    per_s = (ts - t0) / 100 * 1e6
    print(f"\nRSCALE expansion ({events} series x 100 years, --expand to jsonl, median of {args.runs}; "
          f"empty-calendar run {t0:.3f}s taken off)")
    print(f"  Gregorian FREQ=YEARLY:             {tg:.3f}s  {per_g:6.2f} us/occurrence  peak {rg / 1024:.1f}MB")
    print(f"  RSCALE=CHINESE FREQ=YEARLY:        {tc:.3f}s  {per_c:6.2f} us/occurrence  peak {rc / 1024:.1f}MB")
    print(f"  one Chinese series alone (cold):   {ts:.3f}s  {per_s:6.2f} us/occurrence")
    print(f"  Chinese / Gregorian per occurrence = {per_c / per_g:.2f}x (issue 18: at most 5x)")
    # The engine alone (no reading, sorting or writing): Benchmarks' RecurrenceBenchmark, when built.
    engine = os.path.join(HERE, ".build", "release", "RecurrenceBenchmark")
    if os.path.exists(engine):
        print(subprocess.run([engine, "rscale", str(events)], check=True, capture_output=True, text=True).stdout.rstrip())
    else:
        print("  (engine only: swift build -c release --package-path Benchmarks, then run this again)")
    return [{"label": "expansion gregorian yearly", "seconds": round(tg, 3), "us_per_occurrence": round(per_g, 2)},
            {"label": "expansion chinese yearly", "seconds": round(tc, 3), "us_per_occurrence": round(per_c, 2)},
            {"label": "expansion one chinese series", "seconds": round(ts, 3), "us_per_occurrence": round(per_s, 2)}]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--calport", default=os.path.join(ROOT, ".build", "release", "calport"))
    parser.add_argument("--data", default=os.path.join(ROOT, "bench-data"))
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pairs-runs", type=int, help="rounds of the format-pair section (default: --runs); 1 for a quick look")
    parser.add_argument("--formats", help="only these formats in the pair section, comma-separated (default: every one `calport formats` lists)")
    parser.add_argument("--pairs-only", action="store_true", help="run only the format-pair section and its check")
    parser.add_argument("--no-check", action="store_true", help="print the bound check but exit 0 when a pair is outside it")
    parser.add_argument("--max-ratio", type=float, default=3.0, help="bound: a pair's time over ICS -> ICS at the largest size")
    parser.add_argument("--max-rss-mb", type=float, default=64, help="bound: a pair's peak RSS at any size")
    parser.add_argument("--max-rss-growth", type=float, default=0.10,
                        help="bound: a pair's peak RSS at the largest size over the smallest's, minus 1")
    parser.add_argument("--python-runs", type=int, default=1, help="python icalendar is ~100x slower: fewer runs")
    parser.add_argument("--skip-python-above", type=int, default=10000,
                        help="python icalendar takes minutes on 100k items (2.9 GB RSS): skipped above this size unless raised")
    parser.add_argument("--json", help="also write the figures as JSON here")
    parser.add_argument("--expansion-events", type=int, default=500, help="series in the RSCALE expansion section")
    parser.add_argument("--expansion-only", action="store_true", help="run only the RSCALE expansion section")
    parser.add_argument("--caldav", type=int, default=0, help="also push and pull an archive of this many items to a local Radicale")
    parser.add_argument("--only-caldav", action="store_true", help="run only the live CalDAV section")
    args = parser.parse_args()
    pairs_runs = args.pairs_runs or args.runs
    figures = []

    def finish(status=0):
        if args.json:
            with open(args.json, "w") as f:
                json.dump(figures, f, indent=1)
        sys.exit(status)

    if args.expansion_only:
        figures += expansion_section(args)
        finish()
    os.makedirs(args.data, exist_ok=True)
    listed = subprocess.run([args.calport, "formats"], check=True, capture_output=True, text=True).stdout
    format_ids = [line.split("\t")[0] for line in listed.splitlines() if line.split("\t")[0] != "ics"]
    if args.formats:
        unknown = [f for f in args.formats.split(",") if f not in format_ids]
        if unknown:
            sys.exit(f"not formats of this build: {', '.join(unknown)} (calport formats lists {', '.join(format_ids)})")
        format_ids = [f for f in format_ids if f in args.formats.split(",")]
    sizes = [] if args.only_caldav else [int(s) for s in args.sizes.split(",")]
    archives = {items: archive(args.data, items) for items in sizes}
    out = lambda name: os.path.join(args.data, name)

    print(f"machine: {platform.node()} {platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}; "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; median of {args.runs} runs, format pairs {pairs_runs} rounds")
    peers = {}
    if sizes and not args.pairs_only:
        libical = build_libical(args.data)
        header = f"{'items':>7} {'MB':>6}  {'tool / conversion':<34} {'seconds':>8} {'events/s':>10} {'MB/s':>7} {'peak RSS':>9}"
        print(header)
        print("-" * len(header))
    for items in ([] if args.pairs_only else sizes):
        path, info = archives[items]
        mb = info["bytes"] / 1e6
        events = info["items"]

        def measure(label, cmd, runs, result=None):
            seconds, rss = result[:2] if result else run(cmd, runs)
            row = {"items": items, "megabytes": round(mb, 1), "label": label, "seconds": round(seconds, 3),
                   "events_per_second": round(events / seconds), "megabytes_per_second": round(mb / seconds, 1),
                   "peak_rss_mb": round(rss / 1024, 1)}
            figures.append(row)
            print(f"{items:>7} {mb:>6.1f}  {label:<34} {seconds:>8.3f} {events / seconds:>10.0f} {mb / seconds:>7.1f} {rss / 1024:>7.1f}MB",
                  flush=True)
            return row

        # The comparison: calport ICS -> ICS against libical, run in alternation.
        cp_ics_cmd = [args.calport, "convert", path, "-o", out("calport.ics"), "--no-progress"]
        li_cmd = [libical, path, out("libical.ics")]
        cp_result, li_result = run_alternating([cp_ics_cmd, li_cmd], args.runs)
        cp_ics = measure("calport ICS -> ICS", cp_ics_cmd, args.runs, cp_result)
        li = measure("libical parse+serialize ICS -> ICS", li_cmd, args.runs, li_result)
        round_ratios = sorted(l / c for l, c in zip(li_result[2], cp_result[2]))
        py_ics = py_json = None
        if items <= args.skip_python_above:
            py = [sys.executable, os.path.join(SHARED, "py_icalendar_run.py")]
            py_ics = measure("python icalendar ICS -> ICS", py + ["ics", path, out("python.ics")], args.python_runs)
            py_json = measure("python icalendar ICS -> jCal", py + ["json", path, out("python.json")], args.python_runs)
        peers[items] = (li, py_json)
        print(f"  calport ICS->ICS throughput = {li['seconds'] / cp_ics['seconds']:.2f}x libical"
              + f" (round by round: median {statistics.median(round_ratios):.2f}x, {round_ratios[0]:.2f}x-{round_ratios[-1]:.2f}x)"
              + (f", {py_ics['seconds'] / cp_ics['seconds']:.1f}x python icalendar" if py_ics else ""))

    # Every format both ways against ICS -> ICS, then the bound of issue 19.
    pair_rows = []
    if sizes:
        pairs_header(pairs_runs)
    for items in sizes:
        rows = pairs_section(args.calport, archives[items][0], args.data, items, format_ids, pairs_runs, run_child)
        pair_rows += rows
        seconds = {r["label"]: r.get("seconds") for r in rows}
        li, py_json = peers.get(items, (None, None))
        if li and seconds.get("ICS -> jsonl"):
            print(f"  calport ICS->jsonl throughput = {li['seconds'] / seconds['ICS -> jsonl']:.2f}x libical's ICS round trip")
        if py_json and seconds.get("ICS -> jcal"):
            print(f"  calport ICS->jcal throughput = {py_json['seconds'] / seconds['ICS -> jcal']:.1f}x python icalendar (jCal)")
    figures += pair_rows
    failures = check(pair_rows, args.max_ratio, args.max_rss_mb, args.max_rss_growth)
    status = print_check(failures, not args.no_check) if pair_rows else 0

    if not args.pairs_only:
        figures += expansion_section(args)
    if args.caldav > 0 and not args.pairs_only:
        # A separate section: its own archive size and its own server, after the file figures.
        from caldav_bench import caldav_section
        path, _ = archive(args.data, args.caldav)
        figures += caldav_section(args.calport, path, args.caldav, run_once)
    if failures and not args.pairs_only:
        # Repeated at the end, where a long run's reader looks first.
        print_check(failures, not args.no_check)
    finish(status)


if __name__ == "__main__":
    main()
