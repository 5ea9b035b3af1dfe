#!/usr/bin/env python3
"""Generates dateutil_cases.jsonl: random RRULEs with the instances python-dateutil's rrule
computes, for RecurrenceTests/DateutilPropertyTests (an independent implementation to compare
calport's expansion with).

    python3 -m pip install python-dateutil   # if missing
    python3 generate_dateutil_cases.py       # rewrites dateutil_cases.jsonl next to this file

The generator keeps to rules on which RFC 5545 is unambiguous and dateutil follows it; it leaves
out the combinations where dateutil reads the RFC differently from calport (and from libical /
ical.js):
  - YEARLY with BYMONTHDAY but no BYMONTH (dateutil: every month; calport: DTSTART's month),
  - BYWEEKNO without BYDAY (dateutil: the whole week; calport: DTSTART's weekday), BYWEEKNO with
    INTERVAL > 1 or BYSETPOS (dateutil counts calendar years, calport week-numbering years),
  - BYSETPOS with WEEKLY (dateutil's first week starts at DTSTART, RFC 5545's is the whole week),
  - parts RFC 5545 forbids for the frequency (BYDAY ordinals outside MONTHLY/YEARLY, BYYEARDAY
    with DAILY/WEEKLY/MONTHLY, BYMONTHDAY with WEEKLY, BYWEEKNO outside YEARLY).
DTSTART is floating; a DTSTART the rule does not produce is left out, as dateutil does (the
test runs calport with startAlwaysOccurs = false).
"""
import datetime
import itertools
import json
import os
import random
import signal

from dateutil.rrule import rrulestr

SEED = 5545
CASES = 400
MAX_INSTANCES = 60
FREQS = ["YEARLY"] * 5 + ["MONTHLY"] * 5 + ["WEEKLY"] * 4 + ["DAILY"] * 3 + ["HOURLY", "MINUTELY", "SECONDLY"]
DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


def sample(rng, values, low, high):
    return sorted(rng.sample(values, rng.randint(low, high)))


def make_rule(rng):
    freq = rng.choice(FREQS)
    parts = [f"FREQ={freq}"]
    interval = rng.choice([1, 1, 1, 2, 3, 4, 7]) if freq not in ("MINUTELY", "SECONDLY") else rng.choice([1, 5, 15, 45, 90])
    weekno = freq == "YEARLY" and rng.random() < 0.15
    if weekno:
        interval = 1
    if interval != 1:
        parts.append(f"INTERVAL={interval}")
    months = []
    if rng.random() < 0.35:
        months = sample(rng, list(range(1, 13)), 1, 4)
        parts.append("BYMONTH=" + ",".join(map(str, months)))
    if weekno:
        parts.append("BYWEEKNO=" + ",".join(map(str, sample(rng, list(range(-53, 0)) + list(range(1, 54)), 1, 3))))
    has_day_part = weekno
    if weekno or rng.random() < 0.4:
        ordinals = freq in ("MONTHLY", "YEARLY") and not weekno and rng.random() < 0.5
        days = []
        for d in sample(rng, DAYS, 1, 3):
            if ordinals:
                span = 5 if freq == "MONTHLY" or months else 53
                n = rng.choice([1, 2, 3, -1, -2, rng.randint(1, span), -rng.randint(1, span)])
                days.append(f"{n}{d}")
            else:
                days.append(d)
        parts.append("BYDAY=" + ",".join(days))
        has_day_part = True
    if freq != "WEEKLY" and not weekno and rng.random() < 0.3 and (freq != "YEARLY" or months):
        parts.append("BYMONTHDAY=" + ",".join(map(str, sample(rng, list(range(1, 32)) + list(range(-31, 0)), 1, 4))))
        has_day_part = True
    if freq in ("YEARLY", "HOURLY", "MINUTELY", "SECONDLY") and not weekno and rng.random() < 0.15:
        parts.append("BYYEARDAY=" + ",".join(map(str, sample(rng, list(range(1, 367)) + list(range(-366, 0)), 1, 5))))
        has_day_part = True
    if rng.random() < 0.25:
        parts.append("BYHOUR=" + ",".join(map(str, sample(rng, list(range(24)), 1, 3))))
    if rng.random() < 0.2:
        parts.append("BYMINUTE=" + ",".join(map(str, sample(rng, list(range(60)), 1, 3))))
    if freq in ("MINUTELY", "SECONDLY") and rng.random() < 0.3:
        parts.append("BYSECOND=" + ",".join(map(str, sample(rng, list(range(60)), 1, 3))))
    if freq != "WEEKLY" and not weekno and len(parts) > 1 and rng.random() < 0.25:
        parts.append("BYSETPOS=" + ",".join(map(str, sample(rng, [1, 2, 3, -1, -2, -3], 1, 2))))
    if rng.random() < 0.3:
        parts.append("WKST=" + rng.choice(DAYS))
    return freq, parts


