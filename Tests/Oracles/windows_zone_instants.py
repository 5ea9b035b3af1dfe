#!/usr/bin/env python3
"""Prints, for every Windows zone name CLDR maps for territory 001, the zone CLDR names and the UTC
instants (seconds since the epoch) of local noon on 2026-01-15 and 2026-07-15 there.

The oracle of WindowsZoneTableTests, independent of calport: the names and zones are those of the
CLDR snapshot PyPI's tzlocal ships (`tzlocal.windows_tz`, which `make deps` pins), the offsets are
python's zoneinfo reading the system's tz database. With `--zones`, prints every zone CLDR lists in
any territory with its Windows name instead.
"""

import sys
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from tzlocal import windows_tz

if "--zones" in sys.argv:
    for zone, windows in sorted(windows_tz.tz_win.items()):
        print(f"{zone}\t{windows}")
    sys.exit(0)

for windows, zone in sorted(windows_tz.win_tz.items()):
    try:
        tz = ZoneInfo(zone)
    except ZoneInfoNotFoundError:
        sys.exit(f"{windows}: {zone} is not in the system's tz database")
    instants = [int(datetime(2026, month, 15, 12, tzinfo=tz).timestamp()) for month in (1, 7)]
    print(f"{windows}\t{zone}\t{instants[0]}\t{instants[1]}")
