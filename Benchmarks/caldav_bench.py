"""The live CalDAV section of `make bench`: a push and a pull of an N-item archive against a local
Radicale (from .venv, `make deps`), started on 127.0.0.1 on a free port with temporary storage and
stopped afterwards. Prints items/s, HTTP requests per item (from calport's --report) and peak RSS,
and the server's own ceiling: the same number of PUTs from a plain Python client (http.client, four
threads, as calport's -j 4), so that a slow push can be told from a slow server. Radicale checks a
new item against its collection, so its PUT rate falls as the collection grows: compare rows of one
size only."""
import http.client
import json
import threading
import uuid
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_radicale(root, storage):
    python = os.path.join(root, ".venv", "bin", "python")
    if not os.path.exists(python):
        sys.exit("Radicale is not installed: run `make deps`")
    port = free_port()
    proc = subprocess.Popen([python, "-m", "radicale", "--storage-filesystem-folder", storage, "--auth-type", "none",
                             "--rights-type", "owner_only", "--server-hosts", f"127.0.0.1:{port}", "--logging-level", "warning"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while time.time() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc, port
        time.sleep(0.1)
    proc.kill()
    sys.exit("Radicale did not start")


def server_ceiling(port, items, collection):
    """Seconds for `items` PUTs of a one-event calendar into a new collection, four threads."""
    def connect():
        return http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    mkcol = ('<?xml version="1.0"?><mkcol xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><set><prop>'
             '<resourcetype><collection/><C:calendar/></resourcetype></prop></set></mkcol>')
    c = connect()
    c.request("MKCOL", collection, body=mkcol, headers={"Content-Type": "application/xml"})
    c.getresponse().read()
    failures = []

    def put(first):
        for _ in range(first, items, 4):
            uid = str(uuid.uuid4())
            body = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calport bench//EN\r\nBEGIN:VEVENT\r\n"
                    f"UID:{uid}\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260101T100000Z\r\n"
                    "DTEND:20260101T110000Z\r\nSUMMARY:ceiling\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
            c = connect()
            c.request("PUT", f"{collection}{uid}.ics", body=body,
                      headers={"Content-Type": "text/calendar", "If-None-Match": "*"})
            r = c.getresponse()
            r.read()
            if r.status >= 300:
                failures.append(r.status)

    started = time.time()
    threads = [threading.Thread(target=put, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seconds = time.time() - started
    if failures:
        print(f"  (the server refused {len(failures)} of the ceiling's PUTs: HTTP {sorted(set(failures))})")
    return seconds


def caldav_section(calport, archive_path, items, run_once):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    work = tempfile.mkdtemp(prefix="calport-bench-caldav-")
    proc, port = start_radicale(root, os.path.join(work, "storage"))
    url = f"http://127.0.0.1:{port}/bench/"
    env_cmd = lambda cmd: ["env", "CALPORT_USERNAME=bench", f"XDG_STATE_HOME={work}/state"] + cmd
    rows = []
    try:
        print(f"\nlive CalDAV against Radicale on 127.0.0.1 ({items} items; -j 4)")
        header = f"{'run':<28} {'seconds':>8} {'items/s':>9} {'requests/item':>14} {'peak RSS':>9}"
        print(header)
        print("-" * len(header))
        for label, cmd, report in [
            ("push (new calendar)", [calport, "convert", archive_path, "-o", url, "--calendar", "Bench", "-q"], "push.json"),
            ("push again (no change)", [calport, "convert", archive_path, "-o", url, "--calendar", "Bench", "-q"], "again.json"),
            ("pull to ICS", [calport, "convert", url, "-o", os.path.join(work, "pulled.ics"), "-q", "--no-progress"], "pull.json"),
        ]:
            path = os.path.join(work, report)
            seconds, rss = run_once(env_cmd(cmd + ["--report", path]))
            with open(path) as f:
                r = json.load(f)
            requests = sum((r.get("calDAV") or {}).get("requests", {}).values())
            cals = (r.get("calDAV") or {}).get("calendars", [])
            done = sum(c["created"] + c["updated"] + c["unchanged"] for c in cals) or r["totals"]["events"] + r["totals"]["reminders"]
            per_second = done / seconds
            print(f"{label:<28} {seconds:>8.2f} {per_second:>9.0f} {requests / max(done, 1):>14.3f} {rss / 1024:>7.1f}MB", flush=True)
            rows.append({"run": label, "items": done, "seconds": round(seconds, 2), "items_per_second": round(per_second),
                         "requests_per_item": round(requests / max(done, 1), 3), "peak_rss_mb": round(rss / 1024, 1)})
        seconds = server_ceiling(port, items, "/bench/ceiling/")
        print(f"{'server alone (Python PUTs)':<28} {seconds:>8.2f} {items / seconds:>9.0f} {1:>14.3f} {'-':>9}", flush=True)
        rows.append({"run": "server alone (Python PUTs)", "items": items, "seconds": round(seconds, 2),
                     "items_per_second": round(items / seconds), "requests_per_item": 1.0})
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(work, ignore_errors=True)
    return rows
