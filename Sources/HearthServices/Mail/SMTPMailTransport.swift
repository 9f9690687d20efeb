import Net
import SMTP

/// Delivers mail to an SMTP submission server or relay (RFC 5321), with STARTTLS or
/// implicit TLS verified against the system's CA store or a configured CA file, and
/// AUTH PLAIN/LOGIN when credentials are configured.
public struct SMTPMailTransport: MailTransport {
    /// Where and how to submit mail.
    public struct Configuration: Sendable, Hashable {
        /// The server's host name (also the name its certificate must carry).
        public var host: String
        /// The server's port: 587 (STARTTLS), 465 (implicit TLS) or 25.
        public var port: Int
        /// Implicit TLS, STARTTLS (required or opportunistic) or none.
        public var security: SMTPClientConfiguration.Security
        /// The user name, or nil to send without authenticating.
        public var username: String?
        /// The password for `username`.
        public var password: String?
        /// The `From` and envelope sender of every message.
        public var sender: MailAddress
        /// A PEM file of CAs to trust instead of the system's store.
        public var certificateAuthorityFile: String?
        /// The name given in `EHLO`; `localhost` by default.
        public var clientName: String

        /// A configuration.
        public init(
            host: String, port: Int, security: SMTPClientConfiguration.Security, username: String? = nil, password: String? = nil,
            sender: MailAddress, certificateAuthorityFile: String? = nil, clientName: String = "localhost"
        ) {
            self.host = host
            self.port = port
            self.security = security
            self.username = username
            self.password = password
            self.sender = sender
            self.certificateAuthorityFile = certificateAuthorityFile
            self.clientName = clientName
        }
    }

    public let name = "smtp"
    private let configuration: Configuration
    private let client: SMTPClient

    /// A transport for `configuration`.
    /// - Throws: `NetworkError` `.invalidConfiguration` when the CA file cannot be loaded.
    public init(configuration: Configuration) throws(NetworkError) {
        self.configuration = configuration
        let credentials = configuration.username.map {
            SMTPClientConfiguration.Credentials(username: $0, password: configuration.password ?? "")
        }
        client = SMTPClient(
            host: configuration.host, port: configuration.port,
            configuration: SMTPClientConfiguration(
                security: configuration.security, credentials: credentials, clientName: configuration.clientName),
            tls: try TLSClient(configuration: TLSConfiguration(certificateAuthorityFile: configuration.certificateAuthorityFile)))
    }

    public func deliver(_ message: OutboxMessage) throws(MailDeliveryError) {
        let bytes: [UInt8]
        let envelope: SMTPEnvelope
        do throws(MessageError) {
            let mail = MailMessage(
                from: configuration.sender, to: try message.recipients.map { (address) throws(MessageError) in try MailAddress(address) },
                subject: message.subject, text: message.text, html: message.html, date: message.createdAt, messageID: message.messageID)
            bytes = try mail.encoded()
        } catch {
            throw MailDeliveryError(code: .permanent, message: error.message)
        }
        do throws(SMTPError) {
            envelope = try SMTPEnvelope(sender: configuration.sender.address, recipients: message.recipients)
            try client.send(bytes, envelope: envelope)
        } catch {
            throw MailDeliveryError(code: error.isTransient ? .transient : .permanent, message: error.message)
        }
    }
}
