import FoundationEssentials
import Support

/// Makes and checks the signed one-tap action links of the widget feed (FR-66).
///
/// A link's token is `v1.<action>.<user id>.<instance id>.<expiry>.<tag>`: the expiry in whole
/// Unix seconds, the tag base64url of HMAC-SHA-256, under the widget key (`widget.key` in the key
/// directory, never in the database), of everything before it. Every part is in the URL's path as
/// it is (ids are letters, digits, `_` and `-`), so nothing is stored per link.
///
/// - **Bound** to the user, the instance and the action: changing any of them (or the expiry)
///   breaks the tag, and the route checks the user against the request's credential.
/// - **Deterministic**: no nonce, so the same entry of the feed gets the same link until its day
///   ends, and the feed's `ETag` changes only when its content does.
/// - **Expiring** at the end of the day the feed shows the instance for.
///
/// Checking recomputes the tag and compares it in constant time before reading anything else.
public struct WidgetActionLinks: Sendable {
    /// What a link does.
    public enum Action: String, Sendable, Hashable, CaseIterable {
        /// Completes the instance, as `completeChore` does.
        case complete
    }

    /// What a link says.
    public struct Link: Sendable, Hashable {
        /// The action.
        public var action: Action
        /// The account the link was made for.
        public var userID: String
        /// The chore instance it acts on.
        public var instanceID: String
        /// When it stops working (whole seconds).
        public var expiresAt: Date

        /// A link with these parts; `expiresAt` is rounded down to a whole second.
        public init(action: Action, userID: String, instanceID: String, expiresAt: Date) {
            self.action = action
            self.userID = userID
            self.instanceID = instanceID
            self.expiresAt = Date(timeIntervalSince1970: expiresAt.timeIntervalSince1970.rounded(.down))
        }
    }

    /// What checking a token found.
    public enum Verification: Sendable, Hashable {
        /// A link this server made, still valid.
        case valid(Link)
        /// A link this server made, past its expiry.
        case expired(Link)
        /// Not a link this server made: malformed, altered, or signed with another key.
        case invalid
    }

    /// The widget key's least length in bytes.
    public static let keyLength = 32
    /// The token's version, its first part.
    static let version = "v1"

    private let key: [UInt8]

    /// Links under `key` (at least ``keyLength`` random bytes, kept outside the database).
    public init(key: [UInt8]) {
        precondition(key.count >= Self.keyLength, "the widget key has at least \(Self.keyLength) bytes")
        self.key = key
    }

    /// The token of `link`: the same text for the same link, every time.
    public func token(for link: Link) -> String {
        let message = Self.message(of: link)
        return message + "." + Base64URL.encode(tag(of: message))
    }

    /// Checks `token` at `now`.
    public func verify(_ token: String, at now: Date) -> Verification {
        guard let dot = token.lastIndex(of: ".") else { return .invalid }
        let message = String(token[..<dot])
        guard let presented = Base64URL.decode(token[token.index(after: dot)...]),
              ConstantTime.equals(presented, tag(of: message))
        else { return .invalid }
        let parts = message.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5, parts[0] == Self.version, let action = Action(rawValue: parts[1]), let expiry = Int(parts[4]) else {
            return .invalid
        }
        let link = Link(action: action, userID: parts[2], instanceID: parts[3], expiresAt: Date(timeIntervalSince1970: TimeInterval(expiry)))
        return now < link.expiresAt ? .valid(link) : .expired(link)
    }

    /// The signed part of `link`'s token.
    private static func message(of link: Link) -> String {
        [version, link.action.rawValue, link.userID, link.instanceID, String(Int(link.expiresAt.timeIntervalSince1970))].joined(separator: ".")
    }

    /// The HMAC-SHA-256 of `message` under the key.
    private func tag(of message: String) -> [UInt8] {
        HMACSHA256.authenticationCode(key: key, message: Array(message.utf8))
    }
}
