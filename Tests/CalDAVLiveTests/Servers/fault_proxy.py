#!/usr/bin/env python3
"""A fault-injecting HTTP proxy for calport's live CalDAV tests (127.0.0.1 only).

Forwards every request to --upstream and, on a fixed schedule, answers instead with a fault:
every --every-th request gets the next fault of the cycle
  503 with Retry-After: 1 · 429 with Retry-After: 0 · connection dropped before forwarding ·
  a 0.3 s delay, then forwarded · forwarded, then the connection dropped without an answer
(the last one is the hard case: the server stored the PUT but the client never heard).
--always-503 answers 503 to every request (a server that never recovers).
Bounded: at most --max-faults faults, and the proxy exits by itself after --lifetime seconds.
Writes one line per request to --log: METHOD PATH STATUS-OR-FAULT.
"""
import argparse
import http.client
import http.server
import socket
import sys
import threading
import time

FAULTS = ["503", "429", "drop", "delay", "drop-after"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--upstream", type=int, required=True)
    parser.add_argument("--every", type=int, default=7)
    parser.add_argument("--max-faults", type=int, default=10000)
    parser.add_argument("--always-503", action="store_true")
    parser.add_argument("--lifetime", type=float, default=900)
    parser.add_argument("--log", required=True)
    args = parser.parse_args()
    lock = threading.Lock()
    state = {"count": 0, "faults": 0}
    log = open(args.log, "a", buffering=1)

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def handle_any(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            with lock:
                state["count"] += 1
                n = state["count"]
                fault = None
                if args.always_503:
                    fault = "503"
                elif n % args.every == 0 and state["faults"] < args.max_faults:
                    fault = FAULTS[state["faults"] % len(FAULTS)]
                    state["faults"] += 1
            if fault == "503" or fault == "429":
                log.write(f"{self.command} {self.path} {fault}\n")
                payload = b"injected fault"
                self.send_response(int(fault))
                self.send_header("Retry-After", "1" if fault == "503" else "0")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
                return
            if fault == "drop":
                log.write(f"{self.command} {self.path} drop\n")
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
                return
            if fault == "delay":
                time.sleep(0.3)
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection", "keep-alive")}
            upstream = http.client.HTTPConnection("127.0.0.1", args.upstream, timeout=60)
            upstream.request(self.command, self.path, body=body, headers=headers)
            response = upstream.getresponse()
            data = response.read()
            upstream.close()
            log.write(f"{self.command} {self.path} {response.status}{' drop-after' if fault == 'drop-after' else ''}\n")
            if fault == "drop-after":
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
                return
            self.send_response(response.status)
            for k, v in response.getheaders():
                if k.lower() not in ("transfer-encoding", "connection", "content-length", "keep-alive"):
                    self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = do_MKCALENDAR = do_MKCOL = do_OPTIONS = do_HEAD = do_POST = handle_any

    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    threading.Timer(args.lifetime, server.shutdown).start()
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
