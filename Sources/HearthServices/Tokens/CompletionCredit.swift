/// What a completion earns, as ``TokenCredits/credit(completion:recordedBy:in:at:)`` takes it (read
/// from the chore tables by ``TokenCredits/earnings(ofCompletion:_:)``): the chore's tokens and the
/// members who may share them. Which of them get the tokens, and how many each, the household's
/// `earningsSplit` decides
/// (``TokenSplit/recipients(_:completer:assignees:participants:)`` and
/// ``TokenSplit/apportion(_:weights:seed:)``).
struct CompletionCredit: Sendable, Hashable {
    /// The completion; crediting and reversing are idempotent by it.
    var completionID: String
    /// Its chore.
    var choreID: String
    /// The chore's reward in whole tokens (not negative).
    var tokens: Int
    /// The member the completion is recorded for (the child, when a parent recorded it for them).
    var completerID: String
    /// The members the instance is assigned to; empty when it is unassigned.
    var assigneeIDs: [String]
    /// Everyone who took part (the members who did steps, a group's members); may omit the completer.
    var participantIDs: [String]

    /// Creates the description.
    init(completionID: String, choreID: String, tokens: Int, completerID: String, assigneeIDs: [String] = [], participantIDs: [String] = []) {
        self.completionID = completionID
        self.choreID = choreID
        self.tokens = tokens
        self.completerID = completerID
        self.assigneeIDs = assigneeIDs
        self.participantIDs = participantIDs
    }
}
