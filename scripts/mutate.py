#!/usr/bin/env python3
"""Black-box mutation run of the calport binary (issue 21): thousands of mutants of real files in
every format (byte flips, truncation, giant repetitions, deep nesting, huge numbers inserted or in
place of a file's own numbers, long lines), each converted to a rotating output format, some with
--expand over a century. A crash (signal or
an exit status calport does not use), a hang (more processor time than --timeout seconds and one
per MB of input, or past the wall-clock timeout twice, the second time with ten times as long: a
loaded machine stalls any run) or a memory blow-up (over --memory MB of address space) is a
finding, saved with the command that reproduces it.

    scripts/mutate.py --calport .build/release/calport --seconds 600 [--out mutate-findings]

Bounded in time: it stops after --seconds, whatever remains. Deterministic for a --seed.
"""
import argparse
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Exit statuses calport uses (README, "Exit status"): anything else is a crash.
EXPECTED = {0, 1, 2, 65, 66, 73, 74}
OUTPUTS = ["ics", "json", "jsonl", "jcal", "jscalendar", "csv", "csv-outlook", "csv-google", "xcal", "ews", "graph", "caldav"]
EXTENSIONS = {"ics": "ics", "json": "json", "jsonl": "jsonl", "jcal": "json", "jscalendar": "json", "csv": "csv",
              "csv-outlook": "csv", "csv-google": "csv", "xcal": "xml", "ews": "xml", "graph": "json", "caldav": "xml"}


def format_of(path, data):
    """The input format a real file is in, by extension and content; None to skip it."""
    ext = os.path.splitext(path)[1].lower()
    text = data[:65536]
    if ext == ".ics":
        return "ics"
    if ext == ".csv":
        return "csv-outlook" if b"Start Date" in text or b"Beginnt" in text else "csv"
    if ext == ".jsonl":
        return "jsonl"
    if ext in (".json", ".jcal"):
        if b"calport-json" in text:
            return "json"
        if text.lstrip().startswith(b'["vcalendar"'):
            return "jcal"
        if b'"@type"' in text:
            return "jscalendar"
        if b"@odata" in text or b'"subject"' in text:
            return "graph"
    if ext == ".xml":
        if b"multistatus" in text:
            return "caldav"
        if b"icalendar-2.0" in text:
            return "xcal"
        if b"exchange/services" in text:
            return "ews"
    return None


def real_files(limit_bytes=256 << 10):
    """Every real calendar file of samples/, the tests' fixtures and the shared corpus, by format."""
    found = {}
    for base in ("samples", "Tests", os.path.join("..", "shared", "corpus")):
        for folder, _, names in os.walk(os.path.join(ROOT, base)):
            for name in sorted(names):
                path = os.path.join(folder, name)
                try:
                    if os.path.getsize(path) > limit_bytes:
                        continue
                    data = open(path, "rb").read()
                except OSError:
                    continue
                fmt = format_of(path, data)
                if fmt:
                    found.setdefault(fmt, []).append(data)
    return found


def nest(fmt, depth):
    """A document nested `depth` levels deep in the format's own structure."""
    if fmt == "ics":
        return (b"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:n\r\nDTSTART:20240101T000000Z\r\n" + b"BEGIN:X\r\n" * depth
                + b"END:X\r\n" * depth + b"END:VEVENT\r\nEND:VCALENDAR\r\n")
    if fmt in ("xcal", "caldav", "ews"):
        return b"<a>" * depth + b"</a>" * depth
    if fmt == "csv" or fmt.startswith("csv"):
        return b"Subject,Start Date\n" + b'"' * depth + b"\n"
    return b"[" * depth + b"]" * depth


# In place of a number a field holds: the ends of Int, Int32 and UInt32, beyond Int, zero and below.
HOSTILE_NUMBERS = [b"9223372036854775807", b"9223372036854775808", b"99999999999999999999", b"2147483648", b"4294967296",
                   b"0", b"00", b"99", b"999999", b"1e309", b"0.5"]


