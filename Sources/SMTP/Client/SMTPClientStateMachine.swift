import FoundationEssentials

/// The client side of one SMTP transaction (RFC 5321) as a state machine: it receives the
/// server's replies and answers with what to do next, without touching a socket, so every
/// path is testable by feeding replies.
///
/// The conversation: greeting → `EHLO` (falling back to `HELO` on 5xx) → `STARTTLS` when the
/// security policy asks and the server offers it → `EHLO` again over TLS → `AUTH PLAIN` or
/// `AUTH LOGIN` when credentials are configured → `MAIL FROM` → `RCPT TO` for each recipient
/// → `DATA` → the dot-stuffed message → `QUIT`. A 4xx or 5xx reply ends the transaction with
/// a transient or permanent ``SMTPError``; any recipient refused fails the whole message.
public struct SMTPClientStateMachine: Sendable {
    /// What the driver does next.
    public enum Action: Sendable, Hashable {
        /// Send these bytes, then feed the next reply.
        case send([UInt8])
        /// Perform the TLS handshake on the connection (after the server's 220 to
        /// `STARTTLS`), then call ``tlsEstablished()``.
        case startTLS
        /// The transaction is over: the server accepted the message and `QUIT` was answered.
        case finished
    }

    private enum State: Sendable {
        case greeting
        case ehlo(afterTLS: Bool)
        case helo
        case startTLS
        case awaitingTLS
        case authLoginUsername
        case authLoginPassword
        case authResult
        case mailFrom
        case recipient(Int)
        case data
        case message
        case quit
        case finished
    }

    private let configuration: SMTPClientConfiguration
    private let envelope: SMTPEnvelope
    private let message: [UInt8]
    private var state = State.greeting
    private var isSecure: Bool
    /// Whether the server accepted the message (its reply to the final dot was 2xx). A
    /// failure after this point (while quitting) does not undo the delivery.
    public private(set) var isDelivered = false
    /// Whether the driver should wait for the long data timeout (after sending the message).
    public var isAwaitingMessageAcceptance: Bool {
        if case .message = state { return true }
        return false
    }

    /// A transaction delivering `message` (a complete RFC 5322 message) to `envelope`.
    /// - Parameter isSecure: Whether the connection is already encrypted (implicit TLS).
    public init(configuration: SMTPClientConfiguration, envelope: SMTPEnvelope, message: [UInt8], isSecure: Bool) {
        self.configuration = configuration
        self.envelope = envelope
        self.message = message
        self.isSecure = isSecure
    }

    /// Consumes the server's next reply.
    /// - Throws: `SMTPError` when the reply ends the transaction unsuccessfully, or the
    ///   configuration's requirements (TLS, authentication) cannot be met.
    public mutating func receive(_ reply: SMTPReply) throws(SMTPError) -> Action {
        switch state {
        case .greeting:
            try expect(reply, 220, during: "the greeting")
            return sendEHLO(afterTLS: false)
        case .ehlo(let afterTLS):
            if reply.isPermanentFailure && !afterTLS {
                // RFC 5321 §3.2: a server that does not know EHLO gets HELO (no extensions then).
                state = .helo
                return .send(command("HELO \(configuration.clientName)"))
            }
            try expect(reply, 250, during: "EHLO")
            return try afterGreeting(SMTPExtensions(ehloReply: reply))
        case .helo:
            try expect(reply, 250, during: "HELO")
            return try afterGreeting(SMTPExtensions())
        case .startTLS:
            try expect(reply, 220, during: "STARTTLS")
            state = .awaitingTLS
            return .startTLS
        case .awaitingTLS:
            throw SMTPError(code: .protocolViolation, message: "the server sent a reply before the TLS handshake", reply: reply)
        case .authLoginUsername:
            try expect(reply, 334, during: "AUTH LOGIN")
            state = .authLoginPassword
            return .send(command(Self.base64(Array(configuration.credentials?.username.utf8 ?? "".utf8))))
        case .authLoginPassword:
            try expect(reply, 334, during: "the AUTH LOGIN user name")
            state = .authResult
            return .send(command(Self.base64(Array(configuration.credentials?.password.utf8 ?? "".utf8))))
        case .authResult:
            try expect(reply, 235, during: "authentication")
            return sendMailFrom()
        case .mailFrom:
            try expect(reply, 250, during: "MAIL FROM")
            return sendRecipient(0)
        case .recipient(let index):
            try expect(reply, 250, 251, during: "RCPT TO:<\(envelope.recipients[index])>")
            if index + 1 < envelope.recipients.count { return sendRecipient(index + 1) }
            state = .data
            return .send(command("DATA"))
        case .data:
            try expect(reply, 354, during: "DATA")
            state = .message
            return .send(Self.dotStuffed(message))
        case .message:
            try expect(reply, 250, during: "the end of the message")
            isDelivered = true
            state = .quit
            return .send(command("QUIT"))
        case .quit, .finished:
            state = .finished
            return .finished
        }
    }

