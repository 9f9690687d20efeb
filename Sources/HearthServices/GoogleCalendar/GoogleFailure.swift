import FoundationEssentials
import Net

/// Why a request to Google failed, in the terms the connection and the jobs act on.
struct GoogleFailure: Error, Sendable, CustomStringConvertible {
    /// What happened.
    enum Kind: Sendable, Equatable {
        /// The token endpoint answered `invalid_grant`: the refresh token (or code) is revoked,
        /// expired or spent. The user must connect again.
        case invalidGrant
        /// 401: the access token is no longer accepted.
        case unauthorized
        /// 410: the sync token expired; list everything again.
        case gone
        /// 409: the event id is taken (an insert of an event that exists).
        case conflict
        /// 404: no such calendar or event.
        case notFound
        /// 429, 5xx, or 403 with `rateLimitExceeded`/`userRateLimitExceeded`: try later.
        case rateLimited(retryAfter: Duration?)
        /// Another answer.
        case status(Int)
        /// Google could not be reached, or answered something unreadable.
        case network
    }

    let kind: Kind
    /// What to record and log: never a token.
    let message: String

    var description: String { message }

    /// The failure an answer of `status` means (`body` is Google's JSON error), at `now`.
    static func answer(_ response: HTTPResponse, from what: String, at now: Date) -> GoogleFailure {
        let body = String(decoding: response.body.prefix(300), as: UTF8.self).filter { !$0.isNewline }
        let message = "\(what) answered \(response.status): \(body)"
        switch response.status {
        case 401: return GoogleFailure(kind: .unauthorized, message: message)
        case 404: return GoogleFailure(kind: .notFound, message: message)
        case 409: return GoogleFailure(kind: .conflict, message: message)
        case 410: return GoogleFailure(kind: .gone, message: message)
        case 403 where body.contains("rateLimitExceeded") || body.contains("userRateLimitExceeded"),
            429, 500...599:
            return GoogleFailure(kind: .rateLimited(retryAfter: response.retryAfter(at: now)), message: message)
        case 400 where body.contains("invalid_grant"): return GoogleFailure(kind: .invalidGrant, message: message)
        default: return GoogleFailure(kind: .status(response.status), message: message)
        }
    }
}
