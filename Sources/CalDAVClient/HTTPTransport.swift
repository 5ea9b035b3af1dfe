import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP answer: status, headers (names lower-cased) and the whole body.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields by lower-cased name.
    public var headers: [String: String]
    /// The body.
    public var body: Data
    /// The URL that answered (after redirects).
    public var url: URL

    /// A header's value by name (any case).
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// How hard to try: retries of 429, 5xx, timeouts and dropped connections with exponential
/// backoff (honoring `Retry-After`), and the time one attempt may take.
public struct RetryPolicy: Sendable {
    /// Retries after the first attempt (`--retries N`).
    public var retries: Int
    /// The first backoff delay in seconds; each retry doubles it.
    public var baseDelay: Double
    /// No wait is longer than this, whatever `Retry-After` asks.
    public var maximumDelay: Double
    /// Seconds one attempt may take.
    public var timeout: Double

    /// A policy of `retries` retries, 0.5 s doubling to at most 30 s, 60 s per attempt.
    public init(retries: Int = 5, baseDelay: Double = 0.5, maximumDelay: Double = 30, timeout: Double = 60) {
        self.retries = max(0, retries)
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.timeout = timeout
    }

    /// The wait before retry number `attempt` (0-based): `Retry-After` when the server gave
    /// one (seconds or an HTTP date), else the doubling delay with ±25% jitter, so that
    /// concurrent requests do not retry in step.
    func delay(attempt: Int, retryAfter: String?) -> Double {
        if let retryAfter = retryAfter?.trimmingCharacters(in: .whitespaces) {
            if let seconds = Double(retryAfter) { return min(max(0, seconds), maximumDelay) }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
            if let date = formatter.date(from: retryAfter) { return min(max(0, date.timeIntervalSinceNow), maximumDelay) }
        }
        let exponential = baseDelay * pow(2, Double(min(attempt, 20)))
        return min(exponential * Double.random(in: 0.75...1.25), maximumDelay)
    }
}

/// What the transport has sent, for reports and benchmarks (requests per item).
public struct RequestCounts: Sendable, Equatable {
    /// Requests by method, retries included.
    public var byMethod: [String: Int] = [:]
    /// Attempts that were retried (429, 5xx, timeouts, dropped connections).
    public var retries = 0

    /// All requests.
    public var total: Int { byMethod.values.reduce(0, +) }
}

/// HTTP through Foundation's URLSession (libcurl underneath on Linux): no HTTP is written by
/// hand here. Synchronous per call and safe to call from several threads at once, which is how
/// `-j N` runs N requests together. Redirects are followed here, not by URLSession, so that
/// PROPFIND and REPORT keep their method and body, and credentials go only to the host they
/// were meant for.
final class HTTPTransport: @unchecked Sendable {
    private let session: URLSession
    private let delegate = RedirectRefusal()
    let credentials: CalDAVCredentials?
    let policy: RetryPolicy
    private let lock = NSLock()
    private var digest: DigestChallenge?
    private var counts = RequestCounts()