def on_alarm(signum, frame):
    raise TimeoutError


def main():
    signal.signal(signal.SIGALRM, on_alarm)
    rng = random.Random(SEED)
    here = os.path.dirname(os.path.abspath(__file__))
    out = []
    while len(out) < CASES:
        freq, parts = make_rule(rng)
        start = datetime.datetime(rng.randint(1995, 2030), rng.randint(1, 12), rng.randint(1, 28),
                                  rng.randint(0, 23), rng.choice([0, 0, 15, 30, 45, rng.randint(0, 59)]),
                                  rng.choice([0, 0, rng.randint(0, 59)]))
        if rng.random() < 0.5:
            parts.append(f"COUNT={rng.randint(1, 40)}")
        else:
            span = {"YEARLY": 3650, "MONTHLY": 1500, "WEEKLY": 400, "DAILY": 120}.get(freq, 2)
            until = start + datetime.timedelta(days=rng.randint(1, span), seconds=rng.randint(0, 86399))
            parts.append("UNTIL=" + until.strftime("%Y%m%dT%H%M%S"))
        text = ";".join(parts)
        try:
            rule = rrulestr(text, dtstart=start)
        except ValueError as error:
            # dateutil proves some rules empty up front (a BYMINUTE that MINUTELY;INTERVAL=90
            # can never reach): calport must yield nothing for them, and stop.
            out.append({"id": f"dateutil:{len(out) + 1}", "dtstart": start.strftime("%Y%m%dT%H%M%S"), "rrule": text,
                        "expected": [], "complete": True, "dateutil_error": str(error)})
            continue
        # A rule with few or no instances (BYMONTHDAY=31;BYMONTH=2, or SECONDLY steps that
        # never meet BYSECOND) makes dateutil walk towards year 9999: such rules are dropped.
        signal.alarm(2)
        try:
            instances = list(itertools.islice(iter(rule), MAX_INSTANCES + 1))
        except TimeoutError:
            continue
        except ValueError as error:
            out.append({"id": f"dateutil:{len(out) + 1}", "dtstart": start.strftime("%Y%m%dT%H%M%S"), "rrule": text,
                        "expected": [], "complete": True, "dateutil_error": str(error)})
            continue
        finally:
            signal.alarm(0)
        if not instances:
            continue
        complete = len(instances) <= MAX_INSTANCES
        out.append({
            "id": f"dateutil:{len(out) + 1}",
            "dtstart": start.strftime("%Y%m%dT%H%M%S"),
            "rrule": text,
            "expected": [i.strftime("%Y%m%dT%H%M%S") for i in instances[:MAX_INSTANCES]],
            "complete": complete,
        })
    with open(os.path.join(here, "dateutil_cases.jsonl"), "w") as f:
        for case in out:
            f.write(json.dumps(case) + "\n")


if __name__ == "__main__":
    main()
