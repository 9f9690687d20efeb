import Net

/// Why a message was not delivered, classified for the caller's retry decision
/// (``isTransient``), with the server's reply when there was one.
public struct SMTPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: String, Sendable, Hashable {
        /// The server answered 4xx: try again later (RFC 5321 §4.2.1).
        case transientFailure
        /// The server answered 5xx: do not retry this message as it is.
        case permanentFailure
        /// Connecting, TLS or the connection failed (`network` has the details).
        case connectionFailed
        /// STARTTLS is required by the configuration but the server does not offer it.
        case tlsUnavailable
        /// Credentials are configured but the connection is not encrypted and
        /// authentication without TLS is not allowed, or the server offers neither AUTH PLAIN
        /// nor AUTH LOGIN.
        case authenticationUnavailable
        /// The server's replies do not follow the protocol.
        case protocolViolation
        /// The envelope or message cannot be sent (an address with a line break, no recipients).
        case invalidMessage
    }

    /// What went wrong.
    public var code: Code
    /// A sentence for logs and the outbox.
    public var message: String
    /// The server's reply that failed the transaction, if any.
    public var reply: SMTPReply?
    /// The network failure behind `.connectionFailed`.
    public var network: NetworkError?

    /// Creates an error.
    public init(code: Code, message: String, reply: SMTPReply? = nil, network: NetworkError? = nil) {
        self.code = code
        self.message = message
        self.reply = reply
        self.network = network
    }

    /// Whether sending the same message later may succeed: 4xx replies, network failures
    /// and a server that did not offer TLS this time. 5xx replies, authentication
    /// configuration problems and invalid messages are permanent.
    public var isTransient: Bool {
        switch code {
        case .transientFailure, .connectionFailed, .tlsUnavailable, .protocolViolation: true
        case .permanentFailure, .authenticationUnavailable, .invalidMessage: false
        }
    }

    public var description: String { message }
}
