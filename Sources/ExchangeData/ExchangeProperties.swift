/// The iCalendar property names that carry what Exchange holds and the model does not type
/// (busy status words beyond TRANSP, ids, the HTML body, …) in `CalendarItem.properties`. EWS and
/// Graph readers write them and their writers read them back, so EWS → ICS → Graph keeps them;
/// the names are agreed here, once.
public enum ExchangeProperties {
    /// Outlook's own busy-status property (FREE, TENTATIVE, BUSY, OOF, WORKINGELSEWHERE), as its
    /// iCalendar export writes it; TRANSP alone cannot tell OOF or working elsewhere from busy.
    public static let busyStatus = "X-MICROSOFT-CDO-BUSYSTATUS"
    /// Outlook's importance (0 low, 1 normal, 2 high), written beside PRIORITY.
    public static let importance = "X-MICROSOFT-CDO-IMPORTANCE"
    /// Exchange's sensitivity word when CLASS cannot say it (Personal has no CLASS of its own).
    public static let sensitivity = "X-MS-SENSITIVITY"
    /// The HTML body, with FMTTYPE=text/html (Outlook's and Exchange's own spelling; DESCRIPTION
    /// holds the body as plain text).
    public static let htmlDescription = "X-ALT-DESC"
    /// The FMTTYPE parameter value of `htmlDescription`.
    public static let htmlMediaType = "text/html"
    /// EWS ItemId Id, so a migration can find the item again.
    public static let ewsItemID = "X-MS-EWS-ITEMID"
    /// EWS ItemId ChangeKey.
    public static let ewsChangeKey = "X-MS-EWS-CHANGEKEY"
    /// The EWS element whose text a kept Exchange-only field came from (a parameter on the
    /// `ewsFieldPrefix` properties, so the writer can spell the element again).
    public static let ewsElementParameter = "X-MS-EWS-ELEMENT"
    /// Prefix of properties that keep simple Exchange-only CalendarItem fields
    /// (`X-MS-EWS-ISONLINEMEETING`, …) so an EWS writer can write them back.
    public static let ewsFieldPrefix = "X-MS-EWS-"
    /// Microsoft Graph event id.
    public static let graphID = "X-MS-GRAPH-ID"
    /// Microsoft Graph transactionId (the idempotency key of a created event).
    public static let graphTransactionID = "X-MS-GRAPH-TRANSACTIONID"
    /// Microsoft Graph changeKey.
    public static let graphChangeKey = "X-MS-GRAPH-CHANGEKEY"
    /// The online-meeting join address (Teams/Skype), which Outlook's export also writes.
    public static let onlineMeetingURL = "X-MICROSOFT-SKYPETEAMSMEETINGURL"
}
