"""Expands one RRULE from a DATE DTSTART between two dates with python-dateutil: an
independent reading of RFC 5545 to check the rules calport writes for February 29."""
import sys
from datetime import datetime

from dateutil.rrule import rrulestr

dtstart, rule, first, last = sys.argv[1:5]
start = datetime.strptime(dtstart, "%Y%m%d")
window = (datetime.strptime(first, "%Y%m%d"), datetime.strptime(last, "%Y%m%d"))
dates = rrulestr(rule, dtstart=start).between(*window, inc=True)
print(" ".join(d.strftime("%Y%m%d") for d in dates))
