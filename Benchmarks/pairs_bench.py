"""The format-pair section of `make bench` (issue 19): for every format `calport formats` lists,
ICS -> F (the archive written as F) and F -> ICS (that file read back with `-f F`), at each size,
against calport ICS -> ICS on the same archive in the same run; then the bound check.

Rounds: each round runs, per format, ICS -> ICS, ICS -> F and F -> ICS, then ICS -> ICS once
more, so a slow spell on this shared machine falls on the reference and the pairs alike. A pair's
seconds are the median of its rounds; its ratio is that median over the median of every ICS -> ICS
run of the same size (the reference); its peak RSS is the largest of its rounds.

The bound (issue 19), checked after every size has run:
  - at the largest size, every pair within `max_ratio` times ICS -> ICS;
  - at every size, every pair's peak RSS at most `max_rss_mb`;
  - each pair's peak RSS at the largest size at most `max_rss_growth` above the smallest size's;
  - every conversion exits 0.
"""
import os
import statistics


def pair_runs(calport, archive_path, data, items, formats):
    """The commands of one size: (label, input path, command) for ICS -> ICS and, per format,
    ICS -> F then F -> ICS."""
    out = lambda name: os.path.join(data, "pairs", name)
    ics = ("ICS -> ICS", archive_path, [calport, "convert", archive_path, "-o", out(f"ics-{items}.ics"), "--no-progress"])
    per_format = []
    for f in formats:
        written = out(f"to-{items}.{f}")
        per_format.append([
            (f"ICS -> {f}", archive_path, [calport, "convert", archive_path, "-t", f, "-o", written, "--no-progress"]),
            (f"{f} -> ICS", written, [calport, "convert", written, "-f", f, "-t", "ics", "-o", out(f"from-{items}-{f}.ics"),
                                      "--no-progress"]),
        ])
    return ics, per_format


def pairs_section(calport, archive_path, data, items, formats, runs, run_child):
    """Runs the pairs of one size for `runs` rounds; prints one row per pair and returns the rows
    (ICS -> ICS first). `run_child(cmd)` gives (seconds, peak RSS KB, exit code, stderr)."""
    os.makedirs(os.path.join(data, "pairs"), exist_ok=True)
    ics, per_format = pair_runs(calport, archive_path, data, items, formats)
    order = [ics[0]] + [label for group in per_format for label, _, _ in group]
    inputs = {ics[0]: ics[1]} | {label: path for group in per_format for label, path, _ in group}
    samples = {label: [] for label in order}
    errors = {}

    def once(label, cmd):
        seconds, rss, code, err = run_child(cmd)
        if code != 0:
            errors.setdefault(label, f"exit {code}: {err.strip().splitlines()[-1] if err.strip() else 'no message'}")
        else:
            samples[label].append((seconds, rss))

    for _ in range(runs):
        for group in per_format:
            once(ics[0], ics[2])
            for label, _, cmd in group:
                once(label, cmd)
        once(ics[0], ics[2])

    reference = statistics.median(s for s, _ in samples[ics[0]]) if samples[ics[0]] else None
    rows = []
    for label in order:
        runs_of = samples[label]
        size_mb = os.path.getsize(inputs[label]) / 1e6 if os.path.exists(inputs[label]) else 0.0
        row = {"items": items, "label": label, "input_megabytes": round(size_mb, 1), "error": errors.get(label)}
        if runs_of:
            seconds = statistics.median(s for s, _ in runs_of)
            rss = max(r for _, r in runs_of)
            row |= {"seconds": round(seconds, 3), "megabytes_per_second": round(size_mb / seconds, 1),
                    "ratio": round(seconds / reference, 2) if reference else None, "peak_rss_mb": round(rss / 1024, 1)}
            ratio = f"{seconds / reference:>6.2f}x" if reference else f"{'?':>7}"
            print(f"{items:>7}  {label:<22} {size_mb:>7.1f} {seconds:>8.3f} {size_mb / seconds:>7.1f} {ratio} {rss / 1024:>7.1f}MB",
                  flush=True)
        else:
            print(f"{items:>7}  {label:<22} {size_mb:>7.1f}  failed: {errors[label]}", flush=True)
        rows.append(row)
    if samples[ics[0]]:
        times = sorted(s for s, _ in samples[ics[0]])
        print(f"  reference ICS -> ICS: median {reference:.3f}s of {len(times)} runs ({times[0]:.3f}s-{times[-1]:.3f}s)")
    return rows


def pairs_header(runs):
    print(f"\nevery format pair (issue 19; median of {runs} rounds; MB/s of the file read; ratio = seconds / ICS -> ICS)")
    header = f"{'items':>7}  {'conversion':<22} {'in MB':>7} {'seconds':>8} {'MB/s':>7} {'ratio':>7} {'peak RSS':>9}"
    print(header)
    print("-" * len(header))


def check(rows, max_ratio, max_rss_mb, max_rss_growth):
    """The pairs outside the bound, as (label, items, reason) in table order."""
    sizes = sorted({r["items"] for r in rows})
    if not sizes:
        return []
    smallest, largest = sizes[0], sizes[-1]
    by = {(r["label"], r["items"]): r for r in rows}
    failures = []
    for r in rows:
        label, items = r["label"], r["items"]
        if r["error"]:
            failures.append((label, items, f"failed ({r['error']})"))
            continue
        if items == largest and r["ratio"] is not None and r["ratio"] > max_ratio:
            failures.append((label, items, f"{r['ratio']:.2f}x ICS -> ICS (bound {max_ratio:.1f}x at the largest size)"))
        if r["peak_rss_mb"] > max_rss_mb:
            failures.append((label, items, f"peak RSS {r['peak_rss_mb']:.1f} MB (bound {max_rss_mb:.0f} MB)"))
        small = by.get((label, smallest))
        if items == largest and largest != smallest and small and not small["error"]:
            growth = r["peak_rss_mb"] / small["peak_rss_mb"] - 1
            if growth > max_rss_growth:
                failures.append((label, items, f"peak RSS {r['peak_rss_mb']:.1f} MB is {growth * 100:.0f}% above "
                                               f"{small['peak_rss_mb']:.1f} MB at {smallest} items (bound {max_rss_growth * 100:.0f}%)"))
    return failures


def print_check(failures, enforced):
    """Prints the verdict; returns the exit status the bound asks for."""
    if not failures:
        print("\nbound check (issue 19): every pair within the bound")
        return 0
    pairs = len({(label, items) for label, items, _ in failures})
    print(f"\nbound check (issue 19): {pairs} pair{'s' if pairs != 1 else ''} outside the bound"
          + ("" if enforced else " (not enforced: --no-check)"))
    for label, items, reason in failures:
        print(f"  {label:<22} {items:>7} items: {reason}")
    return 1 if enforced else 0