    init(credentials: CalDAVCredentials?, policy: RetryPolicy, connections: Int) {
        self.credentials = credentials
        self.policy = policy
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = max(1, connections)
        configuration.timeoutIntervalForRequest = policy.timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Requests sent so far.
    var requestCounts: RequestCounts {
        lock.lock()
        defer { lock.unlock() }
        return counts
    }

    /// Sends a request, retrying as the policy says and following up to five redirects.
    /// Throws `CalDAVError` for 401/403, for a server that keeps failing, and for one that
    /// cannot be reached; any other status is returned for the caller to judge.
    func send(_ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil) throws -> HTTPResponse {
        var target = url
        var sendsCredentials = true
        for _ in 0..<6 {
            let response = try sendFollowingNothing(method, target, headers: headers, body: body, withCredentials: sendsCredentials)
            guard [301, 302, 303, 307, 308].contains(response.status), let location = response.header("location"),
                let next = URL(string: location, relativeTo: target)?.absoluteURL
            else { return response }
            sendsCredentials = sendsCredentials && next.host == url.host && next.port == url.port && next.scheme == url.scheme
            target = next
        }
        throw CalDAVError(.protocolError, url: url.redacted, "more than five redirects")
    }

    private func sendFollowingNothing(
        _ method: String, _ url: URL, headers: [String: String], body: Data?, withCredentials: Bool
    ) throws -> HTTPResponse {
        var attempt = 0
        var triedDigest = false
        while true {
            var request = URLRequest(url: url.withoutUserInfo, timeoutInterval: policy.timeout)
            request.httpMethod = method
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            if withCredentials, let authorization = authorization(method: method, url: url) {
                request.setValue(authorization, forHTTPHeaderField: "Authorization")
            }
            request.httpBody = body
            count(method)
            switch perform(request) {
            case .success(let response):
                if response.status == 401, withCredentials, !triedDigest, case .password? = credentials,
                    let challenge = response.header("www-authenticate").flatMap(DigestChallenge.init(header:))
                {
                    // The server wants Digest: learn its challenge and answer it (not a retry).
                    triedDigest = true
                    lock.lock()
                    digest = challenge
                    lock.unlock()
                    continue
                }
                if response.status == 403, Self.isPrecondition(response.body) {
                    // A DAV:error body names a failed precondition (RFC 4918 §16), such as
                    // sync-collection's valid-sync-token: the caller's business, not a refusal.
                    return response
                }
                if response.status == 401 || response.status == 403 {
                    let what = credentials == nil ? "no credentials were given" : "the credentials were refused"
                    throw CalDAVError(.authentication, url: url.redacted, status: response.status, "HTTP \(response.status): \(what)")
                }
                guard Self.isRetryable(response.status) else { return response }
                guard attempt < policy.retries else {
                    throw CalDAVError(
                        .exhaustedRetries, url: url.redacted, status: response.status,
                        "\(method) failed with HTTP \(response.status) after \(attempt + 1) attempts")
                }
                wait(policy.delay(attempt: attempt, retryAfter: response.header("retry-after")))
            case .failure(let error):
                guard attempt < policy.retries else {
                    let refused = [URLError.cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet]
                        .contains(error.code)
                    throw CalDAVError(
                        refused ? .unreachable : .exhaustedRetries, url: url.redacted,
                        "\(method) failed after \(attempt + 1) attempts: \(Self.describe(error))")
                }
                wait(policy.delay(attempt: attempt, retryAfter: nil))
            }
            attempt += 1
            lock.lock()
            counts.retries += 1
            lock.unlock()
        }
    }

    /// Whether a body is a DAV:error naming a precondition or postcondition.
    static func isPrecondition(_ body: Data) -> Bool {
        let text = String(decoding: body.prefix(4096), as: UTF8.self)
        return text.contains("DAV:") && (text.contains("<error") || text.contains(":error"))
    }

    /// 429 Too Many Requests and every 5xx but 501 Not Implemented (which will not change).
    static func isRetryable(_ status: Int) -> Bool {
        status == 429 || (500..<600).contains(status) && status != 501 && status != 505
    }

    private func count(_ method: String) {
        lock.lock()
        counts.byMethod[method, default: 0] += 1
        lock.unlock()
    }

    private func wait(_ seconds: Double) {
        if seconds > 0 { Thread.sleep(forTimeInterval: seconds) }
    }

    private func authorization(method: String, url: URL) -> String? {
        switch credentials {
        case .bearer(let token)?:
            return "Bearer \(token)"
        case .password(let user, let password)?:
            lock.lock()
            let challenge = digest
            lock.unlock()
            if let challenge {
                return challenge.authorization(method: method, uri: url.requestTarget, user: user, password: password)
            }
            return "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        case nil:
            return nil
        }
    }

    private func perform(_ request: URLRequest) -> Result<HTTPResponse, URLError> {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<HTTPResponse, URLError> = .failure(URLError(.unknown))
        let url = request.url!
        let delegate = self.delegate
        nonisolated(unsafe) var taskID = 0
        let started = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request) { data, response, error in
            started.wait()
            if response == nil, let refusal = delegate.takeRefusal(taskID) {
                var headers: [String: String] = [:]
                for (name, value) in refusal.allHeaderFields {
                    if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
                }
                result = .success(HTTPResponse(status: refusal.statusCode, headers: headers, body: Data(), url: url))
            } else if let http = response as? HTTPURLResponse, error == nil {
                var headers: [String: String] = [:]
                for (name, value) in http.allHeaderFields {
                    if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
                }
                result = .success(HTTPResponse(status: http.statusCode, headers: headers, body: data ?? Data(), url: url))
            } else {
                result = .failure((error as? URLError) ?? URLError(.badServerResponse))
            }
            done.signal()
        }
        taskID = task.taskIdentifier
        started.signal()
        task.resume()
        done.wait()
        return result
    }

    private static func describe(_ error: URLError) -> String {
        switch error.code {
        case .cannotConnectToHost: return "nothing is listening (connection refused)"
        case .timedOut: return "timed out"
        case .networkConnectionLost: return "the connection was dropped"
        case .cannotFindHost, .dnsLookupFailed: return "unknown host"
        default: return error.localizedDescription
        }
    }
}

/// Hands every redirect back to the transport instead of following it.
private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    private let lock = NSLock()
    private var refused: [Int: HTTPURLResponse] = [:]

    /// A 401 challenge is cancelled and its response kept for the transport, which answers
    /// Basic, Digest or bearer itself: FoundationNetworking otherwise waits for an answer to
    /// the challenge forever (swift-corelibs-foundation #5456).
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        if let response = challenge.failureResponse as? HTTPURLResponse {
            lock.lock()
            refused[task.taskIdentifier] = response
            lock.unlock()
        }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    /// The 401 response of a task whose challenge was cancelled.
    func takeRefusal(_ task: Int) -> HTTPURLResponse? {
        lock.lock()
        defer { lock.unlock() }
        return refused.removeValue(forKey: task)
    }
}

extension URL {
    /// The URL without user name and password.
    public var withoutUserInfo: URL {
        guard user != nil || password != nil, var parts = URLComponents(url: self, resolvingAgainstBaseURL: true) else { return self }
        parts.user = nil
        parts.password = nil
        return parts.url ?? self
    }

    /// The URL as it may be shown: without userinfo.
    public var redacted: String { withoutUserInfo.absoluteString }

    /// Path and query, as the request line carries them (Digest's `uri`).
    var requestTarget: String {
        let path = URLComponents(url: self, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? path
        return (path.isEmpty ? "/" : path) + (query.map { "?" + $0 } ?? "")
    }
}
