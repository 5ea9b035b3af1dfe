"""Reads the DOM Chromium rendered from an HTML report (stdin) and prints, as JSON, what the
page shows: the figures (`data-figure`), per calendar (`data-cal` rows of the calendar table),
per loss (`data-loss`) and per server calendar of a CalDAV push or pull (`data-caldav`); every timeline mark with its
calendar, month, count and title; and every reference that would reach outside the page."""
import json
import re
import sys
from html.parser import HTMLParser

# Attributes that make a browser fetch something (or navigate) when they hold a URL.
FETCHING = {"src", "href", "xlink:href", "action", "formaction", "poster", "srcset", "data", "background",
            "manifest", "ping", "lowsrc", "longdesc", "cite", "codebase", "archive", "profile"}
FETCHING_TAGS = {"script", "link", "iframe", "frame", "object", "embed", "img", "image", "audio", "video",
                 "source", "track", "feimage", "base"}


def number(text):
    """A figure as a number when its text is one (digits grouped by spaces), else the text."""
    text = text.strip()
    if re.fullmatch(r"-?[0-9]{1,3}([\s\u202f][0-9]{3})*", text):
        return int(re.sub(r"[^0-9-]", "", text))
    return text


class Reader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []  # (tag, attrs, scope) per open element
        self.capture = []  # open [key, scope, text] captures
        self.out = {"figures": {}, "calendars": {}, "losses": {}, "calDAV": {}, "marks": [], "external": [], "text": []}
        self.mark = None
        self.in_style = False

    def scope(self):
        for tag, attrs, scope in reversed(self.stack):
            if scope:
                return scope
        return None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for name, value in attrs:
            value = value or ""
            if name in FETCHING and not value.startswith("#"):
                self.out["external"].append(f"<{tag} {name}={value}>")
            if name == "style" and re.search(r"url\(|@import", value, re.I):
                self.out["external"].append(f"<{tag} style={value}>")
        if tag == "meta" and a.get("http-equiv", "").lower() == "refresh":
            self.out["external"].append("<meta http-equiv=refresh>")
        if tag in FETCHING_TAGS:
            self.out["external"].append(f"<{tag}>")
        scope = None
        if "data-cal" in a and tag == "tr":
            scope = ("calendars", a["data-cal"])
        elif "data-loss" in a:
            scope = ("losses", a["data-loss"])
        elif "data-caldav" in a:
            scope = ("calDAV", a["data-caldav"])
        self.stack.append((tag, a, scope))
        if tag == "style":
            self.in_style = True
        if "data-figure" in a:
            self.capture.append([a["data-figure"], self.scope(), []])
        if tag == "rect" and "data-month" in a:
            row = next((at for t, at, s in reversed(self.stack) if t == "g" and "data-cal" in at), {})
            self.mark = {"cal": row.get("data-cal"), "calendar": row.get("data-calendar"), "month": a["data-month"],
                         "count": int(a.get("data-count", "0")), "title": []}
            self.capture.append(["__mark_title__", None, self.mark["title"]])

    def handle_endtag(self, tag):
        if tag == "style":
            self.in_style = False
        while self.stack:
            open_tag, a, scope = self.stack.pop()
            if "data-figure" in a and self.capture:
                key, where, text = self.capture.pop()
                value = number("".join(text))
                if where is None:
                    self.out["figures"][key] = value
                else:
                    self.out[where[0]].setdefault(where[1], {})[key] = value
            if open_tag == "rect" and "data-month" in a and self.mark is not None:
                self.capture = [c for c in self.capture if c[0] != "__mark_title__"]
                self.mark["title"] = "".join(self.mark["title"]).strip()
                self.out["marks"].append(self.mark)
                self.mark = None
            if open_tag == tag:
                break

    def handle_data(self, data):
        if self.in_style:
            if re.search(r"url\(|@import", data, re.I):
                self.out["external"].append("style sheet: " + data[:80])
            return
        self.out["text"].append(data)
        for c in self.capture:
            c[2].append(data)


reader = Reader()
reader.feed(sys.stdin.read())
reader.close()
reader.out["text"] = " ".join(reader.out["text"])
json.dump(reader.out, sys.stdout)
