#!/usr/bin/env python3
"""Expected occurrences of Exchange recurrence patterns, computed from the EWS fields alone.

This is the independent oracle for ExchangeRecurrenceOracleTests: it does not build an RRULE.
It walks every day from the range's start (python-dateutil's rrule(DAILY) as the day counter,
relativedelta for month and year distances) and keeps the days Exchange's semantics give, as
Microsoft documents them:
  - Daily: every Interval-th day counted from the range's start date.
  - Weekly: the listed DaysOfWeek (Day = every day, Weekday = Mon-Fri, WeekendDay = Sat/Sun) in
    every Interval-th week, weeks starting on FirstDayOfWeek, counted from the start date's week.
  - AbsoluteMonthly / AbsoluteYearly: DayOfMonth, or the month's last day when the month is shorter
    (EWS DayOfMonth reference: "the last day of the month is assumed"; CDO RecurrencePattern:
    Outlook puts a yearly Feb 29 on Feb 28 in common years).
  - RelativeMonthly / RelativeYearly: the DayOfWeekIndex-th (First..Fourth, Last) day of the month
    that is one of DaysOfWeek (a set counts as "the n-th day that is one of these").
  - Ranges: NoEnd (the first N are compared), EndDate (through that date, inclusive, in the
    pattern's zone), Numbered (NumberOfOccurrences).
Occurrences are wall times at the start's time of day; for zoned cases the UTC instant of each is
also given (dateutil.tz), so a series crossing a DST change keeps its wall-clock time.

Run: python3 generate_exchange_cases.py > exchange_cases.jsonl
"""
import datetime as dt
import json

from dateutil import rrule, tz
from dateutil.relativedelta import relativedelta

WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]  # Python's order
SETS = {"Day": set(range(7)), "Weekday": {0, 1, 2, 3, 4}, "WeekendDay": {5, 6}}
INDEXES = {"First": 1, "Second": 2, "Third": 3, "Fourth": 4, "Last": -1}
HORIZON_YEARS = 30
NO_END_TAKE = 25


def day_set(words):
    days = set()
    for w in words:
        days |= SETS[w] if w in SETS else {WEEKDAYS.index(w)}
    return days


def days_in_month(y, m):
    return ((dt.date(y, m, 1) + relativedelta(months=1)) - dt.date(y, m, 1)).days


def nth_matching(y, m, days, index):
    matching = [d for d in range(1, days_in_month(y, m) + 1) if dt.date(y, m, d).weekday() in days]
    return matching[index - 1] if index > 0 else matching[index]


def week_start(d, first_day):
    return d - dt.timedelta(days=(d.weekday() - WEEKDAYS.index(first_day)) % 7)


