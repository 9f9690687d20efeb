import FoundationEssentials
import HearthServices
import Net
import SMTP

/// How `hearth serve` sends email: the transport (the development log, or SMTP and its
/// server), the sender, and the public base URL that links in emails point to.
struct MailSettings: Sendable {
    /// Which transport delivers the outbox.
    enum Transport: Sendable {
        /// Keep messages in the outbox for `hearth mail show` and log a notice (development).
        case log
        /// Submit to an SMTP server.
        case smtp(SMTPMailTransport.Configuration)

        /// Whether the outbox keeps emailed links' tokens in the stored bodies: only for the
        /// development transport, whose point is to show them (``MailOutbox``).
        var keepsLinkTokens: Bool {
            if case .log = self { true } else { false }
        }
    }

    /// Which transport delivers the outbox.
    var transport: Transport
    /// The `From` of every email.
    var sender: MailAddress
    /// Where users reach this server; the base of links in emails.
    var publicBaseURL: PublicBaseURL

    /// The options that set these values.
    static let options: [OptionSpec] = [
        .value("--mail-transport", "log|smtp", environment: "HEARTH_MAIL_TRANSPORT", default: "log",
               help: "log keeps emails in the outbox, readable with 'hearth mail list/show' (development); smtp sends them."),
        .value("--mail-from", "ADDRESS", environment: "HEARTH_MAIL_FROM", default: "Hearth <hearth@localhost>",
               help: "The sender of every email: an address, or 'Name <address>'."),
        .value("--public-base-url", "URL", environment: "HEARTH_PUBLIC_BASE_URL", default: "http://localhost:8080",
               help: "Where users reach this server (https://… in production); links in emails start with it."),
        .value("--smtp-host", "HOST", environment: "HEARTH_SMTP_HOST",
               help: "The SMTP submission server or relay (required with --mail-transport smtp)."),
        .value("--smtp-port", "PORT", environment: "HEARTH_SMTP_PORT",
               help: "Its port. Default: 587 with starttls, 465 with implicit, 25 otherwise."),
        .value("--smtp-tls", "MODE", environment: "HEARTH_SMTP_TLS", default: "starttls",
               help: "starttls (required), starttls-if-offered, implicit (TLS from the start) or off. Certificates are always verified."),
        .value("--smtp-username", "NAME", environment: "HEARTH_SMTP_USERNAME",
               help: "User name for AUTH PLAIN/LOGIN; credentials are only sent over TLS."),
        .value("--smtp-password", "PASSWORD", environment: "HEARTH_SMTP_PASSWORD",
               help: "Password for --smtp-username (prefer --smtp-password-file)."),
        .value("--smtp-password-file", "PATH", environment: "HEARTH_SMTP_PASSWORD_FILE",
               help: "A file holding the password (a trailing newline is ignored), e.g. a container secret."),
        .value("--smtp-ca-file", "PATH", environment: "HEARTH_SMTP_CA_FILE",
               help: "PEM file of certificate authorities to trust for the SMTP server instead of the system's store."),
    ]

    /// Reads and validates the settings; every problem names its flag.
    init(_ options: ParsedOptions) throws {
        do {
            sender = try Self.parseSender(options.string("--mail-from") ?? "")
        } catch {
            throw UsageError(message: "invalid --mail-from: \(error)")
        }
        do {
            publicBaseURL = try PublicBaseURL(options.string("--public-base-url") ?? "")
        } catch {
            throw UsageError(message: "invalid --public-base-url: \(error)")
        }
        let kind = try options.choice("--mail-transport", ["log": false, "smtp": true]) ?? false
        guard kind else {
            transport = .log
            return
        }
        guard let host = options.string("--smtp-host"), !host.isEmpty else {
            throw UsageError(message: "--mail-transport smtp needs --smtp-host (or HEARTH_SMTP_HOST)")
        }
        let security = try options.choice("--smtp-tls", [
            "starttls": SMTPClientConfiguration.Security.startTLSRequired, "starttls-if-offered": .startTLSOpportunistic,
            "implicit": .implicitTLS, "off": .plaintext,
        ]) ?? .startTLSRequired
        let defaultPort = switch security {
        case .startTLSRequired, .startTLSOpportunistic: 587
        case .implicitTLS: 465
        case .plaintext: 25
        }
        let username = options.string("--smtp-username").flatMap { $0.isEmpty ? nil : $0 }
        let password = try Self.password(options)
        if username != nil && password == nil {
            throw UsageError(message: "--smtp-username needs --smtp-password or --smtp-password-file")
        }
        transport = .smtp(SMTPMailTransport.Configuration(
            host: host, port: try options.integer("--smtp-port", in: 1...65535) ?? defaultPort, security: security,
            username: username, password: password, sender: sender,
            certificateAuthorityFile: options.string("--smtp-ca-file").flatMap { $0.isEmpty ? nil : $0 }))
    }

    /// `address` or `Display Name <address>`.
    static func parseSender(_ text: String) throws -> MailAddress {
        let trimmed = text.trimmingSpaces()
        guard trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") else { return try MailAddress(trimmed) }
        let name = trimmed[..<open].trimmingSpaces().trimmingCharacters(in: "\"")
        let address = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
        return try MailAddress(address, displayName: name.isEmpty ? nil : name)
    }

    private static func password(_ options: ParsedOptions) throws -> String? {
        let inline = options.string("--smtp-password").flatMap { $0.isEmpty ? nil : $0 }
        guard let path = options.string("--smtp-password-file"), !path.isEmpty else { return inline }
        guard inline == nil else { throw UsageError(message: "give --smtp-password or --smtp-password-file, not both") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError(message: "cannot read --smtp-password-file \(path)")
        }
        var text = String(decoding: data, as: UTF8.self)
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        return text
    }
}
