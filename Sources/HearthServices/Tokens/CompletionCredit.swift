/// What a completion earns, as the chore instances describe it to ``TokenService``'s
/// `credit(completion:…)`: the chore's tokens and the members who may share them. Which of them
/// get the tokens, and how many each, the household's `earningsSplit` decides
/// (``TokenSplit/recipients(_:completer:assignees:participants:)`` and
/// ``TokenSplit/apportion(_:weights:seed:)``).
public struct CompletionCredit: Sendable, Hashable, Codable {
    /// The completion; crediting and reversing are idempotent by it.
    public var completionID: String
    /// Its chore.
    public var choreID: String
    /// The chore's reward in whole tokens (not negative).
    public var tokens: Int
    /// The member the completion is recorded for (the child, when a parent recorded it for them).
    public var completerID: String
    /// The members the instance is assigned to; empty when it is unassigned.
    public var assigneeIDs: [String]
    /// Everyone who took part (the members who did steps, a group's members); may omit the completer.
    public var participantIDs: [String]

    /// Creates the description.
    public init(completionID: String, choreID: String, tokens: Int, completerID: String, assigneeIDs: [String] = [], participantIDs: [String] = []) {
        self.completionID = completionID
        self.choreID = choreID
        self.tokens = tokens
        self.completerID = completerID
        self.assigneeIDs = assigneeIDs
        self.participantIDs = participantIDs
    }
}

/// A completion as approving or rejecting it needs it (``ChoreCompletionStore``).
struct ReviewableCompletion: Sendable, Hashable {
    /// Whether it waits for an admin's decision (`PENDING_APPROVAL`); any other state is final.
    var isPendingApproval: Bool
    /// What approving it credits.
    var credit: CompletionCredit
}
