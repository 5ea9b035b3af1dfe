#!/usr/bin/env python3
"""Compares what two iCalendar files mean, as python's icalendar reads them after the
x-wr-timezone package has brought each into RFC 5545 form (floating and UTC times of a calendar
with X-WR-TIMEZONE become times in that zone). Prints one line per difference and exits 1 if
there is any; exits 2 when the second file has properties icalendar could not read.

    ics_meaning.py INPUT OUTPUT

The oracle of FidelityRoundTripTests: an implementation that shares no code with calport.
Date-times compare as instants (a zoned time, its UTC form and the same instant in another zone
are equal); parameter values compare as lists (quoting and order do not count); DTSTAMP,
PRODID and VTIMEZONEs are not compared (a converter writes its own).
"""

import datetime
import sys

import icalendar
import x_wr_timezone

SKIPPED = {"DTSTAMP", "PRODID"}


def instant(value):
    if isinstance(value, datetime.datetime) and value.tzinfo is not None:
        return value.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return value.isoformat()


def normalized(name, prop):
    if hasattr(prop, "dts"):  # RDATE, EXDATE lists
        return sorted(instant(d.dt) for d in prop.dts)
    if hasattr(prop, "dt"):
        return instant(prop.dt)
    params = {}
    for key, value in getattr(prop, "params", {}).items():
        values = value if isinstance(value, list) else [value]
        params[key.upper()] = [str(v) for v in values]
    return (str(prop.to_ical().decode() if hasattr(prop, "to_ical") else prop), sorted(params.items()))


def properties(component):
    result = {}
    for name, value in component.property_items(recursive=False):
        if name in SKIPPED or name in ("BEGIN", "END"):
            continue
        values = value if isinstance(value, list) else [value]
        result.setdefault(name, []).extend(repr(normalized(name, v)) for v in values)
    return {name: sorted(values) for name, values in result.items()}


def items(calendar):
    result = {}
    for component in calendar.walk():
        if component.name not in ("VEVENT", "VTODO", "VJOURNAL"):
            continue
        rid = component.get("RECURRENCE-ID")
        key = f"{component.name} {component.get('UID')} {instant(rid.dt) if rid is not None else ''}".strip()
        result[key] = properties(component)
    return result


def read(path):
    with open(path, "rb") as data:
        calendars = icalendar.Calendar.from_ical(data.read(), multiple=True)
    return [x_wr_timezone.to_standard(c) for c in calendars]


def main():
    before, after = read(sys.argv[1]), read(sys.argv[2])
    unread = [(c.name, e) for cal in after for c in cal.walk() for e in getattr(c, "errors", [])]
    if unread:
        for name, error in unread:
            print(f"output not readable: {name}: {error}")
        sys.exit(2)
    differences = []
    old, new = {}, {}
    for c in before:
        old.update(items(c))
    for c in after:
        new.update(items(c))
    for key in sorted(set(old) | set(new)):
        if key not in new:
            differences.append(f"{key}: missing from the output")
            continue
        if key not in old:
            differences.append(f"{key}: not in the input")
            continue
        for name in sorted(set(old[key]) | set(new[key])):
            if old[key].get(name) != new[key].get(name):
                differences.append(f"{key}: {name}: {old[key].get(name)} → {new[key].get(name)}")
    for line in differences:
        print(line)
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
