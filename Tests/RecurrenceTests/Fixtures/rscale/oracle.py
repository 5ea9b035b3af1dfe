#!/usr/bin/env python3
"""Independent oracles for calport's RFC 7529 RSCALE expansion.

Prints one JSON object: case name -> {"rrule", "dtstart", "last", "dates"}, where "dates" are the
Gregorian days (YYYYMMDD) the PyPI calendar libraries give for the festival or rule in the window
from "dtstart" to "last" (both included). The RRULE is what a calendar would carry for the same
thing; calport's expansion of it over the window must equal "dates" exactly.

Libraries (installed by `make deps`): lunardate (Chinese, 1900-2099), pyluach (Hebrew),
convertdate (tabular Islamic, Persian), hijridate (Umm al-Qura, 1343-1500 AH).
"""
import json
import sys
import warnings

warnings.simplefilter("ignore", DeprecationWarning)

from convertdate import islamic, persian  # noqa: E402
from hijridate import Hijri  # noqa: E402
from lunardate import LunarDate  # noqa: E402
from pyluach import dates as hebrew  # noqa: E402


def ymd(d):
    return "%04d%02d%02d" % (d.year, d.month, d.day) if hasattr(d, "year") else "%04d%02d%02d" % d


def chinese(year, month, day, leap=False):
    """The Gregorian day of a Chinese date, or None when the year has no such (leap) month."""
    if leap and LunarDate.leap_month_for_year(year) != month:
        return None
    try:
        return ymd(LunarDate(year, month, day, leap).to_solar_date())
    except ValueError:  # day 30 of a 29-day month
        return None


def chinese_month_length(year, month, leap=False):
    return 30 if chinese(year, month, 30, leap) else 29


def hebrew_leap(year):
    return hebrew.HebrewDate(year, 7, 1).leap if hasattr(hebrew.HebrewDate(year, 7, 1), "leap") else _is_leap(year)


def _is_leap(year):
    return (7 * year + 1) % 19 < 7


cases = {}


def case(name, rrule, found):
    found = [d for d in found if d]
    cases[name] = {"rrule": rrule, "dtstart": found[0], "last": found[-1], "dates": found}


# Chinese New Year and Mid-Autumn (the 15th of the 8th month), lunar years 2024-2099.
case("chinese-new-year", "RSCALE=CHINESE;FREQ=YEARLY", [chinese(y, 1, 1) for y in range(2024, 2100)])
case("chinese-new-year-2024-2030", "RSCALE=CHINESE;FREQ=YEARLY;COUNT=7", [chinese(y, 1, 1) for y in range(2024, 2031)])
case("mid-autumn", "RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=8;BYMONTHDAY=15", [chinese(y, 8, 15) for y in range(2024, 2100)])

# A rule on the first day of the leap 6th month (2025 has one): each SKIP value.
for skip in ["OMIT", "BACKWARD", "FORWARD"]:
    found = []
    for y in range(2025, 2100):
        if LunarDate.leap_month_for_year(y) == 6:
            found.append(chinese(y, 6, 1, True))
        elif skip == "BACKWARD":
            found.append(chinese(y, 6, 1))
        elif skip == "FORWARD":
            found.append(chinese(y, 7, 1))
    case("chinese-leap-6-" + skip.lower(), "RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=6L;BYMONTHDAY=1;SKIP=" + skip, found)

# A lunar birthday on the 30th of the 12th month: months of 29 days move it (RFC 7529 §4.1).
for skip in ["OMIT", "BACKWARD", "FORWARD"]:
    found = []
    for y in range(2024, 2099):
        if chinese_month_length(y, 12) == 30:
            found.append(chinese(y, 12, 30))
        elif skip == "BACKWARD":
            found.append(chinese(y, 12, 29))
        elif skip == "FORWARD":
            found.append(chinese(y + 1, 1, 1))
    # The series starts on a real 30th (2024's 12th month has 29 days, 2025's has 30? the
    # oracle decides): the first date the oracle gives is DTSTART.
    case("chinese-12-30-" + skip.lower(), "RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=30;SKIP=" + skip, found)

# Rosh Hashanah (1 Tishrei), 5784-5860. pyluach numbers months from Nisan: Tishrei is 7.
case("rosh-hashanah", "RSCALE=HEBREW;FREQ=YEARLY", [ymd(hebrew.HebrewDate(y, 7, 1).to_pydate()) for y in range(5784, 5861)])

# The 14th of Adar I (RFC 7529's 5L; Purim Katan), from 5784, a leap year. pyluach: Adar I is
# month 12 in leap years, Adar (II) is 12 in common years and 13 in leap years, Shevat is 11.
for skip in ["OMIT", "BACKWARD", "FORWARD"]:
    found = []
    for y in range(5784, 5861):
        if _is_leap(y):
            found.append(ymd(hebrew.HebrewDate(y, 12, 14).to_pydate()))
        elif skip == "BACKWARD":
            found.append(ymd(hebrew.HebrewDate(y, 11, 14).to_pydate()))
        elif skip == "FORWARD":
            found.append(ymd(hebrew.HebrewDate(y, 12, 14).to_pydate()))
    case("hebrew-adar-i-14-" + skip.lower(), "RSCALE=HEBREW;FREQ=YEARLY;BYMONTH=5L;BYMONTHDAY=14;SKIP=" + skip, found)

# Purim (14 Adar; Adar II in leap years, RFC 7529's month 6).
case(
    "purim",
    "RSCALE=HEBREW;FREQ=YEARLY;BYMONTH=6;BYMONTHDAY=14",
    [ymd(hebrew.HebrewDate(y, 13 if _is_leap(y) else 12, 14).to_pydate()) for y in range(5784, 5861)],
)

# Ramadan 1: the tabular (civil) calendar and Umm al-Qura.
case("ramadan-civil", "RSCALE=ISLAMIC-CIVIL;FREQ=YEARLY;BYMONTH=9;BYMONTHDAY=1",
     [ymd(islamic.to_gregorian(y, 9, 1)) for y in range(1445, 1521)])
case("ramadan-umalqura", "RSCALE=ISLAMIC-UMALQURA;FREQ=YEARLY;BYMONTH=9;BYMONTHDAY=1",
     [ymd(Hijri(y, 9, 1).to_gregorian()) for y in range(1445, 1501)])

# Nowruz (1 Farvardin), 1403-1478.
case("nowruz", "RSCALE=PERSIAN;FREQ=YEARLY", [ymd(persian.to_gregorian(y, 1, 1)) for y in range(1403, 1479)])

json.dump(cases, sys.stdout, indent=1, sort_keys=True)
sys.stdout.write("\n")
