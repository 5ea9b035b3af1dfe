import CalDAVFormat
import Foundation
import XMLSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A CalDAV client (RFC 4791, RFC 6578, RFC 6764): discovery, collection properties,
/// calendar-query, calendar-multiget, sync-collection, MKCALENDAR, conditional PUT and DELETE.
/// It knows no calendar format: calendar data goes in and out as text, and answers are read
/// with the `caldav` format's multistatus reader. Safe to use from several threads.
public final class CalDAVClient: @unchecked Sendable {
    private let transport: HTTPTransport

    /// A client that authenticates with `credentials` (if any), retries as `retry` says and
    /// keeps up to `connections` connections per host (`-j N`).
    public init(credentials: CalDAVCredentials?, retry: RetryPolicy = RetryPolicy(), connections: Int = 4) {
        transport = HTTPTransport(credentials: credentials, policy: retry, connections: connections)
    }

    /// Requests sent so far (retries included).
    public var requestCounts: RequestCounts { transport.requestCounts }

    // MARK: - Discovery

    /// What `url` is: a calendar collection, a calendar home, a principal, or a server root
    /// (tried again at RFC 6764's `/.well-known/caldav`); and every calendar it leads to.
    public func discover(_ url: URL) throws -> CalDAVDiscovery {
        var found = CalDAVDiscovery()
        var response = try propfind(url, depth: 0, properties: DAVBodies.discoveryProperties)
        if response.status == 404 || response.status == 405 || (response.multistatus?.responses.first.map(Self.isBare) ?? true) {
            // A server root or a URL that says nothing useful: RFC 6764 §5's well-known URI.
            let wellKnown = URL(string: "/.well-known/caldav", relativeTo: url)!.absoluteURL
            let retried = try propfind(wellKnown, depth: 0, properties: DAVBodies.discoveryProperties)
            if retried.multistatus != nil { response = retried }
        }
        guard let multistatus = response.multistatus, let first = multistatus.responses.first else {
            throw CalDAVError(.protocolError, url: url.redacted, status: response.status, "not a CalDAV resource (HTTP \(response.status))")
        }
        let base = response.url
        if first.isCalendarCollection {
            let collection = Self.collection(first, base: base)
            found.collection = collection
            found.calendars = [collection]
            return found
        }
        found.principal = first.properties[DAVNames.currentUserPrincipal].flatMap { Self.hrefURL($0, base: base) }
        var homes = first.properties[DAVNames.calendarHomeSet].map { Self.hrefURLs($0, base: base) } ?? []
        if homes.isEmpty, let principal = found.principal, principal.path != base.path {
            let answer = try propfind(principal, depth: 0, properties: DAVBodies.discoveryProperties)
            homes = answer.multistatus?.responses.first?.properties[DAVNames.calendarHomeSet].map { Self.hrefURLs($0, base: answer.url) } ?? []
        }
        // A collection that is neither a calendar nor a principal: take it for a home itself.
        if homes.isEmpty { homes = [base] }
        found.homes = homes
        for home in homes { found.calendars += try calendars(in: home) }
        return found
    }

    /// A PROPFIND answer that names neither a principal, a home nor a calendar.
    private static func isBare(_ response: DAVResponse) -> Bool {
        !response.isCalendarCollection && response.properties[DAVNames.currentUserPrincipal] == nil
            && response.properties[DAVNames.calendarHomeSet] == nil && !(response.resourceTypes?.contains(DAVNames.collection) ?? false)
    }

    /// The calendar collections directly inside `home`.
    public func calendars(in home: URL) throws -> [CalDAVCollection] {
        let response = try propfind(home, depth: 1, properties: DAVBodies.collectionProperties)
        guard let multistatus = response.multistatus else {
            throw CalDAVError(.protocolError, url: home.redacted, status: response.status, "cannot list calendars (HTTP \(response.status))")
        }
        return multistatus.responses.filter(\.isCalendarCollection).map { Self.collection($0, base: response.url) }
            .filter { $0.url.path != home.path }
    }

    /// The properties of the collection at `url`, or nil when there is none (404).
    public func collection(at url: URL) throws -> CalDAVCollection? {
        let response = try propfind(url, depth: 0, properties: DAVBodies.collectionProperties)
        if response.status == 404 { return nil }
        guard let first = response.multistatus?.responses.first, first.isCalendarCollection else { return nil }
        return Self.collection(first, base: response.url)
    }

