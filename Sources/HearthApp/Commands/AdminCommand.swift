import FoundationEssentials
import HearthServices
import HearthStore
import Support

/// `hearth admin`: the self-hoster's account and database chores, run beside a live server
/// (SQLite's locks make the commands and the server take turns).
enum AdminCommand: Command {
    static let name = "admin"
    static let summary = "List accounts, disable or enable one, send a password reset, show the database's state"
    static let usage = """
    Usage: hearth admin users [--search TEXT] [--limit N] [--database PATH]
           hearth admin disable EMAIL [--database PATH]
           hearth admin enable EMAIL [--database PATH]
           hearth admin reset-password EMAIL [--database PATH]
           hearth admin status [--database PATH] [--key-directory PATH]

    'users' lists accounts, newest first: id, creation time, latest sign-in, whether it is
    disabled, and the address. 'disable' stops an account from signing in (by password,
    Google or Apple) and from refreshing, and ends every session it has: refreshes answer
    ACCOUNT_DISABLED at once; a running server also drops its access tokens and closes its
    WebSocket connections when it next polls for jobs (--job-poll-interval), or at its next
    start. 'enable' lets it sign in again. 'reset-password' has the server email the account
    the same password-reset link the app's 'Forgot password' sends (through the mail outbox:
    sent when the server runs its jobs); the link is never printed here, so it cannot land
    in a terminal's history: without SMTP (--mail-transport log) read it with 'hearth mail
    show ID'. 'status' shows the schema version, the database's and its log's size, the
    rows of every table and the key directory.
    """
    static let options: [OptionSpec] = [
        .value("--search", "TEXT", help: "'users' lists only accounts whose address or username contains TEXT (regardless of case)."),
        .value("--limit", "N", default: "50", help: "How many accounts 'users' lists, newest first."),
    ] + DatabaseSettings.options + KeySettings.options

    static func run(_ options: ParsedOptions, environment: [String: String]) throws -> Int32 {
        let settings = try DatabaseSettings(options)
        let positional = options.positional
        switch positional.first {
        case "users" where positional.count == 1:
            let limit = try options.integer("--limit", in: 1...100_000) ?? 50
            let accounts = try administering(settings) { administration, database in
                try administration.accounts(matching: options.string("--search"), limit: limit, in: database)
            }
            print(listing(accounts), terminator: "")
            return 0
        case "disable" where positional.count == 2:
            return try answering {
                let (account, ended) = try administering(settings, writing: true) { try $0.disable(email: positional[1], at: Date(), in: $1) }
                print("\(account.email) is disabled since \(CommandOutput.timestamp(account.disabledAt ?? Date())); \(ended) session(s) ended")
            }
        case "enable" where positional.count == 2:
            return try answering {
                let account = try administering(settings, writing: true) { try $0.enable(email: positional[1], at: Date(), in: $1) }
                print("\(account.email) may sign in again")
            }
        case "reset-password" where positional.count == 2:
            return try answering {
                let (account, job) = try administering(settings, writing: true) { try $0.requestPasswordReset(email: positional[1], in: $1) }
                print("a password-reset email to \(account.email) is queued (job \(job)); the server sends it when it runs its jobs")
            }
        case "status" where positional.count == 1:
            print(try status(settings, keys: KeySettings(options, databasePath: settings.path)), terminator: "")
            return 0
        default:
            throw UsageError(message: "expected 'users', 'disable EMAIL', 'enable EMAIL', 'reset-password EMAIL' or 'status'")
        }
    }

    /// Runs `body` with the administration of the existing database, in a read transaction or,
    /// when `writing`, a write transaction.
    private static func administering<T>(
        _ settings: DatabaseSettings, writing: Bool = false, _ body: (AccountAdministration, Database) throws -> T
    ) throws -> T {
        try settings.withExistingStore { store in
            let pool = store.writer
            let administration = AccountAdministration(jobs: JobQueue(pool: pool))
            return writing ? try pool.write { try body(administration, $0) } : try pool.read { try body(administration, $0) }
        }
    }

    /// Runs `body`; an ``AdministrationError`` becomes a message and exit status 1.
    private static func answering(_ body: () throws -> Void) throws -> Int32 {
        do {
            try body()
            return 0
        } catch let error as AdministrationError {
            StandardStreams.writeError("hearth admin: \(error.message)\n")
            return 1
        }
    }

    /// One line per account, under a header line.
    static func listing(_ accounts: [AdministeredAccount]) -> String {
        guard !accounts.isEmpty else { return "no accounts\n" }
        let never = "never"
        return CommandOutput.pad("ID", 38) + CommandOutput.pad("CREATED", 26) + CommandOutput.pad("LAST SIGN-IN", 26)
            + CommandOutput.pad("DISABLED", 26) + "EMAIL\n"
            + accounts.map { account in
                CommandOutput.pad(account.id, 38) + CommandOutput.pad(CommandOutput.timestamp(account.createdAt), 26)
                    + CommandOutput.pad(account.lastSignInAt.map(CommandOutput.timestamp) ?? never, 26)
                    + CommandOutput.pad(account.disabledAt.map(CommandOutput.timestamp) ?? "no", 26) + account.email + "\n"
            }.joined()
    }

    /// The database's schema version, sizes and rows, and the key directory.
    static func status(_ settings: DatabaseSettings, keys: KeySettings) throws -> String {
        let migrator = try DatabaseSettings.embeddedMigrator()
        let (migrations, tables) = try settings.withExisting(command: "hearth admin status", postgresAdvice: PostgresAdvice.status) { pool in
            (try migrator.status(of: pool), try pool.tableRowCounts())
        }
        var lines = [
            "Database: \(settings.path)",
            "Schema version: \(migrations.applied.last.map { String($0.version) } ?? "none") "
                + "(\(migrations.applied.count) migrations applied, \(migrations.pending.count) pending; this hearth has \(migrator.migrations.count))",
        ]
        lines += migrations.problems.map { "Problem: \($0.message)" }
        lines.append("Database size: \(DurableFiles.size(of: settings.path)) bytes")
        lines.append("Log (-wal) size: \(DurableFiles.size(of: settings.path + "-wal")) bytes")
        let keyFiles = (try? FileManager.default.contentsOfDirectory(atPath: keys.directory).count).map { "\($0) files" } ?? "missing"
        lines.append("Key directory: \(keys.directory) (\(keyFiles))")
        lines.append("Rows:")
        let width = (tables.map(\.table.count).max() ?? 0) + 2
        lines += tables.map { "  " + CommandOutput.pad($0.table, width) + String($0.rows) }
        return lines.joined(separator: "\n") + "\n"
    }
}
