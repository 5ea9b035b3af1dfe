#!/usr/bin/env python3
"""Reads EWS documents with exchangelib (PyPI), the most used EWS client, as it reads a server's
answers, and prints what it understood, one JSON line per t:CalendarItem.

    exchangelib_read.py FILE...

A GetItemResponse goes through exchangelib's own response parsing (GetItem.parse, which checks
the SOAP envelope, each message's ResponseClass and ResponseCode, and builds CalendarItem
objects); any other document (a CreateItem request) has each t:CalendarItem read by
CalendarItem.from_xml. A file exchangelib cannot read prints {"file": …, "error": …}.
Talks to no server: the account is never used for a request.
"""
import json
import sys

from lxml import etree

from exchangelib import Account, Configuration, Credentials, DELEGATE
from exchangelib.items import CalendarItem
from exchangelib.services import GetItem
from exchangelib.version import Build, Version

TNS = "http://schemas.microsoft.com/exchange/services/2006/types"
MNS = "http://schemas.microsoft.com/exchange/services/2006/messages"


def make_account():
    # A version given up front: no autodiscover and no version probe, so nothing is sent.
    config = Configuration(
        server="127.0.0.1", credentials=Credentials("nobody", "unused"), version=Version(build=Build(15, 1, 2507, 6))
    )
    return Account(primary_smtp_address="nobody@example.com", config=config, autodiscover=False, access_type=DELEGATE)


def when(value):
    if value is None:
        return None
    return value.isoformat()


def mailbox(m):
    return {"name": m.name, "email": m.email_address, "routing": m.routing_type, "type": m.mailbox_type}


def attendees(items):
    return [dict(mailbox(a.mailbox), response=a.response_type) for a in items or []]


def describe(item):
    r = item.recurrence
    recurrence = None
    if r is not None:
        p, b = r.pattern, r.boundary
        recurrence = {
            "pattern": type(p).__name__,
            "interval": getattr(p, "interval", None),
            "weekdays": [str(d) for d in (getattr(p, "weekdays", None) or [])],
            "weekday": str(getattr(p, "weekday", None)) if getattr(p, "weekday", None) is not None else None,
            "week_number": getattr(p, "week_number", None),
            "day_of_month": getattr(p, "day_of_month", None),
            "month": getattr(p, "month", None),
            "boundary": type(b).__name__,
            "start": when(b.start),
            "end": when(getattr(b, "end", None)),
            "number": getattr(b, "number", None),
        }
    return {
        "uid": item.uid,
        "type": item.type,
        "subject": item.subject,
        "start": when(item.start),
        "end": when(item.end),
        "is_all_day": item.is_all_day,
        "recurrence_id": when(item.recurrence_id),
        "organizer": mailbox(item.organizer) if item.organizer else None,
        "required": attendees(item.required_attendees),
        "optional": attendees(item.optional_attendees),
        "resources": attendees(item.resources),
        "recurrence": recurrence,
        "modified": [
            {"start": when(o.start), "end": when(o.end), "original_start": when(o.original_start)}
            for o in item.modified_occurrences or []
        ],
        "deleted": [when(o.start) for o in item.deleted_occurrences or []],
        "start_timezone": getattr(item._start_timezone, "ms_id", None),
        "end_timezone": getattr(item._end_timezone, "ms_id", None),
        "legacy_free_busy_status": item.legacy_free_busy_status,
        "sensitivity": item.sensitivity,
        "importance": item.importance,
        "categories": item.categories,
        "reminder_is_set": item.reminder_is_set,
        "reminder_minutes_before_start": item.reminder_minutes_before_start,
        "body_type": type(item.body).__name__ if item.body is not None else None,
        "location": item.location,
    }


def main():
    account = make_account()
    for path in sys.argv[1:]:
        try:
            with open(path, "rb") as f:
                data = f.read()
            root = etree.fromstring(data)
            if root.find(f".//{{{MNS}}}GetItemResponse") is not None:
                items = list(GetItem(account=account).parse(data))
            else:
                items = [CalendarItem.from_xml(e, account=account) for e in root.iter(f"{{{TNS}}}CalendarItem")]
            for item in items:
                if isinstance(item, Exception):
                    raise item
                print(json.dumps(dict(describe(item), file=path)))
        except Exception as error:  # noqa: BLE001 - every failure is a finding, reported per file
            print(json.dumps({"file": path, "error": f"{type(error).__name__}: {error}"}))


if __name__ == "__main__":
    main()
