import Net

/// Delivers messages to one SMTP server (a submission server or relay), one connection per
/// message, blocking the calling thread: call it from a worker thread, never an event loop.
///
/// ```swift
/// let client = SMTPClient(host: "smtp.example.com", port: 587, configuration: .init(
///     security: .startTLSRequired, credentials: .init(username: "hearth", password: secret)), tls: try TLSClient())
/// try client.send(message.encoded(), envelope: SMTPEnvelope(sender: "noreply@example.com", recipients: ["ada@example.org"]))
/// ```
public struct SMTPClient: Sendable {
    /// The server's host name or address; also the name its certificate must carry.
    public var host: String
    /// The server's port: 587 for STARTTLS submission, 465 for implicit TLS, 25 for relays.
    public var port: Int
    /// Security, credentials and timeouts.
    public var configuration: SMTPClientConfiguration
    /// Verifies the server's certificate for implicit TLS and STARTTLS.
    public var tls: TLSClient

    /// A client of `host:port`.
    public init(host: String, port: Int, configuration: SMTPClientConfiguration, tls: TLSClient) {
        self.host = host
        self.port = port
        self.configuration = configuration
        self.tls = tls
    }

    /// Sends `message` (a complete RFC 5322 message with CRLF line endings, such as
    /// ``MailMessage/encoded()``) to the envelope's recipients.
    /// - Throws: `SMTPError`; ``SMTPError/isTransient`` tells whether to try again later.
    public func send(_ message: [UInt8], envelope: SMTPEnvelope) throws(SMTPError) {
        var machine = SMTPClientStateMachine(
            configuration: configuration, envelope: envelope, message: message, isSecure: configuration.security == .implicitTLS)
        var connection: any Connection
        do {
            let deadline = Deadline.after(configuration.commandTimeout)
            connection = configuration.security == .implicitTLS
                ? try tls.connect(host: host, port: port, deadline: deadline)
                : try TCPConnection.connect(host: host, port: port, deadline: deadline)
        } catch {
            throw Self.failure(error)
        }
        defer { connection.close() }
        var reader = BufferedReader(connection)
        var parser = SMTPReplyParser()
        do throws(SMTPError) {
            while true {
                let timeout = machine.isAwaitingMessageAcceptance ? configuration.dataTimeout : configuration.commandTimeout
                let reply = try Self.readReply(&reader, parser: &parser, deadline: .after(timeout))
                var action = try machine.receive(reply)
                if action == .startTLS {
                    // Plaintext the server sent after its 220 could have been injected (CVE-2011-0411).
                    guard reader.bufferedCount == 0, let plain = connection as? TCPConnection else {
                        throw SMTPError(code: .protocolViolation, message: "the server sent data after its reply to STARTTLS")
                    }
                    do {
                        connection = try tls.secure(plain, serverName: host, deadline: .after(configuration.commandTimeout))
                    } catch {
                        throw Self.failure(error)
                    }
                    reader = BufferedReader(connection)
                    action = machine.tlsEstablished()
                }
                switch action {
                case .send(let bytes):
                    do {
                        try connection.send(bytes, deadline: .after(configuration.commandTimeout))
                    } catch {
                        throw Self.failure(error)
                    }
                case .startTLS:
                    preconditionFailure("the state machine asks for TLS only once per reply")
                case .finished:
                    return
                }
            }
        } catch {
            // A message the server accepted is delivered, whatever happens while quitting.
            if machine.isDelivered { return }
            throw error
        }
    }

    private static func readReply(
        _ reader: inout BufferedReader, parser: inout SMTPReplyParser, deadline: Deadline
    ) throws(SMTPError) -> SMTPReply {
        while true {
            let line: [UInt8]?
            do {
                line = try reader.readLine(maxLength: 4096, deadline: deadline)
            } catch {
                throw failure(error)
            }
            guard let line else {
                throw SMTPError(
                    code: .connectionFailed, message: "the server closed the connection",
                    network: NetworkError(code: .connectionClosed, peer: reader.connection.peer, detail: "end of stream"))
            }
            if let reply = try parser.feed(line) { return reply }
        }
    }

    private static func failure(_ error: NetworkError) -> SMTPError {
        SMTPError(code: .connectionFailed, message: error.description, network: error)
    }
}