def mutate(data, fmt, rng):
    """One to four mutations of the kinds the issue's run used."""
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        kind = rng.random()
        pos = rng.randrange(len(data) + 1)
        if kind < 0.30 and data:  # byte flips
            for _ in range(rng.randint(1, 8)):
                i = rng.randrange(len(data))
                data[i] ^= 1 << rng.randrange(8)
        elif kind < 0.45:  # truncation
            del data[pos:]
        elif kind < 0.60 and data:  # a giant repetition of a piece
            start = rng.randrange(len(data))
            piece = bytes(data[start:start + rng.randint(1, 200)])
            data[pos:pos] = piece * rng.choice([10, 1000, 100_000, 1_000_000 // max(1, len(piece))])
        elif kind < 0.70:  # deep nesting, inserted or as the whole document
            depth = rng.choice([100, 10_000, 200_000])
            if rng.random() < 0.5:
                return nest(fmt, depth)
            data[pos:pos] = nest(fmt, depth)
        elif kind < 0.77:  # a number of the file replaced by a hostile one, where its field expects a number
            runs = [m.span() for m in re.finditer(rb"\d+", bytes(data))]
            if runs:
                a, b = rng.choice(runs)
                data[a:b] = rng.choice(HOSTILE_NUMBERS)
        elif kind < 0.85:  # hostile numbers and values
            data[pos:pos] = rng.choice([b"9223372036854775807", b"-9223372036854775808", b"99999999999999999999",
                                        b"INTERVAL=9223372036854775807", b";COUNT=2147483647", b"FREQ=SECONDLY",
                                        b"P99999999999999999W", b"00000101", b"99991231T235959Z", b"0000-01-01",
                                        b"9999-12-31T23:59:59", b"1e309", b"\x00", b"\xff\xfe", b"&#0;"])
        elif data:  # splice of another part of the file
            a, b = sorted(rng.randrange(len(data)) for _ in range(2))
            data[pos:pos] = data[a:b]
    return bytes(data)


def timeout_cpu(path, base=10.0):
    """Processor seconds a conversion of `path` may take: the base and a second per MB."""
    return base + os.path.getsize(path) / 1e6


def run(calport, path, fmt, out_fmt, expand, timeout, memory_mb, workdir):
    out = os.path.join(workdir, "out." + EXTENSIONS[out_fmt])
    args = [calport, "convert", "-f", fmt, path, "-t", out_fmt, "-o", out, "--quiet", "--no-progress"]
    if expand:
        args += ["--start", "1950-01-01", "--end", "2050-01-01", "--expand", "--max-occurrences", "2000"]

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))

    started = time.time()
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        p = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=timeout, preexec_fn=limit)
    except subprocess.TimeoutExpired:
        return "hang", args, time.time() - started, b""
    elapsed = time.time() - started
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime)
    # Work in proportion to the input is no hang: a second of processor time per MB is allowed
    # beyond the timeout (a 20 MB mutant of 400,000 rows converts in ~10 s).
    if cpu > timeout_cpu(path):
        return "hang", args, elapsed, f"{cpu:.1f} s of processor time".encode()
    if p.returncode < 0 or p.returncode not in EXPECTED:
        memory = b"alloc" in p.stderr.lower() or b"memory" in p.stderr.lower()
        return ("memory" if memory else "crash"), args, elapsed, p.stderr[-2000:]
    return None, args, elapsed, b""


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calport", default=os.path.join(ROOT, ".build", "release", "calport"))
    parser.add_argument("--seconds", type=float, default=600, help="total time budget")
    parser.add_argument("--timeout", type=float, default=10, help="seconds per mutant before it is a hang")
    parser.add_argument("--memory", type=int, default=2048, help="MB of address space per run")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--out", default=os.path.join(ROOT, "mutate-findings"))
    parser.add_argument("--giant-line", action="store_true", help="also convert a 1 GB one-line file in each text format")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    files = real_files()
    formats = sorted(files)
    print("real files: " + ", ".join(f"{f} {len(files[f])}" for f in formats), flush=True)
    workdir = tempfile.mkdtemp(prefix="calport-mutate-")
    counts = {f: 0 for f in formats}
    findings = []
    deadline = time.time() + args.seconds
    slowest = (0.0, "")
    try:
        if args.giant_line:
            for fmt in ("ics", "csv", "json", "xcal"):
                path = os.path.join(workdir, "giant." + EXTENSIONS[fmt])
                with open(path, "wb") as f:
                    f.write({"ics": b"BEGIN:VCALENDAR\r\nX-A:", "csv": b"Subject,Start Date\n\"", "json": b'{"format":"calport-json","x":"',
                             "xcal": b"<icalendar><a>"}[fmt])
                    chunk = b"x" * (1 << 20)
                    for _ in range(1024):
                        f.write(chunk)
                kind, cmd, elapsed, err = run(args.calport, path, fmt, "json", False, 120, args.memory, workdir)
                print(f"1 GB line, {fmt}: {'ok' if kind is None else kind} in {elapsed:.1f} s", flush=True)
                if kind:
                    findings.append((kind, fmt, path, cmd, err))
                os.unlink(path)
        i = 0
        while time.time() < deadline:
            fmt = formats[i % len(formats)]
            i += 1
            data = mutate(rng.choice(files[fmt]), fmt, rng)
            path = os.path.join(workdir, "mutant." + EXTENSIONS[fmt])
            with open(path, "wb") as f:
                f.write(data)
            out_fmt = rng.choice(OUTPUTS)
            expand = rng.random() < 0.3
            kind, cmd, elapsed, err = run(args.calport, path, fmt, out_fmt, expand, args.timeout, args.memory, workdir)
            if kind == "hang":
                # A busy machine stalls any run: a hang is one that runs past the timeout again with
                # ten times the wall time, or uses more processor time than its size allows.
                kind, cmd, elapsed, err = run(
                    args.calport, path, fmt, out_fmt, expand, 10 * args.timeout + timeout_cpu(path), args.memory, workdir)
            counts[fmt] += 1
            if elapsed > slowest[0]:
                slowest = (elapsed, f"{fmt} → {out_fmt}{' --expand' if expand else ''} ({len(data)} bytes)")
            if kind:
                os.makedirs(args.out, exist_ok=True)
                saved = os.path.join(args.out, f"{kind}-{fmt}-{len(findings)}.{EXTENSIONS[fmt]}")
                shutil.copy(path, saved)
                cmd = [c if c != path else saved for c in cmd]
                findings.append((kind, fmt, saved, cmd, err))
                print(f"FINDING {kind}: {' '.join(cmd)}\n{err.decode(errors='replace')[-600:]}", flush=True)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    total = sum(counts.values())
    print(f"mutants: {total} in {args.seconds:.0f} s — " + ", ".join(f"{f} {counts[f]}" for f in formats))
    print(f"slowest: {slowest[0]:.1f} s, {slowest[1]}")
    print(f"findings: {len(findings)}")
    for kind, fmt, saved, cmd, _ in findings:
        print(f"  {kind} ({fmt}): {' '.join(cmd)}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
