import Synchronization

/// Loaders that dispatch together: the first batch of any of them to be awaited loads every
/// batch of the group that is collecting keys, in one call of `read` (one read transaction), so
/// a list whose items need several kinds of related row (tags, assignees, steps…) costs one
/// transaction rather than one per kind. Made per result set, like its loaders.
public final class LoaderGroup<Context>: Sendable {
    /// Runs the loads it is given in one context (one read transaction).
    public typealias Read = @Sendable (_ loads: @escaping @Sendable (Context) -> Void) async throws -> Void

    /// A batch taken for loading: `run` loads and finishes it in the group's context; `fail`
    /// finishes it with the read's error when `run` did not (finishing twice keeps the first).
    struct Taken: Sendable {
        let run: @Sendable (Context) -> Void
        let fail: @Sendable (any Error) -> Void
    }

    private let read: Read
    /// The batches enqueued since the last flush: each takes its keys, or answers `nil` when a
    /// caller of its own loader already did.
    private let pending = Mutex<[@Sendable () -> Taken?]>([])

    /// A group whose loads run through `read`.
    public init(read: @escaping Read) {
        self.read = read
    }

    /// Adds a batch that collects keys.
    func enqueue(_ batch: @escaping @Sendable () -> Taken?) {
        pending.withLock { $0.append(batch) }
    }

    /// Loads every batch enqueued so far, together. Batches are taken under the group's lock, so
    /// a concurrent flush finds them loading (and its caller waits) rather than collecting.
    func flush() async {
        let taken = pending.withLock { pending in
            defer { pending = [] }
            return pending.compactMap { $0() }
        }
        guard !taken.isEmpty else { return }
        do {
            try await read { context in for batch in taken { batch.run(context) } }
        } catch {
            for batch in taken { batch.fail(error) }
        }
    }
}
