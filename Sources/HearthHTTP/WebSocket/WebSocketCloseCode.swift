// Pure Swift (no Glibc, no Foundation): compiled directly into the WebSocket frame fuzz target.

/// A close status code (RFC 6455 §7.4) with the names of the registered ones.
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric code sent in the close frame.
    public let rawValue: UInt16

    /// A code from its number; see `isValidOnTheWire` for which ones a peer may send.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// A code from its number.
    public init(_ rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// 1000: the purpose of the connection is fulfilled.
    public static let normalClosure = WebSocketCloseCode(1000)
    /// 1001: the endpoint is going away (server shutdown, page navigation).
    public static let goingAway = WebSocketCloseCode(1001)
    /// 1002: the peer broke the protocol.
    public static let protocolError = WebSocketCloseCode(1002)
    /// 1003: a message of a type this endpoint does not accept.
    public static let unsupportedData = WebSocketCloseCode(1003)
    /// 1005: no status code was present (never sent on the wire).
    public static let noStatusReceived = WebSocketCloseCode(1005)
    /// 1006: closed without a close frame (never sent on the wire).
    public static let abnormalClosure = WebSocketCloseCode(1006)
    /// 1007: a text message or close reason was not valid UTF-8.
    public static let invalidPayload = WebSocketCloseCode(1007)
    /// 1008: a message violated the endpoint's policy (also used for slow consumers).
    public static let policyViolation = WebSocketCloseCode(1008)
    /// 1009: a frame or message exceeded the configured size limit.
    public static let messageTooBig = WebSocketCloseCode(1009)
    /// 1010: the client expected an extension the server did not negotiate.
    public static let mandatoryExtension = WebSocketCloseCode(1010)
    /// 1011: the server met an unexpected condition (also: keep-alive pong never came).
    public static let internalError = WebSocketCloseCode(1011)
    /// 1012: the service is restarting.
    public static let serviceRestart = WebSocketCloseCode(1012)
    /// 1013: try again later.
    public static let tryAgainLater = WebSocketCloseCode(1013)

    /// Whether a peer may send this code in a close frame: 1000–1003, 1007–1014 and the 3000–4999 ranges for
    /// libraries and applications. 1004 (reserved), 1005, 1006 and 1015 (local-only) and everything else are
    /// a protocol error.
    public var isValidOnTheWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    /// The code's number.
    public var description: String { String(rawValue) }
}
