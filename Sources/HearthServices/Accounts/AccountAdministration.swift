import FoundationEssentials
import HearthStore
import Support

/// What the server's administrator does to accounts from the command line (`hearth admin`),
/// in a transaction of the database the server may be using at the same time.
///
/// Changes that the database alone carries take effect at once, for every process: a disabled
/// account's sign-ins and refreshes read `users.disabled_at` and its sessions' revocation. What
/// only the running server can do is asked of it through the job queue
/// (``AccountAdministrationJob``): to forget the ended sessions it holds in memory (access tokens
/// and WebSocket connections), and to send a password-reset email with its link key, public base
/// URL and mail transport. A server that is not running does it at its next start.
public struct AccountAdministration: Sendable {
    /// The `revoked_reason` of the sessions a disabled account lost; a refresh with one of them
    /// answers ``ServiceError/accountDisabled``.
    public static let disabledReason = "account_disabled"

    /// Where the requests to the running server are queued.
    let jobs: JobQueue

    /// Administration of the database of `jobs`.
    public init(jobs: JobQueue) {
        self.jobs = jobs
    }

    /// The accounts whose address or username contains `search` (regardless of case), or all,
    /// newest first, at most `limit`.
    public func accounts(matching search: String?, limit: Int, in database: Database) throws -> [AdministeredAccount] {
        var sql = "SELECT \(AdministeredAccount.columns) FROM users"
        var arguments: [(any DatabaseValueConvertible)?] = []
        if let search, !search.isEmpty {
            // The keys are lowercased: the pattern is too, with LIKE's wildcards taken literally.
            let escaped = search.lowercased().replacing("\\", with: "\\\\").replacing("%", with: "\\%").replacing("_", with: "\\_")
            sql += " WHERE email_key LIKE ? ESCAPE '\\' OR username_key LIKE ? ESCAPE '\\'"
            arguments = ["%\(escaped)%", "%\(escaped)%"]
        }
        arguments.append(limit)
        return try database.decode(AdministeredAccount.self, sql + " ORDER BY created_at DESC, id DESC LIMIT ?", StatementArguments(arguments))
    }

    /// Disables the account with address `email`: it can no longer sign in or refresh, and every
    /// session it has ends now (the running server closes their connections when it runs the
    /// job this queues). Disabling a disabled account changes nothing.
    /// - Returns: The account, and how many sessions ended.
    /// - Throws: ``AdministrationError`` when no account has the address.
    public func disable(email: String, at now: Date, in database: Database) throws -> (AdministeredAccount, endedSessions: Int) {
        let account = try self.account(email: email, in: database)
        guard account.disabledAt == nil else { return (account, 0) }
        try database.execute("UPDATE users SET disabled_at = ?, updated_at = ? WHERE id = ?", [now, now, account.id])
        let owner = OwnerScope(Owner(administered: account.id), database)
        try owner.execute(
            "UPDATE sessions SET revoked_at = ?, revoked_reason = ? WHERE user_id = {owner} AND revoked_at IS NULL",
            [now, Self.disabledReason])
        let ended = database.changedRowCount
        try jobs.enqueue(kind: .accountAdministration, payload: AccountAdministrationJob.Payload(action: .endSessions, userID: account.id), in: database)
        return (try self.account(email: email, in: database), ended)
    }

    /// Lets the account with address `email` sign in again (its ended sessions stay ended).
    /// - Throws: ``AdministrationError`` when no account has the address.
    public func enable(email: String, at now: Date, in database: Database) throws -> AdministeredAccount {
        let account = try self.account(email: email, in: database)
        guard account.disabledAt != nil else { return account }
        try database.execute("UPDATE users SET disabled_at = NULL, updated_at = ? WHERE id = ?", [now, account.id])
        return try self.account(email: email, in: database)
    }

    /// Asks the running server (or the next one to start) to email the account with address
    /// `email` a password-reset link, the email the API's `requestPasswordReset` sends.
    /// - Returns: The account, and the id of the job that sends it.
    /// - Throws: ``AdministrationError`` when no account has the address.
    public func requestPasswordReset(email: String, in database: Database) throws -> (AdministeredAccount, job: Int64) {
        let account = try self.account(email: email, in: database)
        let job = try jobs.enqueue(
            kind: .accountAdministration, payload: AccountAdministrationJob.Payload(action: .passwordReset, userID: account.id), in: database)
        return (account, job)
    }

    /// The account with address `email`, regardless of case.
    private func account(email: String, in database: Database) throws -> AdministeredAccount {
        let key = email.trimmingWhitespace().lowercased()
        guard let account = try database.decodeOne(AdministeredAccount.self, "SELECT \(AdministeredAccount.columns) FROM users WHERE email_key = ?", [key])
        else { throw AdministrationError(message: "no account has the address \(email)") }
        return account
    }
}
