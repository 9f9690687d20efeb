import GraphQL

/// One write a simulated device queued offline: the `syncBatch` entry and what it means for the
/// objects, so the simulation can check that an acknowledged write survives.
struct QueuedWrite {
    /// What the write does to `subject`.
    enum Effect {
        /// Creates `subject` with these plain fields.
        case create(fields: [String: JSON])
        /// Sets one plain field of `subject`.
        case update(field: String, value: JSON)
        /// Deletes `subject` (and what the delete cascades to).
        case delete
        /// Completes the instance `subject`: the answer names the completion that counts, the
        /// first one when another member completed it first.
        case complete
        /// Undoes the completion of the instance `subject`: the answer names the completion undone.
        case uncomplete
    }

    /// The `syncBatch` entry.
    let entry: JSON
    /// The id the write is about.
    let subject: String
    /// Its `clientMutationId`.
    let clientMutationID: String
    /// What it does.
    let effect: Effect
    /// The object `subject` belongs to and goes with when it is deleted: the habit of an event, the
    /// chore of an instance.
    var parent: String? = nil
    /// The refusals, besides "deletes win", that the documented conflict policy answers this write
    /// with, each `CODE` (any reason) or `CODE REASON`: a claim of an instance someone claimed first
    /// is `CONFLICT ALREADY_CLAIMED`.
    var conflicts: Set<String> = []

    /// Whether `extensions` (of a refused write's error) is one of the write's ``conflicts``.
    func isConflict(_ extensions: JSON?) -> Bool {
        guard let code = extensions?["code"]?.stringValue else { return false }
        let reason = extensions?["reason"]?.stringValue
        return conflicts.contains(code) || reason.map { conflicts.contains("\(code) \($0)") } == true
    }

    /// Whether the write creates its subject.
    var creates: Bool {
        if case .create = effect { true } else { false }
    }
}
