import HearthStore

/// Where account emails are queued: the mail outbox, which delivers them after the
/// transaction commits and retries until they are sent.
public protocol MailQueue: Sendable {
    /// Queues one email inside the caller's write transaction.
    func enqueue(to recipient: String, subject: String, text: String, html: String, in database: Database) throws
}

/// The emails accounts send, each queued in the mail outbox inside the caller's transaction
/// (an account and its confirmation email commit together or not at all).
///
/// Each email is plain text plus the same words as HTML. Links carry a single-use token and
/// point at the public base URL; the app (or a small web page at that path) posts the token
/// back to `confirmEmail` or `resetPassword`.
public struct AccountMail: Sendable {
    /// Where emails are queued.
    public let outbox: any MailQueue
    /// The product name used in subjects and greetings.
    public var productName = "Hearth"

    /// Creates the composer.
    public init(outbox: any MailQueue) {
        self.outbox = outbox
    }

    /// Asks a new account to confirm its address.
    func confirmAddress(to address: String, name: String, link: String, in database: Database) throws {
        try send(
            to: address, subject: "Confirm your email address for \(productName)",
            greeting: name,
            paragraphs: ["Welcome to \(productName)! Confirm that this is your email address by opening this link:"],
            link: link,
            closing: "The link works for 48 hours. If you did not create an account, ignore this email.",
            in: database)
    }

    /// Asks the owner of a new address to confirm an email change.
    func confirmNewAddress(to address: String, name: String, link: String, in database: Database) throws {
        try send(
            to: address, subject: "Confirm your new email address for \(productName)",
            greeting: name,
            paragraphs: ["You asked to use this address for your \(productName) account. Confirm it by opening this link:"],
            link: link,
            closing: "Until you do, your account keeps its current address. If you did not ask for this, ignore this email.",
            in: database)
    }

    /// Tells the old address that the account moved to `newAddress`.
    func addressChanged(to address: String, name: String, newAddress: String, in database: Database) throws {
        try send(
            to: address, subject: "Your \(productName) email address was changed",
            greeting: name,
            paragraphs: [
                "Your \(productName) account now uses the address \(newAddress); emails will go there from now on.",
                "If you did not make this change, reset your password at once and contact your server's administrator.",
            ],
            link: nil, closing: nil, in: database)
    }

    /// Sends a password-reset link.
    func resetPassword(to address: String, name: String, link: String, in database: Database) throws {
        try send(
            to: address, subject: "Reset your \(productName) password",
            greeting: name,
            paragraphs: ["Someone (hopefully you) asked to reset the password of your \(productName) account. Choose a new one here:"],
            link: link,
            closing: "The link works once, for one hour. Resetting signs you out on every device. If you did not ask, ignore this email: your password stays as it is.",
            in: database)
    }

    /// Tells an address with no account that a reset was asked for it.
    func noAccount(to address: String, in database: Database) throws {
        try send(
            to: address, subject: "Password reset for \(productName)",
            greeting: nil,
            paragraphs: [
                "Someone asked to reset the \(productName) password for this email address, but no account uses it.",
                "If you have an account, it may use another address. If you did not ask, ignore this email.",
            ],
            link: nil, closing: nil, in: database)
    }

    /// Tells an account that its password changed.
    func passwordChanged(to address: String, name: String, in database: Database) throws {
        try send(
            to: address, subject: "Your \(productName) password was changed",
            greeting: name,
            paragraphs: [
                "The password of your \(productName) account was just changed, and your other devices were signed out.",
                "If you did not do this, reset your password at once.",
            ],
            link: nil, closing: nil, in: database)
    }

    /// Tells an account that it can now sign in with `provider` too.
    func signInProviderLinked(to address: String, name: String, provider: SignInProvider, in database: Database) throws {
        try send(
            to: address, subject: "\(provider.displayName) sign-in was added to your \(productName) account",
            greeting: name,
            paragraphs: [
                "Your \(productName) account can now be signed in to with \(provider.displayName).",
                "If you did not do this, remove it in your account settings, sign out everywhere and tell your server's administrator.",
            ],
            link: nil, closing: nil, in: database)
    }

    /// Tells an account that it can no longer sign in with `provider`.
    func signInProviderUnlinked(to address: String, name: String, provider: SignInProvider, in database: Database) throws {
        try send(
            to: address, subject: "\(provider.displayName) sign-in was removed from your \(productName) account",
            greeting: name,
            paragraphs: [
                "Your \(productName) account can no longer be signed in to with \(provider.displayName).",
                "If you did not do this, sign out everywhere in your account settings and tell your server's administrator.",
            ],
            link: nil, closing: nil, in: database)
    }

    private func send(
        to address: String, subject: String, greeting: String?, paragraphs: [String], link: String?, closing: String?,
        in database: Database
    ) throws {
        var text = greeting.map { "Hello \($0),\n\n" } ?? "Hello,\n\n"
        var html = "<p>\(Self.escape(greeting.map { "Hello \($0)," } ?? "Hello,"))</p>\n"
        for paragraph in paragraphs {
            text += paragraph + "\n\n"
            html += "<p>\(Self.escape(paragraph))</p>\n"
        }
        if let link {
            text += link + "\n\n"
            html += "<p><a href=\"\(Self.escape(link))\">\(Self.escape(link))</a></p>\n"
        }
        if let closing {
            text += closing + "\n\n"
            html += "<p>\(Self.escape(closing))</p>\n"
        }
        text += "-- \n\(productName)\n"
        html += "<p>&mdash; \(Self.escape(productName))</p>\n"
        try outbox.enqueue(to: address, subject: subject, text: text, html: html, in: database)
    }

    /// `text` with HTML's special characters escaped, for element content and quoted attributes.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
