import Foundation

/// How requests authenticate: a user name and password (Basic, or Digest when the server asks
/// for it) or a bearer token. Never printed: `description` hides the secret.
public enum CalDAVCredentials: Sendable, Equatable, CustomStringConvertible {
    /// User name and password.
    case password(user: String, password: String)
    /// An OAuth or app token sent as `Authorization: Bearer`.
    case bearer(String)

    public var description: String {
        switch self {
        case .password(let user, _): return "user \(user) with a password"
        case .bearer: return "a bearer token"
        }
    }

    /// The secret itself, for checks that it is never shown.
    public var secret: String {
        switch self {
        case .password(_, let password): return password
        case .bearer(let token): return token
        }
    }

    /// Where credentials were found, in order of precedence: `CALPORT_TOKEN`;
    /// `CALPORT_USERNAME` with `CALPORT_PASSWORD`; userinfo in the URL (with `warn` called,
    /// since a command line is visible to other users in the process list); the `machine`
    /// entry of `netrcPath` (default `~/.netrc`) for the URL's host, or its `default` entry.
    /// Nil when there are none (the server may not need any).
    public static func resolve(
        url: URL, environment: [String: String], netrcPath: String? = nil, warn: (String) -> Void
    ) -> CalDAVCredentials? {
        if let token = environment["CALPORT_TOKEN"], !token.isEmpty { return .bearer(token) }
        if let user = environment["CALPORT_USERNAME"], !user.isEmpty {
            return .password(user: user, password: environment["CALPORT_PASSWORD"] ?? "")
        }
        if let user = url.user(percentEncoded: false), !user.isEmpty {
            warn(
                "credentials in the URL are visible to other users in the process list; "
                    + "prefer CALPORT_USERNAME/CALPORT_PASSWORD or ~/.netrc")
            return .password(user: user, password: url.password(percentEncoded: false) ?? "")
        }
        let path = netrcPath ?? (environment["HOME"].map { $0 + "/.netrc" } ?? NSHomeDirectory() + "/.netrc")
        if let host = url.host, let text = try? String(contentsOfFile: path, encoding: .utf8) {
            return NetrcFile(text: text).credentials(host: host)
        }
        return nil
    }
}

/// A `.netrc` file (the format curl and ftp read): `machine HOST login USER password SECRET`,
/// and a `default` entry; tokens separated by any white space, `macdef` blocks skipped.
struct NetrcFile {
    struct Entry {
        var machine: String?
        var login: String?
        var password: String?
    }

    var entries: [Entry] = []

    init(text: String) {
        var tokens = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).map(String.init)[...]
        var current: Entry?
        while let token = tokens.popFirst() {
            switch token {
            case "machine":
                if let current { entries.append(current) }
                current = Entry(machine: tokens.popFirst())
            case "default":
                if let current { entries.append(current) }
                current = Entry(machine: nil)
            case "login": current?.login = tokens.popFirst()
            case "password": current?.password = tokens.popFirst()
            case "account": _ = tokens.popFirst()
            case "macdef":
                // A macro runs to the next blank line; its words are not netrc tokens.
                _ = tokens.popFirst()
                if let current { entries.append(current) }
                current = nil
            default: break
            }
        }
        if let current { entries.append(current) }
    }

    /// The entry for `host`, else the default entry.
    func credentials(host: String) -> CalDAVCredentials? {
        let entry = entries.first { $0.machine?.lowercased() == host.lowercased() } ?? entries.first { $0.machine == nil }
        guard let entry, let login = entry.login else { return nil }
        return .password(user: login, password: entry.password ?? "")
    }
}
