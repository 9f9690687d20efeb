import HearthStore

/// Where account emails are queued: the mail outbox (``MailOutbox``), which delivers them
/// after the transaction commits and retries until they are sent.
public protocol MailQueue: Sendable {
    /// Queues `mail` inside the caller's write transaction; returns its outbox id.
    @discardableResult
    func enqueue(_ mail: OutgoingMail, in database: Database) throws -> Int64
}

extension MailOutbox: MailQueue {}

/// The emails accounts send, each queued in the mail outbox inside the caller's transaction
/// (an account and its confirmation email commit together or not at all), written as
/// ``MailTemplate``s: plain text plus the same words as HTML.
///
/// Links carry a single-use token (``LinkTokens``) and point at the public base URL:
/// `/confirm-email?token=…` (an address, or a new address) and `/reset-password?token=…`; the
/// app (or a small web page at that path) posts the token back to `confirmEmail` or
/// `resetPassword`.
public struct AccountMail: Sendable {
    /// The path of address-confirmation links.
    public static let confirmEmailPath = "/confirm-email"
    /// The path of password-reset links.
    public static let resetPasswordPath = "/reset-password"

    /// Where emails are queued.
    public let outbox: any MailQueue
    /// Where links point.
    public let baseURL: PublicBaseURL
    /// Makes and checks the links' tokens, with the link key.
    public let links: LinkTokens
    /// The product name used in subjects.
    public var productName = "Hearth"

    /// Creates the composer.
    public init(outbox: any MailQueue, baseURL: PublicBaseURL, links: LinkTokens) {
        self.outbox = outbox
        self.baseURL = baseURL
        self.links = links
    }

    /// Asks a new account to confirm its address with the link carrying `token`.
    func confirmAddress(to address: String, name: String, token: LinkToken, in database: Database) throws {
        try send(MailTemplate(
            subject: "Confirm your email address for \(productName)", greeting: "Hello \(name),",
            paragraphs: ["Welcome to \(productName)! Confirm that this is your email address:"],
            action: .init(label: "Confirm my address", path: Self.confirmEmailPath, token: token),
            closing: "The link works for 48 hours. If you did not create an account, ignore this email."),
            to: address, in: database)
    }

    /// Asks the owner of a new address to confirm an email change with the link carrying `token`.
    func confirmNewAddress(to address: String, name: String, token: LinkToken, in database: Database) throws {
        try send(MailTemplate(
            subject: "Confirm your new email address for \(productName)", greeting: "Hello \(name),",
            paragraphs: ["You asked to use this address for your \(productName) account. Confirm it:"],
            action: .init(label: "Confirm my new address", path: Self.confirmEmailPath, token: token),
            closing: "Until you do, your account keeps its current address. If you did not ask for this, ignore this email."),
            to: address, in: database)
    }

    /// Tells the old address that the account moved to `newAddress`.
    func addressChanged(to address: String, name: String, newAddress: String, in database: Database) throws {
        try send(MailTemplate(
            subject: "Your \(productName) email address was changed", greeting: "Hello \(name),",
            paragraphs: [
                "Your \(productName) account now uses the address \(newAddress); emails will go there from now on.",
                "If you did not make this change, reset your password at once and contact your server's administrator.",
            ]),
            to: address, in: database)
    }

    /// Sends the password-reset link carrying `token`.
    func resetPassword(to address: String, name: String, token: LinkToken, in database: Database) throws {
        try send(MailTemplate(
            subject: "Reset your \(productName) password", greeting: "Hello \(name),",
            paragraphs: ["Someone (hopefully you) asked to reset the password of your \(productName) account. Choose a new one:"],
            action: .init(label: "Choose a new password", path: Self.resetPasswordPath, token: token),
            closing: "The link works once, for one hour. Resetting signs you out on every device. If you did not ask, ignore this email: your password stays as it is."),
            to: address, in: database)
    }

    /// Tells an address with no account that a reset was asked for it.
    func noAccount(to address: String, in database: Database) throws {
        try send(MailTemplate(
            subject: "Password reset for \(productName)", greeting: "Hello,",
            paragraphs: [
                "Someone asked to reset the \(productName) password for this email address, but no account uses it.",
                "If you have an account, it may use another address. If you did not ask, ignore this email.",
            ]),
            to: address, in: database)
    }

    /// Tells an account that its password changed.
    func passwordChanged(to address: String, name: String, in database: Database) throws {
        try send(MailTemplate(
            subject: "Your \(productName) password was changed", greeting: "Hello \(name),",
            paragraphs: [
                "The password of your \(productName) account was just changed, and your other devices were signed out.",
                "If you did not do this, reset your password at once.",
            ]),
            to: address, in: database)
    }

    /// Tells an account that it can now sign in with `provider` too.
    func signInProviderLinked(to address: String, name: String, provider: SignInProvider, in database: Database) throws {
        try send(MailTemplate(
            subject: "\(provider.displayName) sign-in was added to your \(productName) account", greeting: "Hello \(name),",
            paragraphs: [
                "Your \(productName) account can now be signed in to with \(provider.displayName).",
                "If you did not do this, remove it in your account settings, sign out everywhere and tell your server's administrator.",
            ]),
            to: address, in: database)
    }

    /// Tells an account that it can no longer sign in with `provider`.
    func signInProviderUnlinked(to address: String, name: String, provider: SignInProvider, in database: Database) throws {
        try send(MailTemplate(
            subject: "\(provider.displayName) sign-in was removed from your \(productName) account", greeting: "Hello \(name),",
            paragraphs: [
                "Your \(productName) account can no longer be signed in to with \(provider.displayName).",
                "If you did not do this, sign out everywhere in your account settings and tell your server's administrator.",
            ]),
            to: address, in: database)
    }

    /// Renders `template` for `address` and queues it inside the caller's transaction (the one
    /// step every email of the server shares, households' included).
    func send(_ template: MailTemplate, to address: String, in database: Database) throws {
        try outbox.enqueue(template.render(to: [address], baseURL: baseURL), in: database)
    }
}
