#!/usr/bin/env python3
"""Writes current-rules.tsv: wall times in zones and the UTC instants the system's tz data gives
them, computed with Python's zoneinfo (an implementation independent of calport's).

Wall times in a gap take the offset before the gap and ambiguous ones their first occurrence
(fold=0), which is what RFC 5545 §3.3.5 asks for. Run: python3 generate.py > current-rules.tsv
"""
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

CASES = {
    # Mexico abolished DST in October 2022 (tz 2022f); ICU 72's 2022e still has it.
    "America/Mexico_City": ["20230415T100000", "20230715T100000", "20240605T093000", "20251026T010000", "20220715T100000"],
    # Egypt brought DST back in 2023 (tz 2023c): last Friday of April to last Thursday of October.
    "Africa/Cairo": ["20230715T100000", "20240426T003000", "20240428T010000", "20251030T233000", "20240715T100000", "20251031T233000", "20250101T120000"],
    # Kazakhstan moved to a single zone, UTC+5, on 2024-03-01 (tz 2024a).
    "Asia/Almaty": ["20240215T100000", "20240301T100000", "20240715T100000", "20260101T000000"],
    # Greenland: -02 standard from 2023-10-28, DST again from 2024 (tz 2023a, 2023c).
    "America/Nuuk": ["20230715T100000", "20240115T100000", "20240715T100000", "20250715T100000"],
    # Paraguay kept UTC-3 all year from October 2024 (tz 2024b).
    "America/Asuncion": ["20240715T100000", "20250715T100000", "20260115T100000"],
    # DST edges: gaps and repeated hours.
    "America/New_York": ["20240310T023000", "20240310T015959", "20240310T030000", "20241103T013000",
                         "20241103T020000", "20241103T005959", "20800701T120000", "19650701T120000", "20060402T023000"],
    "Europe/Berlin": ["20240331T023000", "20241027T023000", "20241027T030000", "19800615T120000", "21000101T000000"],
    "Australia/Lord_Howe": ["20241006T021500", "20250406T014500", "20250101T120000", "20600115T120000", "20600715T120000"],
    "Europe/Dublin": ["20240115T120000", "20240715T120000", "20241027T013000", "20500115T120000", "20500715T120000"],
    "Australia/Sydney": ["20241006T023000", "20250406T023000"],
    "Asia/Kolkata": ["20240715T100000"],
    "Pacific/Apia": ["20110715T100000", "20120715T100000", "20220101T100000"],
    "America/Santiago": ["20240907T233000", "20250405T233000"],
}

print("# zone\twall time\tUTC instant (python3 zoneinfo, tz data", open("/usr/share/zoneinfo/tzdata.zi").readline().split()[-1] + ")")
for zone, walls in CASES.items():
    tz = ZoneInfo(zone)
    for wall in walls:
        local = datetime.strptime(wall, "%Y%m%dT%H%M%S").replace(tzinfo=tz, fold=0)
        utc = local.astimezone(timezone.utc)
        print(f"{zone}\t{wall}\t{utc.strftime('%Y%m%dT%H%M%SZ')}")
