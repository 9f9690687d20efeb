import FoundationEssentials
import HearthServices
import HearthStore
import Support
import Synchronization

/// Emails queued by the accounts service, kept in memory for assertions (the outbox itself
/// is tested in the mail tests and end to end).
public final class RecordingMailQueue: MailQueue {
    /// One queued email.
    public struct Mail: Sendable, Hashable {
        public var to: String
        public var subject: String
        public var text: String
        public var html: String
    }

    private let mails = Mutex<[Mail]>([])

    public init() {}

    public func enqueue(_ outgoing: OutgoingMail, in database: Database) throws -> Int64 {
        let mail = Mail(to: outgoing.recipients.joined(separator: ", "), subject: outgoing.subject, text: outgoing.text, html: outgoing.html ?? "")
        // Recorded only if the transaction commits, like a row of the outbox.
        database.afterCommit { self.mails.withLock { $0.append(mail) } }
        return Int64(mails.withLock { $0.count })
    }

    /// Every email queued by a committed transaction, oldest first.
    public var all: [Mail] { mails.withLock { $0 } }

    /// The `token` parameter of the link in the latest email to `recipient`.
    public func latestToken(to recipient: String) -> String? {
        guard let mail = all.last(where: { $0.to == recipient }), let range = mail.text.range(of: "?token=") else { return nil }
        return String(mail.text[range.upperBound...].prefix { !$0.isWhitespace })
    }
}

/// An account service over a migrated temporary database, with cheap password hashing.
public struct AccountsHarness: Sendable {
    public let service: AccountService
    public let mail: RecordingMailQueue
    public let clock: ManualClock
    /// The migrated database, in this run's store (``TestDatabaseStore``).
    public let pool: any DatabaseWriter
    /// The change log the service records on (households and chores share it), and its bus.
    public let changeLog: ChangeLog
    public let bus: InProcessEventBus

    /// The password `register` uses.
    public static let password = "correct horse battery"
    /// That password as the proof of recent authentication sensitive operations ask for.
    public static let passwordProof = ReauthenticationProof(currentPassword: password)

    /// Calls `body` with a fresh harness; `configure` adjusts the configuration first;
    /// `identityProviders` are the Google and Apple sign-ins the service accepts; `readerCount`
    /// is the SQLite pool's (1 lets a test count every statement reads run on the one reader).
    public static func with<T>(
        configure: (inout AccountsConfiguration) -> Void = { _ in }, identityProviders: [IdentityProvider] = [], readerCount: Int = 4,
        _ body: (AccountsHarness) async throws -> T
    ) async throws -> T {
        try await MigratedDatabase.withDatabase(readerCount: readerCount) { pool in
            var configuration = AccountsConfiguration()
            configuration.passwordHashing = ScryptParameters(logN: 10, r: 8, p: 1)
            configure(&configuration)
            let clock = ManualClock()
            let mail = RecordingMailQueue()
            let bus = InProcessEventBus()
            let changeLog = ChangeLog(pool: pool, bus: bus, clock: clock)
            let service = AccountService(
                configuration: configuration, pool: pool,
                accessTokens: AccessTokens(
                    key: SecureRandom.bytes(32), issuer: configuration.issuer, audience: configuration.audience,
                    lifetime: configuration.accessTokenLifetime),
                mail: AccountMail(outbox: mail, baseURL: try PublicBaseURL("https://hearth.example"), links: LinkTokens(key: SecureRandom.bytes(32))), commonPasswords: ["password1234", "qwertyuiop"],
                identityProviders: identityProviders, logger: Logger(label: "test", level: .critical, sink: DiscardingLogSink()),
                clock: clock, changeLog: changeLog)
            return try await body(AccountsHarness(service: service, mail: mail, clock: clock, pool: pool, changeLog: changeLog, bus: bus))
        }
    }

    /// Registers `username` with `username@example.com` and the harness password.
    @discardableResult
    public func register(_ username: String = "ana", device: String? = "phone") async throws -> (UserRecord, IssuedSession) {
        try await service.register(
            RegistrationRequest(username: username, email: "\(username)@example.com", password: Self.password, deviceLabel: device),
            clientAddress: "192.0.2.1")
    }

    /// Signs in as `username`.
    public func login(_ username: String = "ana", password: String = AccountsHarness.password, from address: String = "192.0.2.1") async throws -> IssuedSession {
        try await service.login(email: "\(username)@example.com", password: password, deviceLabel: nil, clientAddress: address).1
    }
}