    // MARK: - Reading resources

    /// Every object resource of a collection with its entity tag (PROPFIND, Depth 1): the
    /// index an ETag comparison and a multiget start from.
    public func resources(in collection: URL) throws -> [CalDAVResource] {
        let response = try propfind(collection, depth: 1, properties: DAVBodies.etagProperties)
        guard let multistatus = response.multistatus else {
            throw CalDAVError(.protocolError, url: collection.redacted, status: response.status, "cannot list resources (HTTP \(response.status))")
        }
        var out: [CalDAVResource] = []
        for r in multistatus.responses {
            guard let href = r.href, let url = URL(string: href, relativeTo: response.url)?.absoluteURL else { continue }
            if url.path == collection.path || r.resourceTypes?.contains(DAVNames.collection) == true || href.hasSuffix("/") { continue }
            out.append(CalDAVResource(url: url, etag: r.properties[DAVNames.getetag]?.trimmedText, calendarData: nil))
        }
        return out
    }

    /// The raw multistatus of a calendar-multiget for `urls` (RFC 4791 §7.9), for a reader
    /// of the `caldav` format to stream.
    public func multigetBody(collection: URL, _ urls: [URL]) throws -> [UInt8] {
        let response = try report(collection, DAVBodies.multiget(urls.map { $0.withoutUserInfo.requestTarget }))
        guard response.status == 207 else {
            throw CalDAVError(.protocolError, url: collection.redacted, status: response.status, "calendar-multiget failed (HTTP \(response.status))")
        }
        return [UInt8](response.body)
    }

    /// The resources at `urls` with their data (one calendar-multiget).
    public func multiget(collection: URL, _ urls: [URL]) throws -> [CalDAVResource] {
        let body = try multigetBody(collection: collection, urls)
        return try Self.resources(DAVMultistatus(bytes: body, name: collection.redacted), base: collection)
    }

    /// A calendar-query (RFC 4791 §7.8): every resource, those holding `uid` (a text-match
    /// on UID), or those with a VEVENT or VTODO overlapping `timeRange` (UTC, `yyyyMMdd'T'HHmmss'Z'`).
    public func calendarQuery(collection: URL, uid: String? = nil, timeRange: (start: String, end: String)? = nil) throws -> [CalDAVResource] {
        var found: [CalDAVResource] = []
        for component in uid == nil && timeRange != nil ? ["VEVENT", "VTODO"] : ["VEVENT", "VTODO", "VJOURNAL"] {
            let response = try report(collection, DAVBodies.calendarQuery(component: component, uid: uid, timeRange: timeRange))
            guard response.status == 207 else {
                throw CalDAVError(.protocolError, url: collection.redacted, status: response.status, "calendar-query failed (HTTP \(response.status))")
            }
            found += try Self.resources(DAVMultistatus(bytes: [UInt8](response.body), name: collection.redacted), base: collection)
            if uid != nil && !found.isEmpty { break }
        }
        return found
    }

    /// What changed since `token` (nil: everything) by sync-collection (RFC 6578); nil when
    /// the server does not support it or no longer knows the token, so the caller compares
    /// entity tags instead.
    public func changes(in collection: URL, since token: String?) throws -> CalDAVChanges? {
        let response = try report(collection, DAVBodies.syncCollection(token: token))
        guard response.status == 207 else {
            // 403/409 with DAV:valid-sync-token (RFC 6578 §3.2), 400/405/501 from servers without it.
            if [400, 403, 404, 405, 409, 415, 422, 501].contains(response.status) { return nil }
            throw CalDAVError(.protocolError, url: collection.redacted, status: response.status, "sync-collection failed (HTTP \(response.status))")
        }
        let multistatus = try DAVMultistatus(bytes: [UInt8](response.body), name: collection.redacted)
        return Self.changes(multistatus, base: response.url, collection: collection)
    }

    /// The changes a sync-collection answer lists; nil without a new sync token.
    private static func changes(_ multistatus: DAVMultistatus, base: URL, collection: URL) -> CalDAVChanges? {
        guard let next = multistatus.syncToken else { return nil }
        var changes = CalDAVChanges(syncToken: next)
        for r in multistatus.responses {
            guard let href = r.href, let url = URL(string: href, relativeTo: base)?.absoluteURL, url.path != collection.path else { continue }
            if let status = r.status, DAVResponse.code(status) == 404 {
                changes.removed.append(url)
            } else if !href.hasSuffix("/") {
                changes.changed.append(CalDAVResource(url: url, etag: r.properties[DAVNames.getetag]?.trimmedText, calendarData: nil))
            }
        }
        return changes
    }

