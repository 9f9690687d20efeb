/// How long each kind of log-like data is kept (its horizon), how often the retention job
/// runs, and how much one of its transactions deletes. The defaults are documented in the
/// README's "Retention" table; `hearth serve` reads each from a flag.
///
/// Horizons depend on one another (``relations``): ``violations()`` names every pair the
/// configuration breaks, and the server refuses to start with them.
public struct RetentionPolicy: Sendable, Hashable {
    /// What retention prunes, each on its own horizon.
    public enum Subject: String, Sendable, Hashable, CaseIterable {
        /// `change_log` rows, by when they were committed. The horizon is a contract: a cursor
        /// older than it gets `CURSOR_EXPIRED`.
        case changeLog = "change_log"
        /// Sent and failed messages of `mail_outbox`, by when they were enqueued (pending ones
        /// stay until delivered or given up).
        case mail = "mail_outbox"
        /// Ended sessions (signed out, revoked, or past their refresh token's expiry), by when
        /// they ended, with their spent refresh tokens. A live session keeps its spent tokens:
        /// presenting one again is how token theft is caught.
        case sessions
        /// Used or expired `email_tokens`, by when they were used or expired, once no mail
        /// refers to them.
        case emailTokens = "email_tokens"
        /// Expired invitations (accepted, declined and revoked ones are deleted at once), by
        /// when they expired, once no mail refers to them; the invited member record goes with
        /// them (`member.removed`, as a revocation).
        case invitations
        /// `mutation_replays`, by when the mutation ran.
        case mutationReplays = "mutation_replays"
        /// `tombstones` of deleted objects, by when they were deleted, with the `client_ids` rows of
        /// those objects. After this, a client id of a deleted object may be used again (a client
        /// that old resyncs in full: its cursor has expired).
        case tombstones
        /// `analytics_events`, by when they occurred.
        case analyticsEvents = "analytics_events"
        /// Finished jobs (done or dead), by when they finished.
        case jobs
        /// `notifications` (reminders and other notices, read or not), by when they were made.
        case notifications
    }

    /// A rule between two horizons: ``longer``'s is at least ``shorter``'s.
    public struct Relation: Sendable, Hashable {
        /// The subject whose horizon must not be shorter.
        public var longer: Subject
        /// The subject it is compared with.
        public var shorter: Subject
        /// Why, for the error message.
        public var reason: String
    }

    /// Every rule between horizons.
    public static let relations: [Relation] = [
        Relation(
            longer: .mutationReplays, shorter: .changeLog,
            reason: "a client that catches up by cursor may then resend the mutations it queued offline, and a resend must "
                + "still be recognised (its clientMutationId remembered) for as long as the cursor is valid"),
        Relation(
            longer: .tombstones, shorter: .changeLog,
            reason: "a client catching up by cursor learns of deletions from tombstones, and a retry of a create whose object was "
                + "deleted must not make it again, for as long as the cursor is valid"),
        Relation(
            longer: .invitations, shorter: .mail,
            reason: "an expired invitation is pruned only once no mail refers to it, so a shorter horizon would not be kept"),
        Relation(
            longer: .emailTokens, shorter: .mail,
            reason: "an email token is pruned only once no mail refers to it, so a shorter horizon would not be kept"),
    ]

    /// The defaults: 30 days for most, 400 days for analytics (a year-on-year comparison needs
    /// more than a year), 14 days for finished jobs, 90 days for notifications.
    public static let defaultHorizons: [Subject: Duration] = [
        .changeLog: .days(30), .mail: .days(30), .sessions: .days(30), .emailTokens: .days(30), .invitations: .days(30),
        .mutationReplays: .days(30), .tombstones: .days(30), .analyticsEvents: .days(400), .jobs: .days(14),
        .notifications: .days(90),
    ]

    /// The horizon of every subject.
    public private(set) var horizons: [Subject: Duration]
    /// Time between runs of the retention job; 1 hour by default. A row goes at most this
    /// long after its horizon.
    public var interval: Duration
    /// Rows deleted per transaction; 500 by default. A run deletes batch after batch, each in
    /// a transaction of its own, so it never holds the writer for long.
    public var batchSize: Int

    /// The defaults, or the given values.
    public init(interval: Duration = .seconds(3600), batchSize: Int = 500) {
        precondition(interval > .zero && batchSize >= 1, "retention runs now and then and deletes something each time")
        horizons = Self.defaultHorizons
        self.interval = interval
        self.batchSize = batchSize
    }

    /// The horizon of `subject`.
    public subscript(subject: Subject) -> Duration {
        get { horizons[subject]! }
        set {
            precondition(newValue > .zero, "a horizon is positive")
            horizons[subject] = newValue
        }
    }

    /// The relations this policy breaks, in ``relations`` order; empty when it is consistent.
    public func violations() -> [Relation] {
        Self.relations.filter { self[$0.longer] < self[$0.shorter] }
    }
}

extension Duration {
    /// `count` days.
    static func days(_ count: Int) -> Duration { .seconds(count * 86_400) }
}
