/// Where a chore instance stands. Stored as the raw value (`chore_instances.status`), but for
/// ``paused``, which is stored as `pending` with a pause time (still open: planning keeps it and a
/// completion finishes it).
public enum ChoreInstanceStatus: String, Sendable, CaseIterable, Codable {
    /// To do; steps of a multi-step chore may be done already.
    case pending
    /// To do, but waiting: the member it is for is away and nobody eligible took it (vacation mode,
    /// FR-22). Not offered, not in the lists of what is due; it resumes when someone is available.
    case paused
    /// Done, and waiting for an admin's approval (a chore with `requiresApproval`).
    case pendingApproval = "pending_approval"
    /// Done.
    case completed
    /// Its chore was deleted before it was done (FR-34); kept for the record.
    case cancelled
    /// A one-off chore's instance once past due without being done (FR-37); kept in history.
    case archived

    /// Whether it is finished for good or for now: nobody completes it again unless it reopens.
    public var isDone: Bool { self == .completed || self == .pendingApproval }
    /// Whether it can no longer be completed.
    public var isClosed: Bool { self == .cancelled || self == .archived }
}

/// Where one completion stands. Stored as the raw value (`chore_completions.status`).
public enum ChoreCompletionStatus: String, Sendable, CaseIterable, Codable {
    /// Counted: done (and approved, when approval was needed).
    case completed
    /// Waiting for an admin's approval.
    case pendingApproval = "pending_approval"
    /// An admin rejected it; the instance reopened.
    case rejected
    /// Undone (a mistap, or an admin's correction); the instance reopened.
    case undone

    /// Whether it stands: shown in history and blocking a second completion of the same step.
    public var isLive: Bool { self == .completed || self == .pendingApproval }
}
