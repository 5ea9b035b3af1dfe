/// How a run lays out what it writes.
public enum OutputLayout: String, CaseIterable, Sendable {
    /// Everything in one file (or standard output).
    case file
    /// A directory with one file per calendar, named after the calendar.
    case directory
    /// A vdir (vdirsyncer, khal): a folder per calendar with one .ics file per item, and the
    /// calendar's name and colour in `displayname` and `color` files.
    case vdir
}
