import FoundationEssentials
import HearthStore

extension JobKind {
    /// Does in the running server what `hearth admin` asked of an account (``AccountAdministrationJob``).
    public static let accountAdministration: JobKind = "accounts.admin"
}

/// The running server's part of `hearth admin` (``AccountAdministration``), which another
/// process queued: forgetting the sessions of a disabled account it holds in memory (its access
/// tokens stop working, its WebSocket connections close), or sending a password-reset email
/// with the server's link key, public base URL and mail transport.
///
/// Idempotent as the contract asks: ending sessions marks ended the sessions the database
/// already shows ended, which repeats to no change. A password reset run twice (a crash after
/// the email was queued, before the job was marked done) queues a second email whose link
/// replaces the first's: one link works, as after a second request of the API's reset.
public struct AccountAdministrationJob: JobHandler {
    /// What the administrator asked for, and for which account.
    struct Payload: Codable {
        var action: Action
        var userID: String
    }

    /// The server's part of an administration command.
    enum Action: String, Codable {
        /// `hearth admin disable`: forget the account's ended sessions.
        case endSessions = "end-sessions"
        /// `hearth admin reset-password`: email the account a reset link.
        case passwordReset = "password-reset"
    }

    let accounts: AccountService

    public var kind: JobKind { .accountAdministration }

    /// Carries out the job's action; an account deleted meanwhile needs nothing.
    public func run(_ job: Job) throws {
        let payload = try job.decodePayload(Payload.self)
        switch payload.action {
        case .endSessions: try accounts.endDisabledSessions(of: payload.userID)
        case .passwordReset: try accounts.queueAdministeredPasswordReset(for: payload.userID)
        }
    }
}

extension AccountService {
    /// The handler of the jobs `hearth admin` queues for the running server.
    public var administrationJob: AccountAdministrationJob { AccountAdministrationJob(accounts: self) }

    /// Tells the session directory and the sessions' observers (WebSocket connections) that the
    /// sessions `hearth admin disable` ended in the database are over.
    func endDisabledSessions(of userID: String) throws {
        // A write transaction only so that the other instances sharing the database hear of it.
        let ids = try pool.write { database in
            let ids = try OwnerScope(Owner(administered: userID), database)
                .query("SELECT id FROM sessions WHERE user_id = {owner} AND revoked_reason = ?", [AccountAdministration.disabledReason])
                .map { row -> String in try row["id"] }
            try Self.announceEnds(of: ids, in: database)
            return ids
        }
        sessions.ended(ids, .revoked)
        logger.info("account disabled by the administrator: sessions ended", ["user.id": userID, "sessions": String(ids.count)])
    }

    /// Queues the password-reset email `hearth admin reset-password` asked for.
    func queueAdministeredPasswordReset(for userID: String) throws {
        let now = clock.storedNow
        let sent = try pool.write { [self] database -> Bool in
            guard let user = try UserRecord.find(id: userID, in: database) else { return false }
            try queuePasswordReset(for: user, at: now, OwnerScope(Owner(administered: userID), database))
            return true
        }
        logger.info(sent ? "password reset queued by the administrator" : "password reset asked for an account that no longer exists", ["user.id": userID])
    }
}
