#!/usr/bin/env python3
"""Writes Sources/TimeZones/WindowsZoneTable.swift: CLDR's Windows ↔ IANA table (windowsZones).

calport resolves Windows zone names through this table ahead of the one built into the system's
ICU (72: CLDR 42, 2022), whose rows are years old (Central Asia Standard Time → Asia/Almaty, which
left UTC+6 in 2024). The table is read from what PyPI packages ship, so regenerating needs no
network beyond pip:

* the whole table — every Windows id, territory 001 and each territory's row, zones in CLDR's
  order — from the CLDR data compiled into the ICU that `pyicu-wheels` bundles (its `windowsZones`
  resource, read through ICU's C API with ctypes); the CLDR release is ICU's own
  (`ulocdata_getCLDRVersion`);
* then CLDR's newer snapshot that `tzlocal` ships (`tzlocal.windows_tz`: each Windows id's 001
  zone, and the Windows id of every zone CLDR lists), which wins where the two differ: new Windows
  ids get their 001 row, and a zone CLDR moved to another Windows id moves with its territory.

Or, given a windowsZones.xml (`--xml FILE --cldr-version N`), from that file alone.

    python3 -m venv /tmp/wz && /tmp/wz/bin/pip install pyicu-wheels tzlocal
    /tmp/wz/bin/python scripts/generate_windows_zones.py
"""

import argparse
import ctypes
import glob
import importlib.metadata
import os
import sys
import xml.etree.ElementTree as ElementTree

OUTPUT = os.path.join(os.path.dirname(__file__), "..", "Sources", "TimeZones", "WindowsZoneTable.swift")


class Row:
    def __init__(self, windows, territory, zones):
        self.windows, self.territory, self.zones = windows, territory, list(zones)


def rows_from_xml(path):
    root = ElementTree.parse(path).getroot()
    table = root.find("windowsZones/mapTimezones")
    rows = [Row(z.get("other"), z.get("territory"), z.get("type").split()) for z in table.findall("mapZone")]
    note = f"otherVersion {table.get('otherVersion')}, typeVersion {table.get('typeVersion')}"
    return rows, note


def rows_from_icu():
    """CLDR's table as ICU compiled it, in its order, through ICU's C API (PyICU has no direct
    resource access)."""
    import icu  # pyicu-wheels

    version = icu.ICU_VERSION.split(".")[0]
    libs = os.path.join(os.path.dirname(os.path.dirname(icu.__file__)), "pyicu_wheels.libs")
    uc = ctypes.CDLL(glob.glob(os.path.join(libs, "libicuuc-*.so.*"))[0])
    i18n = ctypes.CDLL(glob.glob(os.path.join(libs, "libicui18n-*.so.*"))[0])

    def fn(lib, name, restype, *argtypes):
        f = getattr(lib, f"{name}_{version}")
        f.restype, f.argtypes = restype, list(argtypes)
        return f

    P, S, I = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int32
    status = ctypes.c_int(0)
    st = ctypes.byref(status)
    open_direct = fn(uc, "ures_openDirect", P, S, S, P)
    by_key = fn(uc, "ures_getByKey", P, P, S, P, P)
    has_next = fn(uc, "ures_hasNext", ctypes.c_int8, P)
    next_resource = fn(uc, "ures_getNextResource", P, P, P, P)
    get_key = fn(uc, "ures_getKey", S, P)
    get_string = fn(uc, "ures_getString", ctypes.POINTER(ctypes.c_uint16), P, ctypes.POINTER(I), P)
    cldr_version = fn(i18n, "ulocdata_getCLDRVersion", None, ctypes.c_uint8 * 4, P)

    def check(what):
        if status.value > 0:
            sys.exit(f"ICU error {status.value} in {what}")

    root = open_direct(None, b"windowsZones", st)
    check("ures_openDirect(windowsZones)")
    table = by_key(root, b"mapTimezones", None, st)
    check("mapTimezones")
    rows = []
    while has_next(table):
        windows = next_resource(table, None, st)
        check("next Windows id")
        windows_id = get_key(windows).decode()
        while has_next(windows):
            entry = next_resource(windows, None, st)
            length = I(0)
            text = get_string(entry, ctypes.byref(length), st)
            check("row")
            zones = "".join(chr(text[k]) for k in range(length.value)).replace(":", "/")
            rows.append(Row(windows_id, get_key(entry).decode(), zones.split()))
    cldr = (ctypes.c_uint8 * 4)()
    cldr_version(cldr, st)
    check("ulocdata_getCLDRVersion")
    release = ".".join(str(v) for v in cldr).rstrip(".0") if cldr[1] else str(cldr[0])
    return rows, release, icu.ICU_VERSION


