import FoundationEssentials

extension EventKind {
    /// Planning wrote an instance (up to the horizon, or after a recalculation): ``ChoreInstanceChange``.
    public static let choreInstanceCreated: EventKind = "chore_instance.created"
    /// An instance changed without a completion or a claim: a one-off chore's instance was archived
    /// past its due day (FR-37).
    public static let choreInstanceChanged: EventKind = "chore_instance.changed"
    /// An instance's chore was deleted before it was done (FR-34): it stays, cancelled.
    public static let choreInstanceCancelled: EventKind = "chore_instance.cancelled"
    /// Recalculation removed an instance that was not started: the chore's schedule or members no
    /// longer produce it (an edit, a departure, a new time zone).
    public static let choreInstanceRemoved: EventKind = "chore_instance.removed"
    /// A due shared instance was offered to its eligible members (FR-51; again after a release,
    /// FR-53): ``ChoreInstanceChange/memberIDs`` are the members it is offered to. Push
    /// notifications will use the same event.
    public static let choreInstanceOffered: EventKind = "chore_instance.offered"
    /// A member claimed a shared instance (FR-52): ``ChoreInstanceChange/memberID`` is the
    /// claimant, ``ChoreInstanceChange/memberIDs`` the other eligible members, whose offers are dismissed.
    public static let choreInstanceClaimed: EventKind = "chore_instance.claimed"
    /// A claim was released (FR-53): ``ChoreInstanceChange/memberID`` released it,
    /// ``ChoreInstanceChange/claimantID`` had claimed it. An offer to the others follows when the
    /// instance is due.
    public static let choreInstanceReleased: EventKind = "chore_instance.released"
}

/// The payload of the per-instance events (created, changed, cancelled, removed, offered, claimed,
/// released): whose chore, which instance, and who is concerned.
public struct ChoreInstanceChange: Codable, Sendable, Equatable {
    /// The household, for a household chore.
    public var householdID: String?
    /// The owner, for a personal chore.
    public var userID: String?
    /// The chore.
    public var choreID: String
    /// The instance.
    public var instanceID: String
    /// Who acted: the claimant of a claim, who released a claim.
    public var memberID: String?
    /// For a release: whose claim it was.
    public var claimantID: String?
    /// For an offer: the members it is offered to; for a claim: the other eligible members.
    public var memberIDs: [String]?

    /// The payload about `instance`.
    init(_ instance: ChoreInstanceRecord, memberID: String? = nil, claimantID: String? = nil, memberIDs: [String]? = nil) {
        householdID = instance.householdID
        userID = instance.ownerID
        choreID = instance.choreID
        instanceID = instance.id
        self.memberID = memberID
        self.claimantID = claimantID
        self.memberIDs = memberIDs
    }
}

extension ChoreService {
    /// Records the per-instance event `kind` about `change` on its chore's topic.
    func record(instance change: ChoreInstanceChange, kind: EventKind, _ scope: ChoreScope) throws {
        try households.changeLog.record(topic: scope.access.topic, kind: kind, payload: change, in: scope.database)
    }
}

extension ChoreInstanceChange: ChangeSubjects {
    /// The instance.
    public var touchedObjectIDs: [String] { [instanceID] }
}