    /// Tells the machine the TLS handshake succeeded; it greets the server again, as
    /// RFC 3207 §4.2 requires (everything learned before TLS is forgotten).
    public mutating func tlsEstablished() -> Action {
        precondition({ if case .awaitingTLS = state { true } else { false } }(), "no TLS handshake was asked for")
        isSecure = true
        return sendEHLO(afterTLS: true)
    }

    private mutating func sendEHLO(afterTLS: Bool) -> Action {
        state = .ehlo(afterTLS: afterTLS)
        return .send(command("EHLO \(configuration.clientName)"))
    }

    private mutating func afterGreeting(_ extensions: SMTPExtensions) throws(SMTPError) -> Action {
        let wantsStartTLS = configuration.security == .startTLSRequired || configuration.security == .startTLSOpportunistic
        if !isSecure && wantsStartTLS {
            if extensions.supportsStartTLS {
                state = .startTLS
                return .send(command("STARTTLS"))
            }
            if configuration.security == .startTLSRequired {
                throw SMTPError(code: .tlsUnavailable, message: "the server does not offer STARTTLS, which the configuration requires")
            }
        }
        guard let credentials = configuration.credentials else { return sendMailFrom() }
        guard isSecure || configuration.allowsAuthenticationWithoutTLS else {
            throw SMTPError(
                code: .authenticationUnavailable,
                message: "credentials are configured but the connection is not encrypted; refusing to send them in clear text")
        }
        if extensions.authenticationMechanisms.contains("PLAIN") {
            state = .authResult
            let token = [0] + Array(credentials.username.utf8) + [0] + Array(credentials.password.utf8)
            return .send(command("AUTH PLAIN \(Self.base64(token))"))
        }
        if extensions.authenticationMechanisms.contains("LOGIN") {
            state = .authLoginUsername
            return .send(command("AUTH LOGIN"))
        }
        throw SMTPError(code: .authenticationUnavailable, message: "the server offers neither AUTH PLAIN nor AUTH LOGIN")
    }

    private mutating func sendMailFrom() -> Action {
        state = .mailFrom
        return .send(command("MAIL FROM:<\(envelope.sender)>"))
    }

    private mutating func sendRecipient(_ index: Int) -> Action {
        state = .recipient(index)
        return .send(command("RCPT TO:<\(envelope.recipients[index])>"))
    }

    private mutating func expect(_ reply: SMTPReply, _ codes: Int..., during step: String) throws(SMTPError) {
        guard !codes.contains(reply.code) else { return }
        state = .finished
        let summary = "the server answered \(reply) to \(step)"
        if reply.isTransientFailure { throw SMTPError(code: .transientFailure, message: summary, reply: reply) }
        if reply.isPermanentFailure { throw SMTPError(code: .permanentFailure, message: summary, reply: reply) }
        throw SMTPError(code: .protocolViolation, message: "unexpected reply: \(summary)", reply: reply)
    }

    private func command(_ text: String) -> [UInt8] {
        Array(text.utf8) + [13, 10]
    }

    private static func base64(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }

    /// The message as the DATA phase sends it (RFC 5321 §4.5.2): lines end in CRLF (bare LF
    /// and CR become CRLF), a line starting with `.` gets another `.`, and `CRLF.CRLF` ends it.
    public static func dotStuffed(_ message: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(message.count + message.count / 64 + 5)
        var atLineStart = true
        var index = 0
        while index < message.count {
            let byte = message[index]
            if byte == 13 || byte == 10 {
                output += [13, 10]
                index += byte == 13 && index + 1 < message.count && message[index + 1] == 10 ? 2 : 1
                atLineStart = true
                continue
            }
            if atLineStart && byte == UInt8(ascii: ".") { output.append(byte) }
            output.append(byte)
            atLineStart = false
            index += 1
        }
        if !atLineStart { output += [13, 10] }
        output += Array(".\r\n".utf8)
        return output
    }
}
