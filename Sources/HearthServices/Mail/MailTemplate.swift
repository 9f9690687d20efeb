import Net
import Support

/// A transactional email (confirm an address, reset a password) written once and rendered
/// as a plain-text and an HTML body: a greeting, paragraphs, one call-to-action link built
/// on the server's public base URL, and a closing line. Text is escaped for HTML here, so
/// user-provided values (a display name) cannot inject markup.
///
/// ```swift
/// let template = MailTemplate(
///     subject: "Confirm your email address", greeting: "Hello Ada,",
///     paragraphs: ["Please confirm this address to finish creating your Hearth account."],
///     action: .init(label: "Confirm my address", path: "/confirm-email", token: links.issue(.emailToken)),
///     closing: "If you did not create an account, ignore this email.")
/// let mail = template.render(to: ["ada@example.org"], baseURL: settings.publicBaseURL)
/// ```
public struct MailTemplate: Sendable, Hashable {
    /// The call-to-action link.
    public struct Action: Sendable, Hashable {
        /// The link's text, e.g. `Confirm my address`.
        public var label: String
        /// The path on the public base URL, already percent-encoded, e.g. `/confirm-email`;
        /// with a query only when there is no ``token``.
        public var path: String
        /// The link's token, added as the query `?token=…`.
        public var token: LinkToken?

        /// An action.
        public init(label: String, path: String, token: LinkToken? = nil) {
            self.label = label
            self.path = path
            self.token = token
        }

        /// The path with the token's query.
        var target: String {
            token.map { "\(path)?token=\($0.value)" } ?? path
        }
    }

    /// The subject.
    public var subject: String
    /// The first line, e.g. `Hello Ada,`.
    public var greeting: String
    /// The paragraphs before the action.
    public var paragraphs: [String]
    /// The link, if any.
    public var action: Action?
    /// A last paragraph after the action, e.g. what to do if the email was unexpected.
    public var closing: String?

    /// A template.
    public init(subject: String, greeting: String, paragraphs: [String], action: Action? = nil, closing: String? = nil) {
        self.subject = subject
        self.greeting = greeting
        self.paragraphs = paragraphs
        self.action = action
        self.closing = closing
    }

    /// The email for `recipients`, its link on `baseURL`.
    public func render(to recipients: [String], baseURL: PublicBaseURL) -> OutgoingMail {
        let link = action.map { (label: $0.label, url: baseURL.url(for: $0.target)) }
        var text = [greeting] + paragraphs
        var html = ["<p>\(Self.escape(greeting))</p>"] + paragraphs.map { "<p>\(Self.escape($0))</p>" }
        if let link {
            text.append("\(link.label):\n\(link.url)")
            html.append("<p><a href=\"\(Self.escape(link.url))\">\(Self.escape(link.label))</a></p>")
            html.append("<p style=\"font-size:small;color:#555\">\(Self.escape(link.url))</p>")
        }
        if let closing {
            text.append(closing)
            html.append("<p>\(Self.escape(closing))</p>")
        }
        let document = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>\(Self.escape(subject))</title></head>
            <body style="font-family:sans-serif;line-height:1.5">
            \(html.joined(separator: "\n"))
            </body></html>
            """
        return OutgoingMail(
            recipients: recipients, subject: subject, text: text.joined(separator: "\n\n") + "\n", html: document, link: action?.token)
    }

    /// `text` with HTML's special characters replaced by entities.
    static func escape(_ text: String) -> String {
        HTMLEscaping.escape(text)
    }
}

/// The address where users reach this server, e.g. `https://hearth.example.org` or
/// `https://example.org/hearth`: the base of links in emails.
public struct PublicBaseURL: Sendable, Hashable, CustomStringConvertible {
    /// The URL without a trailing slash.
    public let description: String

    /// Parses `text`.
    /// - Throws: `NetworkError` `.invalidURL` unless it is an `http://` or `https://` URL
    ///   without a query.
    public init(_ text: String) throws(NetworkError) {
        let url = try HTTPURL(text)
        guard !url.target.contains("?") else {
            throw NetworkError(code: .invalidURL, peer: text, detail: "the public base URL cannot have a query")
        }
        description = text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    /// The absolute URL of `path` (which starts with `/`) under this base.
    public func url(for path: String) -> String {
        description + (path.hasPrefix("/") ? path : "/" + path)
    }
}
