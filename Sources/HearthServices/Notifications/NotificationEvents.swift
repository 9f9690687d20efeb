import HearthStore

extension EventKind {
    /// A notice was delivered on the live stream: the payload is the ``Notice``, on its user's topic.
    public static let notificationCreated: EventKind = "notification.created"
    /// A notice was withdrawn (someone else claimed its instance, FR-52): the payload is the
    /// ``Notice``, whose ``Notice/tag`` names what to dismiss, on its user's topic.
    public static let notificationDismissed: EventKind = "notification.dismissed"
}

/// The live channel: a notice, and its withdrawal, recorded on its user's topic of the change log
/// in the transaction that makes it, so the `notifications` subscription delivers it after commit
/// to every connected client of theirs. Idempotent: it is told once per notice (``Notifier``).
public struct LiveNotificationChannel: NotificationChannel {
    /// The change log the events are recorded in.
    public let changeLog: ChangeLog

    /// The live channel over `changeLog`.
    public init(changeLog: ChangeLog) {
        self.changeLog = changeLog
    }

    public var kind: NotificationChannelKind { .live }

    public func deliver(_ notice: Notice, in database: Database) throws {
        try changeLog.record(topic: .user(notice.userID), kind: .notificationCreated, payload: notice, in: database)
    }

    public func withdraw(_ notice: Notice, in database: Database) throws {
        try changeLog.record(topic: .user(notice.userID), kind: .notificationDismissed, payload: notice, in: database)
    }
}
