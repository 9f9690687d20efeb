import FoundationEssentials

/// A row of the jobs table (migration 0008): one piece of timed or background work and where
/// it is in its life. See ``JobQueue`` for how jobs are made and ``JobScheduler`` for how they run.
public struct Job: Sendable, Hashable, Decodable {
    /// Where a job is in its life.
    public enum State: String, Sendable, Hashable, CaseIterable, Decodable {
        /// Waiting for its due time (its first attempt, or a retry after a failure).
        case pending
        /// Leased by a worker (``Job/leaseOwner``) until ``Job/leaseExpiresAt``; a worker that
        /// dies leaves it here, and it runs again once the lease expires.
        case running
        /// Finished: its handler returned.
        case done
        /// Given up: failed permanently, or out of attempts. `hearth jobs retry` revives it.
        case dead
    }

    /// The job's id, increasing with enqueue order and never reused.
    public var id: Int64
    /// Which handler runs it.
    public var kind: JobKind
    /// The handler's input, as JSON text (see ``decodePayload(_:)``).
    public var payload: String
    /// Unique per kind while the row exists: enqueueing the same key again adds nothing.
    public var dedupeKey: String?
    /// Where it is in its life.
    public var state: State
    /// When it may run (the first attempt, or the next one after a failure).
    public var dueAt: Date
    /// Attempts begun so far, this one included while it runs (counted when leased, so a job
    /// that keeps killing its worker is still given up after the configured number).
    public var attempts: Int
    /// The worker holding the lease while it runs.
    public var leaseOwner: String?
    /// When the lease ends unless renewed: after that another worker may run the job again.
    public var leaseExpiresAt: Date?
    /// Why the last attempt failed, if it did.
    public var lastError: String?
    /// When it was enqueued.
    public var createdAt: Date
    /// When its row last changed (for finished jobs: when they finished).
    public var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, kind, payload, state, attempts
        case dedupeKey = "dedupe_key", dueAt = "due_at", leaseOwner = "lease_owner", leaseExpiresAt = "lease_expires_at"
        case lastError = "last_error", createdAt = "created_at", updatedAt = "updated_at"
    }

    /// The payload decoded as `type`.
    /// - Throws: `DecodingError` when the payload does not have that shape.
    public func decodePayload<Payload: Decodable>(_ type: Payload.Type) throws -> Payload {
        try JSONDecoder().decode(Payload.self, from: Data(payload.utf8))
    }
}
