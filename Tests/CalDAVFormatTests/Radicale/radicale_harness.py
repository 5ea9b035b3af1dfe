#!/usr/bin/env python3
"""Talks plain HTTP to a running Radicale for calport's round-trip test.

Creates a calendar collection and a subscribed collection for the user `alice`, PUTs every
.ics file of --events into the calendar, and saves the server's answers to REPORT
(calendar-query, calendar-multiget, sync-collection) and PROPFIND (calendar home, Depth 1)
under --out. The server itself is started and stopped by the Swift test that runs this.
"""
import argparse
import base64
import http.client
import os
import sys

DAV = 'xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:CS="http://calendarserver.org/ns/" xmlns:I="http://apple.com/ns/ical/"'

MKCOL_CALENDAR = f"""<?xml version="1.0" encoding="utf-8"?>
<D:mkcol {DAV}><D:set><D:prop>
<D:resourcetype><D:collection/><C:calendar/></D:resourcetype>
<D:displayname>Work – Team Café</D:displayname>
<C:calendar-description>Meetings &amp; deadlines</C:calendar-description>
<I:calendar-color>#1BADF8FF</I:calendar-color>
<I:calendar-order>3</I:calendar-order>
</D:prop></D:set></D:mkcol>"""

# Radicale stores CS:source as the element's text (CalendarServer nests a DAV:href, which
# Radicale then ignores) and answers PROPFIND with <CS:source><D:href>…</D:href></CS:source>.
MKCOL_SUBSCRIPTION = f"""<?xml version="1.0" encoding="utf-8"?>
<D:mkcol {DAV}><D:set><D:prop>
<D:resourcetype><D:collection/><CS:subscribed/></D:resourcetype>
<D:displayname>Holidays</D:displayname>
<I:calendar-color>#1C4587FF</I:calendar-color>
<CS:source>webcal://www.example.org/holidays.ics</CS:source>
</D:prop></D:set></D:mkcol>"""

CALENDAR_QUERY = f"""<?xml version="1.0" encoding="utf-8"?>
<C:calendar-query {DAV}><D:prop><D:getetag/><C:calendar-data/></D:prop>
<C:filter><C:comp-filter name="VCALENDAR"/></C:filter></C:calendar-query>"""

SYNC_COLLECTION = f"""<?xml version="1.0" encoding="utf-8"?>
<D:sync-collection {DAV}><D:sync-token/><D:sync-level>1</D:sync-level>
<D:prop><D:getetag/><C:calendar-data/></D:prop></D:sync-collection>"""

PROPFIND_HOME = f"""<?xml version="1.0" encoding="utf-8"?>
<D:propfind {DAV}><D:prop>
<D:resourcetype/><D:displayname/><C:calendar-description/><I:calendar-color/><I:calendar-order/>
<CS:getctag/><D:sync-token/><CS:source/><C:supported-calendar-component-set/>
<D:current-user-privilege-set/><I:refreshrate/>
</D:prop></D:propfind>"""


class Server:
    def __init__(self, port):
        self.port = port
        # auth type none accepts any name; the name decides whose collections these are.
        self.auth = "Basic " + base64.b64encode(b"alice:unused").decode()

    def request(self, method, path, body=b"", headers=None, expect=(200, 201, 204, 207)):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        h = {"Authorization": self.auth}
        h.update(headers or {})
        if isinstance(body, str):
            body = body.encode("utf-8")
        conn.request(method, path, body=body, headers=h)
        response = conn.getresponse()
        data = response.read()
        conn.close()
        if response.status not in expect:
            sys.exit(f"{method} {path}: HTTP {response.status}\n{data.decode('utf-8', 'replace')[:2000]}")
        return data


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--events", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    server = Server(args.port)
    xml = {"Content-Type": "application/xml; charset=utf-8"}

    server.request("MKCOL", "/alice/work/", MKCOL_CALENDAR, xml)
    server.request("MKCOL", "/alice/holidays/", MKCOL_SUBSCRIPTION, xml)
    names = sorted(n for n in os.listdir(args.events) if n.endswith(".ics"))
    for name in names:
        with open(os.path.join(args.events, name), "rb") as f:
            server.request("PUT", "/alice/work/" + name, f.read(), {"Content-Type": "text/calendar; charset=utf-8"})

    def save(name, data):
        with open(os.path.join(args.out, name), "wb") as f:
            f.write(data)

    save("report-calendar-query.xml", server.request("REPORT", "/alice/work/", CALENDAR_QUERY, dict(xml, Depth="1")))
    hrefs = "".join(f"<D:href>/alice/work/{n}</D:href>" for n in names[:25])
    multiget = f"""<?xml version="1.0" encoding="utf-8"?>
<C:calendar-multiget {DAV}><D:prop><D:getetag/><C:calendar-data/></D:prop>{hrefs}<D:href>/alice/work/missing.ics</D:href></C:calendar-multiget>"""
    save("report-calendar-multiget.xml", server.request("REPORT", "/alice/work/", multiget, dict(xml, Depth="1")))
    save("report-sync-collection.xml", server.request("REPORT", "/alice/work/", SYNC_COLLECTION, dict(xml, Depth="1")))
    save("propfind-home.xml", server.request("PROPFIND", "/alice/", PROPFIND_HOME, dict(xml, Depth="1")))
    print(f"put {len(names)} events")


if __name__ == "__main__":
    main()
