import FoundationEssentials
import HearthDomain

extension EventKind {
    /// A chore's instances changed without a completion: written up to the horizon, recalculated
    /// after an edit or a member's joining or leaving, archived (FR-37), cancelled (FR-34). The
    /// payload (``ChoreChange``) names the chore: read its instances again.
    public static let choreInstancesPlanned: EventKind = "chore_instance.planned"
    /// A completion was recorded (FR-35): of a step or of a whole instance, completed or waiting
    /// for approval (``ChoreCompletionChange``).
    public static let choreCompleted: EventKind = "chore_instance.completed"
    /// A completion was undone (`uncompleteChore`); the instance is pending again.
    public static let choreCompletionUndone: EventKind = "chore_instance.completion_undone"
    /// A completion waiting for approval was approved (the token economy's seam).
    public static let choreCompletionApproved: EventKind = "chore_instance.completion_approved"
    /// A completion waiting for approval was rejected; the instance is pending again.
    public static let choreCompletionRejected: EventKind = "chore_instance.completion_rejected"
}

/// The payload of the completion events: whose chore (a household, or one user for a personal
/// chore), which instance and completion, whose completion, and where it stands. What the token
/// economy credits or reverses and leaderboards count.
public struct ChoreCompletionChange: Codable, Sendable, Equatable {
    /// The household, for a household chore.
    public var householdID: String?
    /// The owner, for a personal chore.
    public var userID: String?
    /// The chore.
    public var choreID: String
    /// The instance.
    public var instanceID: String
    /// The completion.
    public var completionID: String
    /// Whose completion it is (a household chore).
    public var memberID: String?
    /// The step, for a step's completion.
    public var stepID: String?
    /// Whether it finished the instance.
    public var isFinal: Bool
    /// Where the completion stands now.
    public var status: ChoreCompletionStatus

    /// The payload of `completion`.
    init(_ completion: ChoreCompletionRecord) {
        householdID = completion.householdID
        userID = completion.ownerID
        choreID = completion.choreID
        instanceID = completion.instanceID
        completionID = completion.id
        memberID = completion.memberID
        stepID = completion.step?.id
        isFinal = completion.isFinal
        status = completion.status
    }
}

extension ChoreCompletionChange: ChangeSubjects {
    /// The completion and its instance, whose status follows it.
    public var touchedObjectIDs: [String] { [completionID, instanceID] }
}