    /// What the client reads from a multistatus body a server sent for `base`: the calendar
    /// collections a PROPFIND lists, the resources with data a REPORT returns, and the changes a
    /// sync-collection names, each as the requests above read them. Fuzzing drives the client's
    /// parsing through it (Fuzz/), with no server.
    public static func answers(
        inMultistatus body: [UInt8], base: URL
    ) throws -> (collections: [CalDAVCollection], resources: [CalDAVResource], changes: CalDAVChanges?) {
        let multistatus = try multistatus(Data(body), url: base)
        let collections = multistatus.responses.filter(\.isCalendarCollection).map { collection($0, base: base) }
        return (collections, resources(multistatus, base: base), changes(multistatus, base: base, collection: base))
    }

    /// The resource's data and entity tag, or nil when it is gone (404).
    public func get(_ url: URL) throws -> CalDAVResource? {
        let response = try transport.send("GET", url, headers: ["Accept": "text/calendar"])
        if response.status == 404 || response.status == 410 { return nil }
        guard (200..<300).contains(response.status) else {
            throw CalDAVError(.protocolError, url: url.redacted, status: response.status, "GET failed (HTTP \(response.status))")
        }
        return CalDAVResource(url: url, etag: response.header("etag"), calendarData: String(decoding: response.body, as: UTF8.self))
    }

    // MARK: - Writing

    /// Creates a calendar collection (MKCALENDAR, RFC 4791 §5.3.1; extended MKCOL, RFC 5689,
    /// when the server does not know MKCALENDAR). `timeZone` is a whole VCALENDAR.
    public func makeCalendar(at url: URL, displayName: String?, color: String?, description: String?, timeZone: String?) throws {
        let properties = DAVBodies.calendarProperties(displayName: displayName, color: color, description: description, timeZone: timeZone)
        var response = try transport.send("MKCALENDAR", url, headers: DAVBodies.xmlHeaders, body: Data(DAVBodies.mkcalendar(properties).utf8))
        if [400, 405, 415, 501].contains(response.status) {
            response = try transport.send("MKCOL", url, headers: DAVBodies.xmlHeaders, body: Data(DAVBodies.extendedMkcol(properties).utf8))
        }
        guard (200..<300).contains(response.status) else {
            throw CalDAVError(
                .protocolError, url: url.redacted, status: response.status,
                "cannot create the calendar (HTTP \(response.status))\(Self.excerpt(response.body))")
        }
    }

    /// A conditional PUT of iCalendar text (RFC 4791 §5.3.2): `ifMatch` nil creates only when
    /// nothing is there (`If-None-Match: *`); an entity tag replaces only that version.
    public func put(_ url: URL, calendarData: [UInt8], ifMatch: String?) throws -> CalDAVPutOutcome {
        var headers = ["Content-Type": "text/calendar; charset=utf-8"]
        if let ifMatch { headers["If-Match"] = ifMatch } else { headers["If-None-Match"] = "*" }
        let response = try transport.send("PUT", url, headers: headers, body: Data(calendarData))
        switch response.status {
        case 200..<300:
            return .stored(etag: response.header("etag"), created: response.status == 201 || ifMatch == nil)
        case 412:
            let text = String(decoding: response.body, as: UTF8.self)
            return .preconditionFailed(uidConflict: text.contains("no-uid-conflict"))
        case 409:
            return .conflict(message: Self.excerpt(response.body))
        default:
            throw CalDAVError(.protocolError, url: url.redacted, status: response.status, "PUT refused (HTTP \(response.status))\(Self.excerpt(response.body))")
        }
    }

    /// Deletes a resource (only the version `ifMatch` names, when given); false when it was already gone.
    @discardableResult
    public func delete(_ url: URL, ifMatch: String? = nil) throws -> Bool {
        let response = try transport.send("DELETE", url, headers: ifMatch.map { ["If-Match": $0] } ?? [:])
        if response.status == 404 { return false }
        guard (200..<300).contains(response.status) else {
            throw CalDAVError(.protocolError, url: url.redacted, status: response.status, "DELETE failed (HTTP \(response.status))")
        }
        return true
    }

