"""Reads calport's Graph output with Microsoft's own Graph SDK model (msgraph-sdk, kiota's
JsonParseNode into msgraph.generated.models.event.Event) and prints, per element, what the
model understood: start, end, recurrence and attendees, as JSON lines. Exits 1 on an element
the model cannot take."""
import json
import sys

from kiota_serialization_json.json_parse_node import JsonParseNode
from msgraph.generated.models.event import Event


def described(ev):
    def dtz(v):
        return None if v is None else [v.date_time, v.time_zone]

    rec = None
    if ev.recurrence is not None:
        p, r = ev.recurrence.pattern, ev.recurrence.range
        rec = {
            "type": p.type.value if p.type else None,
            "interval": p.interval,
            "daysOfWeek": [d.value for d in (p.days_of_week or [])],
            "index": p.index.value if p.index else None,
            "dayOfMonth": p.day_of_month,
            "month": p.month,
            "rangeType": r.type.value if r.type else None,
            "startDate": str(r.start_date) if r.start_date else None,
            "endDate": str(r.end_date) if r.end_date else None,
            "numberOfOccurrences": r.number_of_occurrences,
        }
    attendees = []
    for a in ev.attendees or []:
        attendees.append([a.email_address.address if a.email_address else None, a.type.value if a.type else None,
                          a.status.response.value if a.status and a.status.response else None])
    return {"subject": ev.subject, "start": dtz(ev.start), "end": dtz(ev.end), "recurrence": rec, "attendees": attendees,
            "exceptions": len(ev.exception_occurrences or []), "cancelled": list(ev.cancelled_occurrences or [])}


def main():
    text = open(sys.argv[1], encoding="utf-8").read()
    doc = json.loads(text)
    for element in doc["value"]:
        node = JsonParseNode(element)
        ev = node.get_object_value(Event)
        if ev is None:
            sys.exit(1)
        print(json.dumps(described(ev)))
        for exception in element.get("exceptionOccurrences", []):
            # each exception is an Event of its own in the model, with the same checks
            if JsonParseNode(exception).get_object_value(Event) is None:
                sys.exit(1)


main()
