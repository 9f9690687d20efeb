import FoundationEssentials
import GraphQL
import HearthServices

/// One `ChoreEvent` of `schema.graphql`: an event of a household's topic as the `choreEvents`
/// subscription delivers it to one member. Its `chore`, `instance` and `member` fields are
/// resolved when the event is delivered, with the subscriber's access at that moment.
struct ChoreEventValue: Sendable, FieldResolvable {
    /// The `ChoreEventKind` name of each event kind the subscription delivers.
    static let kindNames: [EventKind: String] = [
        .choreCreated: "CHORE_CREATED",
        .choreUpdated: "CHORE_UPDATED",
        .choreDeleted: "CHORE_DELETED",
        .choreInstanceCreated: "INSTANCE_CREATED",
        .choreInstanceChanged: "INSTANCE_CHANGED",
        .choreInstanceCancelled: "INSTANCE_CANCELLED",
        .choreInstanceRemoved: "INSTANCE_REMOVED",
        .choreInstanceOffered: "OFFERED",
        .choreInstanceClaimed: "CLAIMED",
        .choreInstanceReleased: "RELEASED",
        .choreCompleted: "COMPLETED",
        .choreCompletionUndone: "COMPLETION_UNDONE",
        .choreCompletionApproved: "APPROVED",
        .choreCompletionRejected: "REJECTED",
        .choreInstancePaused: "PAUSED",
        .choreInstanceResumed: "RESUMED",
        .choreInstanceReassigned: "REASSIGNED",
    ]

    /// The change-log sequence: the cursor to resume after.
    let sequence: Int64
    /// The `ChoreEventKind` name.
    let kind: String
    let householdID: String
    let choreID: String?
    let instanceID: String?
    let completionID: String?
    /// The member concerned: the claimant, whose claim was released, whose completion, whose absence
    /// paused an instance, who holds it after a resume or a reassignment.
    let memberID: String?
    /// For `CLAIMED`: whether it had been offered to the subscriber, who dismisses the offer.
    let dismissesOffer: Bool
    let at: Date
    let missedEvents: Bool
    /// Who the event is delivered to: `chore`, `instance` and `member` are what they may see now.
    let subscriber: Viewer

    /// The value of `event` for `subscriber` (`member` in the household), or `nil` when the
    /// subscription does not deliver it to them: not a chore event, or an offer made to others.
    /// - Throws: `DecodingError` when the payload is not the kind's.
    init?(_ event: Event, missedEvents: Bool, subscriber: Viewer, member: MemberRecord) throws {
        guard let kind = Self.kindNames[event.kind] else { return nil }
        var instanceID: String?, completionID: String?, memberID: String?, householdID: String?, choreID: String?
        var dismissesOffer = false
        if Self.completionKinds.contains(event.kind) {
            let completion = try event.payload.decode(ChoreCompletionChange.self)
            (householdID, choreID, instanceID, completionID, memberID) =
                (completion.householdID, completion.choreID, completion.instanceID, completion.completionID, completion.memberID)
        } else if Self.instanceKinds.contains(event.kind) {
            let change = try event.payload.decode(ChoreInstanceChange.self)
            (householdID, choreID, instanceID) = (change.householdID, change.choreID, change.instanceID)
            let concerned = change.memberIDs ?? []
            switch event.kind {
            case .choreInstanceOffered:
                guard concerned.contains(member.id) else { return nil }
            case .choreInstanceClaimed:
                memberID = change.memberID
                dismissesOffer = concerned.contains(member.id)
            case .choreInstanceReleased:
                memberID = change.claimantID
            case .choreInstancePaused, .choreInstanceResumed, .choreInstanceReassigned:
                memberID = change.memberID
            default:
                break
            }
        } else {
            let change = try event.payload.decode(ChoreChange.self)
            (householdID, choreID) = (change.householdID, change.choreID)
        }
        sequence = event.sequence
        self.kind = kind
        self.householdID = householdID ?? member.householdID
        self.choreID = choreID
        self.instanceID = instanceID
        self.completionID = completionID
        self.memberID = memberID
        self.dismissesOffer = dismissesOffer
        at = event.committedAt
        self.missedEvents = missedEvents
        self.subscriber = subscriber
    }

    /// The chore, instance and completion an event of a kind the subscription delivers concerns
    /// (what `sharedChoreEvents` reads, which has no member to deliver offers to); `nil` for
    /// other kinds.
    /// - Throws: `DecodingError` when the payload is not the kind's.
    static func subject(of event: Event) throws -> (choreID: String?, instanceID: String?, completionID: String?)? {
        guard kindNames[event.kind] != nil else { return nil }
        if completionKinds.contains(event.kind) {
            let completion = try event.payload.decode(ChoreCompletionChange.self)
            return (completion.choreID, completion.instanceID, completion.completionID)
        }
        if instanceKinds.contains(event.kind) {
            let change = try event.payload.decode(ChoreInstanceChange.self)
            return (change.choreID, change.instanceID, nil)
        }
        return (try event.payload.decode(ChoreChange.self).choreID, nil, nil)
    }

    /// The kinds whose payload is a ``ChoreCompletionChange``.
    private static let completionKinds: Set<EventKind> = [.choreCompleted, .choreCompletionUndone, .choreCompletionApproved, .choreCompletionRejected]
    /// The kinds whose payload is a ``ChoreInstanceChange``.
    private static let instanceKinds: Set<EventKind> = [
        .choreInstanceCreated, .choreInstanceChanged, .choreInstanceCancelled, .choreInstanceRemoved, .choreInstanceOffered,
        .choreInstanceClaimed, .choreInstanceReleased, .choreInstancePaused, .choreInstanceResumed, .choreInstanceReassigned,
    ]

    /// The `ChoreEvent` fields read from the event itself.
    func fieldValue(named name: String) -> Any? {
        switch name {
        case "sequence": String(sequence)
        case "kind": kind
        case "householdId": householdID
        case "choreId": choreID
        case "instanceId": instanceID
        case "completionId": completionID
        case "memberId": memberID
        case "dismissesOffer": dismissesOffer
        case "at": at
        case "missedEvents": missedEvents
        default: nil
        }
    }
}