    // MARK: - Plumbing

    private struct Answer {
        var status: Int
        var url: URL
        var body: Data
        var multistatus: DAVMultistatus?
    }

    private func propfind(_ url: URL, depth: Int, properties: String) throws -> Answer {
        var headers = DAVBodies.xmlHeaders
        headers["Depth"] = "\(depth)"
        let response = try transport.send("PROPFIND", url, headers: headers, body: Data(DAVBodies.propfind(properties).utf8))
        var answer = Answer(status: response.status, url: response.url, body: response.body)
        if response.status == 207 { answer.multistatus = try Self.multistatus(response.body, url: response.url) }
        return answer
    }

    private func report(_ url: URL, _ body: String) throws -> HTTPResponse {
        var headers = DAVBodies.xmlHeaders
        headers["Depth"] = "1"
        return try transport.send("REPORT", url, headers: headers, body: Data(body.utf8))
    }

    private static func multistatus(_ body: Data, url: URL) throws -> DAVMultistatus {
        do {
            return try DAVMultistatus(bytes: [UInt8](body), name: url.redacted)
        } catch let error as XMLError {
            throw CalDAVError(.protocolError, url: url.redacted, status: 207, "unreadable multistatus: \(error)")
        }
    }

    /// The resources with data in a multistatus body (a multiget's answer).
    public static func resources(inMultistatus body: [UInt8], base: URL) throws -> [CalDAVResource] {
        resources(try multistatus(Data(body), url: base), base: base)
    }

    private static func resources(_ multistatus: DAVMultistatus, base: URL) -> [CalDAVResource] {
        multistatus.responses.compactMap { r in
            guard let href = r.href, let url = URL(string: href, relativeTo: base)?.absoluteURL,
                let data = r.properties[DAVNames.calendarData]?.text
            else { return nil }
            return CalDAVResource(url: url, etag: r.properties[DAVNames.getetag]?.trimmedText, calendarData: data)
        }
    }

    private static func hrefURL(_ element: XMLElement, base: URL) -> URL? { hrefURLs(element, base: base).first }

    private static func hrefURLs(_ element: XMLElement, base: URL) -> [URL] {
        element.children.filter { $0.name == DAVNames.href }.compactMap { URL(string: $0.trimmedText, relativeTo: base)?.absoluteURL }
    }

    static func collection(_ r: DAVResponse, base: URL) -> CalDAVCollection {
        let p = r.properties
        var href = r.href ?? base.path
        if !href.hasSuffix("/") { href += "/" }
        var c = CalDAVCollection(url: URL(string: href, relativeTo: base)?.absoluteURL ?? base)
        c.displayName = p[DAVNames.displayname]?.trimmedText.nonEmpty
        c.color = p[DAVNames.calendarColor]?.trimmedText.nonEmpty
        c.description = p[DAVNames.calendarDescription]?.text.nonEmpty
        c.timeZone = p[DAVNames.calendarTimezone]?.text.nonEmpty
        c.components = p[DAVNames.supportedComponents]?.children.filter { $0.name == DAVNames.comp }.compactMap { $0.attribute("name") } ?? []
        c.isSubscription = r.resourceTypes?.contains(DAVNames.subscribed) ?? false
        if let privileges = p[DAVNames.currentUserPrivilegeSet] {
            let granted = Set(privileges.children.filter { $0.name == DAVNames.privilege }.flatMap { $0.children.map(\.name) })
            c.isReadOnly = granted.isDisjoint(with: DAVNames.writePrivileges)
        }
        if let readOnly = p[DAVNames.readOnly]?.trimmedText.lowercased(), readOnly == "1" || readOnly == "true" { c.isReadOnly = true }
        if c.isSubscription { c.isReadOnly = true }
        c.syncToken = p[DAVNames.syncToken]?.trimmedText.nonEmpty
        c.ctag = p[DAVNames.getctag]?.trimmedText.nonEmpty
        c.order = p[DAVNames.calendarOrder]?.trimmedText.nonEmpty
        return c
    }

    /// The start of an error body, for messages.
    private static func excerpt(_ body: Data) -> String {
        let text = String(decoding: body.prefix(300), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "" : ": " + text.replacingOccurrences(of: "\n", with: " ")
    }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