def apply_snapshot(rows, win_tz, tz_win):
    """Brings rows up to a newer CLDR snapshot that has each Windows id's 001 zone and every
    listed zone's Windows id: 001 rows are replaced or added; a zone listed under another Windows
    id moves there, keeping its territory. Returns what changed, for the header."""
    changes = []
    for windows, zone in win_tz.items():
        row = next((r for r in rows if r.windows == windows and r.territory == "001"), None)
        if row is None:
            rows.append(Row(windows, "001", [zone]))
            changes.append(f"{windows}: new (001 {zone})")
        elif row.zones != [zone]:
            changes.append(f"{windows}: 001 {row.zones[0]} → {zone}")
            row.zones = [zone]
    moved = []
    for row in rows:
        if row.territory == "001":
            continue
        for zone in list(row.zones):
            target = tz_win.get(zone)
            if target is None or target == row.windows:
                continue
            row.zones.remove(zone)
            destination = next((r for r in rows if r.windows == target and r.territory == row.territory), None)
            if destination is None:
                destination = Row(target, row.territory, [])
                rows.append(destination)
            destination.zones.append(zone)
            moved.append(f"{zone} ({row.territory}) {row.windows} → {target}")
    # Zones new to CLDR (new in tz data, like America/Coyhaique in 2025b) join their Windows id's
    # row for the country tz data's zone.tab gives them; tzlocal's other names are backward
    # links (US/Eastern, CET), which calport follows through the tz data itself.
    countries, links = zone_countries(), tz_links()

    def final(zone):
        hops = 0
        while zone in links and hops < 8:
            zone, hops = links[zone], hops + 1
        return zone

    listed = {final(zone) for row in rows for zone in row.zones}
    for zone, target in sorted(tz_win.items()):
        territory = countries.get(zone)
        if final(zone) in listed or territory is None:
            continue
        destination = next((r for r in rows if r.windows == target and r.territory == territory), None)
        if destination is None:
            destination = Row(target, territory, [])
            rows.append(destination)
        destination.zones.append(zone)
        moved.append(f"{zone} ({territory}) added to {target}")
    rows[:] = [r for r in rows if r.zones]
    # CLDR's order: by Windows id as ICU sorts them, 001 first, then territories alphabetically.
    rows.sort(key=lambda r: (r.windows, r.territory != "001", r.territory))
    return changes + moved


def zone_countries(path="/usr/share/zoneinfo/zone.tab"):
    """Each zone's ISO 3166 country, from the tz data's zone.tab."""
    countries = {}
    with open(path, encoding="utf-8") as table:
        for line in table:
            fields = line.rstrip("\n").split("\t")
            if not line.startswith("#") and len(fields) >= 3:
                countries[fields[2]] = fields[0]
    return countries


def tz_links(path="/usr/share/zoneinfo/tzdata.zi"):
    """tz data's links (old name → zone), so that today's spelling of a zone CLDR lists under
    an old one (Africa/Asmara, Africa/Asmera) is not taken for a new zone."""
    links = {}
    with open(path, encoding="utf-8") as data:
        for line in data:
            fields = line.split()
            if len(fields) >= 3 and fields[0] == "L":
                links[fields[2]] = fields[1]
    return links


def swift_string(text):
    return text.replace("\\", "\\\\").replace('"', '\\"')


def write(rows, versions, provenance):
    lines = [
        "// Generated by scripts/generate_windows_zones.py; do not edit. To update, run the script (see its doc).",
        "// " + provenance[0],
    ] + ["// " + line for line in provenance[1:]] + [
        "",
        "extension WindowsZoneMapping {",
        "    /// The CLDR release of `all`, and where newer rows came from (`calport tz --versions`).",
        f'    public static let cldrVersion = "{swift_string(versions)}"',
        "",
        "    /// CLDR's windowsZones table, one row a line: Windows id, territory, IANA zones (CLDR's",
        "    /// spelling, the territory's main zone first), separated by tabs.",
        '    static let cldrTable = """',
    ]
    for row in rows:
        lines.append("        " + swift_string(f"{row.windows}\t{row.territory}\t{' '.join(row.zones)}").replace("\t", "\\t"))
    lines += ['        """', "}", ""]
    with open(OUTPUT, "w", encoding="utf-8") as out:
        out.write("\n".join(lines))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--xml", help="a windowsZones.xml to read instead of the PyPI packages")
    parser.add_argument("--cldr-version", help="the CLDR release of --xml")
    args = parser.parse_args()
    if args.xml:
        if not args.cldr_version:
            parser.error("--xml needs --cldr-version")
        rows, note = rows_from_xml(args.xml)
        write(rows, args.cldr_version, [f"Source: {os.path.basename(args.xml)}, CLDR {args.cldr_version} ({note})."])
        return
    rows, release, icu_version = rows_from_icu()
    from tzlocal import windows_tz

    wheels = importlib.metadata.version("pyicu-wheels")
    tzlocal_version = importlib.metadata.version("tzlocal")
    changes = apply_snapshot(rows, windows_tz.win_tz, windows_tz.tz_win)
    provenance = [
        f"Source: CLDR {release} as compiled into ICU {icu_version} (PyPI pyicu-wheels {wheels}),",
        f"brought up to the newer CLDR snapshot in PyPI tzlocal {tzlocal_version} (tzlocal.windows_tz):",
    ] + ["  " + c for c in changes]
    version = f"{release} + tzlocal {tzlocal_version}" if changes else release
    write(rows, version, provenance)
    print(f"{len(rows)} rows, {len({r.windows for r in rows})} Windows ids, CLDR {version}; {len(changes)} changes from tzlocal")


if __name__ == "__main__":
    main()
