import FoundationEssentials
import GraphQL
import HearthServices

/// One `HouseholdEvent` of `schema.graphql`: an event of a household's topic as the
/// `householdEvents` subscription delivers it to one subscriber. Its `household` and `member`
/// fields are resolved when the event is delivered, with the subscriber's access at that moment
/// (see ``HouseholdResolvers``).
struct HouseholdEventValue: Sendable, FieldResolvable {
    /// The `HouseholdEventKind` names of the chore, tag and preset events, which carry a ``ChoreChange``.
    static let choreKindNames: [EventKind: String] = [
        .choreCreated: "CHORE_CREATED",
        .choreUpdated: "CHORE_UPDATED",
        .choreDeleted: "CHORE_DELETED",
        .tagCreated: "TAG_CREATED",
        .tagUpdated: "TAG_UPDATED",
        .tagDeleted: "TAG_DELETED",
        .chorePresetSaved: "CHORE_PRESET_SAVED",
        .chorePresetDeleted: "CHORE_PRESET_DELETED",
    ]

    /// The `HouseholdEventKind` names of the instance events, which carry a ``ChoreChange`` (planned)
    /// or a ``ChoreCompletionChange`` (completions).
    static let instanceKindNames: [EventKind: String] = [
        .choreInstancesPlanned: "CHORE_INSTANCES_PLANNED",
        .choreCompleted: "CHORE_COMPLETED",
        .choreCompletionUndone: "CHORE_COMPLETION_UNDONE",
        .choreCompletionApproved: "CHORE_COMPLETION_APPROVED",
        .choreCompletionRejected: "CHORE_COMPLETION_REJECTED",
    ]

    /// The `HouseholdEventKind` name of each event kind the subscription delivers. `household.created`
    /// is not among them (a subscription can only start once the household exists).
    static let kindNames: [EventKind: String] = choreKindNames.merging(instanceKindNames) { chore, _ in chore }.merging([
        .memberJoined: "MEMBER_JOINED",
        .memberInvited: "MEMBER_INVITED",
        .memberLeft: "MEMBER_LEFT",
        .memberRemoved: "MEMBER_REMOVED",
        .memberRoleChanged: "MEMBER_ROLE_CHANGED",
        .memberUpdated: "MEMBER_UPDATED",
        .memberVacationStarted: "MEMBER_VACATION_STARTED",
        .memberVacationEnded: "MEMBER_VACATION_ENDED",
        .householdUpdated: "HOUSEHOLD_UPDATED",
        .householdDeleted: "HOUSEHOLD_DELETED",
    ]) { chore, _ in chore }

    /// The change-log sequence.
    let sequence: Int64
    /// The `HouseholdEventKind` name.
    let kind: String
    /// What changed.
    let change: HouseholdChange
    /// For chore, tag and preset events (instance events too): which chore, tag or preset.
    let chores: ChoreChange?
    /// For completion events: which instance and completion.
    let completion: ChoreCompletionChange?
    /// When the change was committed.
    let at: Date
    /// Whether events were dropped before this one because the subscriber fell behind.
    let missedEvents: Bool
    /// Who the event is delivered to: the `household` and `member` fields are what they may see now.
    let subscriber: Viewer

    /// The value of `event` for `subscriber`, or `nil` when it is not an event the subscription
    /// delivers.
    /// - Throws: `DecodingError` when the payload of a household event is not a ``HouseholdChange``.
    init?(_ event: Event, missedEvents: Bool, subscriber: Viewer) throws {
        guard let kind = Self.kindNames[event.kind] else { return nil }
        let change = try event.payload.decode(HouseholdChange.self)
        let isInstanceEvent = Self.instanceKindNames[event.kind] != nil
        chores = Self.choreKindNames[event.kind] == nil && !isInstanceEvent ? nil : try event.payload.decode(ChoreChange.self)
        completion = isInstanceEvent && event.kind != .choreInstancesPlanned ? try event.payload.decode(ChoreCompletionChange.self) : nil
        sequence = event.sequence
        self.kind = kind
        self.change = change
        at = event.committedAt
        self.missedEvents = missedEvents
        self.subscriber = subscriber
    }

    /// The `HouseholdEvent` fields read from the event itself.
    func fieldValue(named name: String) -> Any? {
        switch name {
        case "sequence": String(sequence)
        case "kind": kind
        case "householdId": change.householdID
        case "memberId": change.memberID
        case "incompleteTasks": change.incompleteTasks.map { GraphQLEnum.name(of: $0) }
        case "choreId": chores?.choreID
        case "tagId": chores?.tagID
        case "presetId": chores?.presetID
        case "instanceId": completion?.instanceID
        case "completionId": completion?.completionID
        case "at": at
        case "missedEvents": missedEvents
        default: nil
        }
    }
}