def occurs(p, start, d):
    kind, interval = p["kind"], p.get("interval", 1)
    if kind == "daily":
        return (d - start).days % interval == 0
    if kind == "weekly":
        first = p.get("firstDayOfWeek") or "Monday"
        weeks = (week_start(d, first) - week_start(start, first)).days // 7
        return weeks % interval == 0 and d.weekday() in day_set(p["daysOfWeek"])
    months = relativedelta(d.replace(day=1), start.replace(day=1))
    months = months.years * 12 + months.months
    if kind in ("absoluteYearly", "relativeYearly"):
        if d.month != p["month"] or (months // 12) % interval:
            return False
    elif months % interval:
        return False
    if kind in ("absoluteMonthly", "absoluteYearly"):
        return d.day == min(p["dayOfMonth"], days_in_month(d.year, d.month))
    return d.day == nth_matching(d.year, d.month, day_set(p["daysOfWeek"]), INDEXES[p["index"]])


def expand(p, r):
    start = dt.date.fromisoformat(r["startDate"])
    horizon = HORIZON_YEARS * (4 if "Yearly" in p["kind"] else 1)
    end = dt.date.fromisoformat(r["endDate"]) if r["kind"] == "endDate" else start + relativedelta(years=horizon)
    limit = r.get("numberOfOccurrences") if r["kind"] == "numbered" else None
    got = []
    for day in rrule.rrule(rrule.DAILY, dtstart=dt.datetime.combine(start, dt.time()), until=dt.datetime.combine(end, dt.time())):
        if occurs(p, start, day.date()):
            got.append(day.date())
            if limit is not None and len(got) == limit:
                break
            if r["kind"] == "noEnd" and len(got) == NO_END_TAKE:
                break
    return got


def patterns():
    yield {"kind": "daily", "interval": 1}
    yield {"kind": "daily", "interval": 3}
    yield {"kind": "weekly", "interval": 1, "daysOfWeek": ["Monday", "Wednesday", "Friday"]}
    yield {"kind": "weekly", "interval": 1, "daysOfWeek": ["Thursday"]}
    for first in ("Sunday", "Monday", "Wednesday"):
        yield {"kind": "weekly", "interval": 2, "daysOfWeek": ["Sunday", "Tuesday", "Saturday"], "firstDayOfWeek": first}
    for special in ("Day", "Weekday", "WeekendDay"):
        yield {"kind": "weekly", "interval": 1, "daysOfWeek": [special], "firstDayOfWeek": "Sunday"}
        yield {"kind": "weekly", "interval": 3, "daysOfWeek": [special], "firstDayOfWeek": "Sunday"}
    for day in (1, 15, 28, 29, 30, 31):
        yield {"kind": "absoluteMonthly", "interval": 1, "dayOfMonth": day}
    yield {"kind": "absoluteMonthly", "interval": 2, "dayOfMonth": 31}
    yield {"kind": "absoluteMonthly", "interval": 5, "dayOfMonth": 30}
    for index in INDEXES:
        for days in (["Tuesday"], ["Friday"], ["Day"], ["Weekday"], ["WeekendDay"]):
            yield {"kind": "relativeMonthly", "interval": 1, "daysOfWeek": days, "index": index}
    yield {"kind": "relativeMonthly", "interval": 3, "daysOfWeek": ["Weekday"], "index": "Last"}
    yield {"kind": "relativeMonthly", "interval": 2, "daysOfWeek": ["Monday", "Wednesday"], "index": "Second"}  # Graph's lists
    for month, day in ((2, 29), (2, 28), (1, 31), (4, 30), (4, 31), (6, 15), (12, 25)):
        yield {"kind": "absoluteYearly", "interval": 1, "month": month, "dayOfMonth": day}
    yield {"kind": "absoluteYearly", "interval": 4, "month": 2, "dayOfMonth": 29}  # Graph's yearly interval
    for index in INDEXES:
        for days in (["Thursday"], ["Day"], ["Weekday"], ["WeekendDay"]):
            yield {"kind": "relativeYearly", "interval": 1, "month": 11, "daysOfWeek": days, "index": index}
    yield {"kind": "relativeYearly", "interval": 1, "month": 3, "daysOfWeek": ["Sunday"], "index": "Last"}


STARTS = [
    # (range start date, time of day, zone): a Wednesday in Berlin (DST in March and October),
    # a month's end in New York, an all-day series, a UTC one.
    ("2024-01-10", "093000", "Europe/Berlin"),
    ("2023-11-30", "233000", "America/New_York"),
    ("2024-02-29", None, None),
    ("2025-03-01", "120000", "UTC"),
]


def main():
    n = 0
    for p in patterns():
        for start_date, time, zone in STARTS:
            unbounded = expand(p, {"kind": "noEnd", "startDate": start_date})
            ranges = [
                {"kind": "noEnd", "startDate": start_date},
                {"kind": "numbered", "startDate": start_date, "numberOfOccurrences": 7},
                # Ends on an occurrence's day (inclusive) and between two occurrences.
                {"kind": "endDate", "startDate": start_date, "endDate": unbounded[8].isoformat()},
                {"kind": "endDate", "startDate": start_date, "endDate": (unbounded[5] + dt.timedelta(days=1)).isoformat()},
            ]
            for r in ranges:
                days = expand(p, r)
                n += 1
                wall = [d.strftime("%Y%m%d") + ("T" + time if time else "") + ("Z" if zone == "UTC" else "") for d in days]
                case = {"id": f"c{n}", "pattern": p, "range": r, "time": time, "zone": zone, "expected": wall,
                        "complete": r["kind"] != "noEnd"}
                if zone and zone != "UTC":
                    zinfo = tz.gettz(zone)
                    # dateutil.tz reads a TZif file's transitions but not its footer rule, so it
                    # knows offsets only through 2037: instants are compared up to then.
                    case["utc"] = [
                        dt.datetime.strptime(w, "%Y%m%dT%H%M%S").replace(tzinfo=zinfo).astimezone(tz.UTC).strftime("%Y%m%dT%H%M%SZ")
                        for w in wall if w < "2037"]
                print(json.dumps(case, sort_keys=True))


if __name__ == "__main__":
    main()
