/// Takes secrets out of what a report shows: the userinfo of URLs (`https://user:pass@host`),
/// secret-looking query parameters (`?access_token=…`), and the values of options named like
/// a credential (`--password X`, `--token=X`, `--api-key X`). Reports are shared and kept;
/// credentials never appear in them (the brief's rule for output, logs and reports).
public enum SecretRedaction {
    /// What a removed secret is replaced with.
    public static let mask = "***"

    /// Words that make an option's value, or a query parameter's, a secret.
    static let secretWords: Set<String> = [
        "password", "passwd", "pass", "pwd", "passphrase", "token", "secret", "credential", "credentials", "auth",
        "authorization", "bearer", "apikey", "key", "cookie", "session", "sig", "signature",
    ]

    /// A command line as a report may show it: the program's own name without its path, each
    /// secret option's value masked, every URL without userinfo or secret parameters.
    public static func commandLine(_ arguments: [String]) -> [String] {
        var out: [String] = []
        var maskNext = false
        for (index, argument) in arguments.enumerated() {
            if index == 0 {
                out.append(argument.split(separator: "/").last.map(String.init) ?? argument)
                continue
            }
            if maskNext && !argument.hasPrefix("--") {
                out.append(mask)
                maskNext = false
                continue
            }
            maskNext = false
            if argument.hasPrefix("-"), argument != "-", isSecretName(optionName(argument)) {
                if let equals = argument.firstIndex(of: "=") {
                    out.append(String(argument[...equals]) + mask)
                } else {
                    out.append(argument)
                    maskNext = true
                }
                continue
            }
            out.append(text(argument))
        }
        return out
    }

    /// `text` with every URL in it stripped of userinfo and secret query values.
    public static func text(_ text: String) -> String {
        guard text.contains("://") else { return text }
        var result = ""
        var rest = Substring(text)
        while let scheme = rest.range(of: "://") {
            result += rest[..<scheme.upperBound]
            rest = rest[scheme.upperBound...]
            let end = rest.firstIndex(where: { $0.isWhitespace || $0 == "\"" || $0 == "'" || $0 == "<" || $0 == ">" }) ?? rest.endIndex
            result += url(afterScheme: rest[..<end])
            rest = rest[end...]
        }
        return result + rest
    }

    /// The part of a URL after `://`: the authority without userinfo, the query with secret
    /// values masked.
    private static func url(afterScheme url: Substring) -> String {
        let authorityEnd = url.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? url.endIndex
        var authority = url[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var tail = String(url[authorityEnd...])
        if let question = tail.firstIndex(of: "?") {
            let fragmentStart = tail[question...].firstIndex(of: "#") ?? tail.endIndex
            let query = tail[tail.index(after: question)..<fragmentStart]
            let masked = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
                guard let equals = pair.firstIndex(of: "="), isSecretName(String(pair[..<equals])) else { return String(pair) }
                return String(pair[...equals]) + mask
            }
            tail = String(tail[...question]) + masked.joined(separator: "&") + String(tail[fragmentStart...])
        }
        return String(authority) + tail
    }

    /// `--api-key=x` → `api-key`; `-p` → `p`.
    private static func optionName(_ argument: String) -> String {
        let name = argument.drop(while: { $0 == "-" })
        return String(name.prefix(while: { $0 != "=" }))
    }

    /// Whether a name (of an option or query parameter) has a secret word among its parts,
    /// or is one run together (`apiKey`, `access_token`, `X-Auth-Token`).
    static func isSecretName(_ name: String) -> Bool {
        let lower = name.lowercased()
        if secretWords.contains(lower.filter { $0.isLetter }) { return true }
        return lower.split(whereSeparator: { !$0.isLetter }).contains { secretWords.contains(String($0)) }
            || ["password", "passwd", "token", "secret", "apikey"].contains { lower.filter(\.isLetter).hasSuffix($0) }
    }
}
