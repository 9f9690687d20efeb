import HearthStore
import Support

/// What one server instance does with what the other instances sharing its database tell it
/// (PostgreSQL `LISTEN`/`NOTIFY` on one dedicated connection, ``PostgresNotificationListener``):
///
/// | channel | sent by | payload | here |
/// |---|---|---|---|
/// | ``commitsChannel`` | every write transaction (``SharedDatabaseWriter``), first | the instance's id | another instance's commit moves the store's commit count (`PostgresStore.advanceCommitCount()`): the caches over it drop what they hold |
/// | ``ChangeLog/notificationChannel`` | each recorded change | its sequence | wakes the ``ChangeLogRelay`` unless it delivered that sequence already |
/// | ``SessionDirectory/endsChannel`` | each revocation | the session ids | marks them revoked and tells their WebSocket connections |
///
/// PostgreSQL delivers a transaction's notifications when it commits, in the order they were
/// sent, and transactions' in commit order; so a commit's count moves here before the relay
/// is woken for its changes, and subscribers woken by them read through caches that already
/// dropped what the commit changed.
///
/// While the listening connection is down, notifications are lost. After every (re)connect
/// the instance therefore assumes it missed everything: the count moves, the session
/// directory forgets its entries (they reload from the database), and the relay reads the
/// change log after its cursor, which loses nothing, since the log is the record and the
/// notifications only wake it.
public struct InstanceNotifications: Sendable {
    /// The channel on which each write transaction announces itself.
    public static let commitsChannel = "hearth_commits"

    /// Every channel an instance listens on.
    public static let channels = [commitsChannel, ChangeLog.notificationChannel, SessionDirectory.endsChannel]

    /// This instance's id, which its own announcements carry (they move no count here).
    public let instanceID: String
    let countCommitElsewhere: @Sendable () -> Void
    let relay: ChangeLogRelay
    let sessions: SessionDirectory
    let logger: Logger

    /// The handling of notifications for the instance `instanceID`, whose subscribers are fed
    /// by `relay` and whose sessions `sessions` caches.
    /// - Parameter countCommitElsewhere: moves the store's commit count for a commit of another
    ///   instance (`PostgresStore.advanceCommitCount()`).
    public init(
        instanceID: String, countCommitElsewhere: @escaping @Sendable () -> Void, relay: ChangeLogRelay, sessions: SessionDirectory,
        logger: Logger
    ) {
        self.instanceID = instanceID
        self.countCommitElsewhere = countCommitElsewhere
        self.relay = relay
        self.sessions = sessions
        self.logger = logger
    }

    /// What the instance's ``SharedDatabaseWriter`` runs first in each write transaction.
    public static func announcement(of instanceID: String) -> @Sendable (Database) throws -> Void {
        { database in try database.notify(channel: commitsChannel, payload: instanceID) }
    }

    /// Acts on one signal of the listener. Never waits.
    public func handle(_ signal: PostgresNotificationListener.Signal) {
        switch signal {
        case .connected:
            countCommitElsewhere()
            sessions.forgetAll()
            relay.wake()
        case .failed(let message, let retryAfter):
            logger.warning("listening for other instances' commits failed", ["error": message, "retry.after": "\(retryAfter)"])
        case .notification(let channel, let payload):
            switch channel {
            case Self.commitsChannel:
                if payload != instanceID { countCommitElsewhere() }
            case ChangeLog.notificationChannel:
                if let sequence = Int64(payload), sequence <= relay.deliveredSequence { return }
                relay.wake()
            case SessionDirectory.endsChannel:
                sessions.endedElsewhere(payload.split(separator: ",").map(String.init))
            default:
                break
            }
        }
    }
}
