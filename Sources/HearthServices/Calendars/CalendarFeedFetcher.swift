import HearthDomain
import Net

/// Fetches a calendar feed the way every user-supplied URL is fetched: `https://` only, each
/// connection to an address ``OutboundAddressPolicy`` permits after resolving the host (the
/// connection goes to the address checked), redirects followed by hand so every hop is checked the
/// same way, at most ``CalendarFeedConfiguration/maximumRedirects`` of them, the body bounded
/// (``maximumBytes``) and every fetch bounded in time. Conditional: the validators of the last
/// answer go out as `If-None-Match` and `If-Modified-Since`, and a 304 is ``Answer/notModified``.
/// Permanent redirects (301, 308) from the feed's URL say where the feed now lives
/// (``Fetched/movedTo``, RFC 9110 §15.4); temporary ones (302, 303, 307) do not.
///
/// Blocking: call it on a thread of its own (a job's, or a detached one), never an event loop.
struct CalendarFeedFetcher: Sendable {
    /// The feed settings.
    let configuration: CalendarFeedConfiguration
    /// The largest body accepted, in bytes; one more fails with ``Failure/Kind/tooLarge``.
    let maximumBytes: Int

    /// What identifies the version of a feed a server sent (RFC 9110 §8.8).
    struct Validators: Sendable, Hashable {
        /// The `ETag` of the last 200 answer.
        var etag: String?
        /// Its `Last-Modified`.
        var lastModified: String?
    }

    /// What a fetch brought.
    enum Answer: Sendable {
        /// 304: the feed is as it was.
        case notModified
        /// 200: the feed's text and its validators.
        case content([UInt8], Validators)
    }

    /// What a fetch brought, and where the feed moved.
    struct Fetched: Sendable {
        /// The answer.
        var answer: Answer
        /// The URL the feed's URL redirected to permanently (301 or 308), followed through an
        /// unbroken run of permanent redirects from it; `nil` when the first redirect, or none, was
        /// temporary. Every hop was connected to as the address policy permits.
        var movedTo: HTTPURL?
    }

    /// Why a fetch brought nothing.
    struct Failure: Error, Sendable, CustomStringConvertible {
        /// The kind of failure.
        enum Kind: Sendable, Equatable {
            /// A URL (the feed's or a redirect's) the address policy refuses, or not https.
            case refused
            /// The body is larger than ``CalendarFeedFetcher/maximumBytes``.
            case tooLarge
            /// More redirects than allowed.
            case tooManyRedirects
            /// The server answered with this status (not 200, 304 or a redirect).
            case status(Int)
            /// The network failed: no answer in time, a connection refused, TLS, a malformed answer.
            case network
            /// The body is no calendar file the parser accepts.
            case unreadable
        }

        let kind: Kind
        /// What happened, for the user (never the URL's secret path).
        let message: String
        /// For ``Kind/unreadable``, the parser's refusal.
        var calendarError: RecurrenceError? = nil

        var description: String { message }
    }

    /// Fetches `url`, sending `validators` as conditions.
    /// - Throws: ``Failure``.
    func fetch(_ url: HTTPURL, validators: Validators) throws(Failure) -> Fetched {
        var headers = [("Accept", "text/calendar, */*;q=0.5"), ("User-Agent", "Hearth calendar feed")]
        if let etag = validators.etag { headers.append(("If-None-Match", etag)) }
        if let lastModified = validators.lastModified { headers.append(("If-Modified-Since", lastModified)) }
        var client = HTTPClient(configuration: .init(
            limits: .init(maxBodyBytes: maximumBytes), tls: configuration.tls, addressPolicy: configuration.addressPolicy,
            connectTimeout: configuration.connectTimeout))
        let deadline = Deadline.after(configuration.requestTimeout)
        var current = url
        var redirects = 0
        var movedTo: HTTPURL?
        var isMovePermanent = true
        while true {
            // Every hop within what is left of the one timeout.
            client.configuration.timeout = Deadline.now.duration(to: deadline)
            guard client.configuration.timeout > .zero else { throw Failure(kind: .network, message: "\(current.host) did not answer in time.") }
            let response: HTTPResponse
            do {
                response = try client.get(current, headers: headers)
            } catch {
                throw Self.failure(error, host: current.host, maximumBytes: maximumBytes)
            }
            switch response.status {
            case 200:
                let validators = Validators(etag: response.header("ETag"), lastModified: response.header("Last-Modified"))
                return Fetched(answer: .content(response.body, validators), movedTo: movedTo)
            case 304:
                return Fetched(answer: .notModified, movedTo: movedTo)
            case 301, 302, 303, 307, 308:
                redirects += 1
                guard redirects <= configuration.maximumRedirects else {
                    throw Failure(kind: .tooManyRedirects, message: "The feed redirects more than \(configuration.maximumRedirects) times.")
                }
                guard let location = response.header("Location"), let next = Self.resolve(location, against: current) else {
                    throw Failure(kind: .network, message: "The feed answered \(response.status) without a usable Location.")
                }
                isMovePermanent = isMovePermanent && (response.status == 301 || response.status == 308)
                if isMovePermanent { movedTo = next }
                current = next
            default:
                throw Failure(kind: .status(response.status), message: "The feed answered HTTP \(response.status).")
            }
        }
    }

    /// The URL a `Location` names, relative to `base`; webcal:// is read as https://.
    static func resolve(_ location: String, against base: HTTPURL) -> HTTPURL? {
        let scheme = location.prefix { $0 != ":" && $0 != "/" }.lowercased()
        if ["http", "https", "webcal", "webcals"].contains(scheme), location.dropFirst(scheme.count).hasPrefix("://") {
            return try? HTTPURL(scheme.hasPrefix("webcal") ? "https" + location.dropFirst(scheme.count) : location)
        }
        let origin = (base.isSecure ? "https://" : "http://") + base.hostHeader
        if location.hasPrefix("//") { return try? HTTPURL((base.isSecure ? "https:" : "http:") + location) }
        if location.hasPrefix("/") { return try? HTTPURL(origin + location) }
        let path = base.target.prefix { $0 != "?" }
        let directory = path[...(path.lastIndex(of: "/") ?? path.startIndex)]
        return try? HTTPURL(origin + directory + location)
    }

    /// The failure a network error stands for, naming the host only.
    private static func failure(_ error: NetworkError, host: String, maximumBytes: Int) -> Failure {
        switch error.code {
        case .addressRefused:
            return Failure(kind: .refused, message: "The feed (or a redirect) leads to \(host), which is not a public https:// address: \(error.detail).")
        case .invalidURL:
            return Failure(kind: .refused, message: "The feed (or a redirect) leads to an invalid URL: \(error.detail).")
        case .responseTooLarge:
            return Failure(kind: .tooLarge, message: "The feed is larger than \(maximumBytes) bytes.")
        case .timedOut:
            return Failure(kind: .network, message: "\(host) did not answer in time.")
        default:
            return Failure(kind: .network, message: "\(host) could not be fetched: \(error.code).")
        }
    }
}
