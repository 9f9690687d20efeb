import GraphQL

/// What the server acknowledged, in its commit order: the value each field of each object must have
/// now (last writer wins) and what was deleted (deletes win), so a lost write fails the simulation.
struct AcknowledgedWrites {
    /// The last acknowledged value of each plain field, by object id.
    private(set) var fields: [String: [String: JSON]] = [:]
    /// The objects an acknowledged delete removed (a habit's events with it).
    private(set) var deleted: Set<String> = []
    /// The `clientMutationId`s acknowledged once: a replay answers the first result and changes nothing.
    private var acknowledged: Set<String> = []
    /// Objects whose creation was refused (and never acknowledged): they never existed.
    private var neverCreated: Set<String> = []
    /// The events of each habit, which its delete removes too.
    private var events: [String: Set<String>] = [:]

    /// Records that the server refused `write`: when it was a creation, its object never existed.
    mutating func refuse(_ write: QueuedWrite) {
        if case .create = write.effect, fields[write.subject] == nil { neverCreated.insert(write.subject) }
    }

    /// Whether `id` names an object whose creation was refused: a later write of it depends on a
    /// failed creation and fails on its own (`NOT_FOUND`, nothing to say it was deleted).
    func wasNeverCreated(_ id: String) -> Bool { neverCreated.contains(id) && fields[id] == nil }

    /// Records that the server acknowledged `write` (the first time only).
    mutating func acknowledge(_ write: QueuedWrite) {
        guard acknowledged.insert(write.clientMutationID).inserted else { return }
        switch write.effect {
        case .create(let values, let habit):
            fields[write.subject, default: [:]].merge(values) { first, _ in first }
            if let habit { events[habit, default: []].insert(write.subject) }
        case .update(let field, let value):
            fields[write.subject, default: [:]][field] = value
        case .delete:
            deleted.insert(write.subject)
            deleted.formUnion(events[write.subject] ?? [])
        }
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
            for (field, value) in values.sorted(by: { $0.key < $1.key }) where node[field] != value {
                losses.append("\(id).\(field): acknowledged \(value), server has \(node[field] ?? .null)")
            }
        }
        for id in deleted.sorted() where truth[id] != nil { losses.append("\(id): deleted, still there") }
        return losses
    }
}
