import GraphQL

/// What the server acknowledged, in its commit order: the value each field of each object must have
/// now (last writer wins), what was deleted (deletes win) and which completion counts for each
/// instance (the first), so a lost write fails the simulation.
struct AcknowledgedWrites {
    /// The last acknowledged value of each plain field, by object id.
    private(set) var fields: [String: [String: JSON]] = [:]
    /// The objects an acknowledged delete removed (a habit's events and a chore's instances with it).
    private(set) var deleted: Set<String> = []
    /// The `clientMutationId`s acknowledged once: a replay answers the first result and changes nothing.
    private var acknowledged: Set<String> = []
    /// The completion each acknowledged `completeChore` answered, by `clientMutationId`: its replays answer the same.
    private var answeredCompletions: [String: String] = [:]
    /// Objects whose creation was refused (and never acknowledged): they never existed.
    private var neverCreated: Set<String> = []
    /// The objects that belong to each object (a habit's events, a chore's instances), which its delete removes too.
    private var children: [String: Set<String>] = [:]
    /// The completion that counts for each instance acknowledged completed and not undone since.
    private var countedCompletions: [String: String] = [:]

    /// Records that the server refused `write`: when it was a creation, its object never existed.
    mutating func refuse(_ write: QueuedWrite) {
        if write.creates, fields[write.subject] == nil { neverCreated.insert(write.subject) }
    }

    /// Whether `id` names an object whose creation was refused: a later write of it depends on a
    /// failed creation and fails on its own (`NOT_FOUND`, nothing to say it was deleted).
    func wasNeverCreated(_ id: String) -> Bool { neverCreated.contains(id) && fields[id] == nil }

    /// Whether `write` was acknowledged before: sending it again is a replay.
    func isReplay(_ write: QueuedWrite) -> Bool { acknowledged.contains(write.clientMutationID) }

    /// Whether an acknowledged delete removed `id`.
    func isDeleted(_ id: String) -> Bool { deleted.contains(id) }

    /// What is wrong with `answer` (the mutation's field of a successful replay of `write`): a
    /// replay answers the first result, so a completion's names the same completion.
    func replayProblems(_ write: QueuedWrite, answer: JSON?) -> [String] {
        guard case .complete = write.effect, let first = answeredCompletions[write.clientMutationID] else { return [] }
        let again = answer?["completion"]?["id"]?.stringValue
        return again == first ? [] : ["replay of \(write.clientMutationID) answered completion \(again ?? "none"), first \(first)"]
    }

    /// Records that the server acknowledged `write` (the first time only) with `answer`, the
    /// mutation's field of the response; what contradicts the conflict policy, one line each.
    mutating func acknowledge(_ write: QueuedWrite, answer: JSON?) -> [String] {
        guard acknowledged.insert(write.clientMutationID).inserted else { return [] }
        if let parent = write.parent { children[parent, default: []].insert(write.subject) }
        switch write.effect {
        case .create(let values):
            fields[write.subject, default: [:]].merge(values) { first, _ in first }
        case .update(let field, let value):
            fields[write.subject, default: [:]][field] = value
        case .delete:
            deleted.insert(write.subject)
            deleted.formUnion(children[write.subject] ?? [])
        case .complete:
            return completed(write, answer: answer)
        case .uncomplete:
            return undone(write, answer: answer)
        }
        return []
    }

    /// An acknowledged completion: the instance is completed by the completion the answer names,
    /// which is the one that already counted when there was one (`ALREADY_COMPLETED`).
    private mutating func completed(_ write: QueuedWrite, answer: JSON?) -> [String] {
        guard let completion = answer?["completion"]?["id"]?.stringValue else { return ["\(write.clientMutationID) answered no completion: \(answer ?? .null)"] }
        answeredCompletions[write.clientMutationID] = completion
        let counted = countedCompletions[write.subject]
        let outcome = answer?["outcome"]?.stringValue
        countedCompletions[write.subject] = completion
        fields[write.subject, default: [:]]["status"] = "COMPLETED"
        fields[completion, default: [:]]["completionStatus"] = "COMPLETED"
        switch (counted, outcome) {
        case (nil, "COMPLETED"): return []
        case (let counted?, "ALREADY_COMPLETED") where counted == completion: return []
        default:
            return ["\(write.clientMutationID) of \(write.subject): \(outcome ?? "no outcome") with \(completion), the completion that counts is \(counted ?? "none")"]
        }
    }

    /// An acknowledged undo: the instance is pending again and the completion that counted is undone.
    private mutating func undone(_ write: QueuedWrite, answer: JSON?) -> [String] {
        let undone = answer?["undoneCompletion"]?["id"]?.stringValue
        let counted = countedCompletions.removeValue(forKey: write.subject)
        fields[write.subject, default: [:]]["status"] = "PENDING"
        if let undone { fields[undone, default: [:]]["completionStatus"] = "UNDONE" }
        return undone != nil && undone == counted ? [] : ["\(write.clientMutationID) of \(write.subject) undid \(undone ?? "nothing"), the completion that counted is \(counted ?? "none")"]
    }

    /// What `truth` (node by id, the union of every user's full resync) misses or contradicts: one
    /// line per lost write, empty when every acknowledged write is there.
    func losses(in truth: [String: JSON]) -> [String] {
        var losses: [String] = []
        for (id, values) in fields.sorted(by: { $0.key < $1.key }) where !deleted.contains(id) {
            guard let node = truth[id] else {
                losses.append("\(id): acknowledged, never deleted, missing")
                continue
            }
            for (field, value) in values.sorted(by: { $0.key < $1.key }) where (node[field] ?? .null) != value {
                losses.append("\(id).\(field): acknowledged \(value), server has \(node[field] ?? .null)")
            }
        }
        for id in deleted.sorted() where truth[id] != nil { losses.append("\(id): deleted, still there") }
        return losses
    }
}
