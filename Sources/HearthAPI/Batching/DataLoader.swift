import Synchronization

/// Batches and caches the loads of one request (the DataLoader pattern of graphql-js), so a
/// list field whose items each need a related row issues one query for the whole list instead
/// of one per item.
///
/// `load(_:)` is synchronous: it enqueues the key and returns a thunk. The executor completes
/// every item of a list synchronously before it awaits the first pending field, so every key
/// of the list is enqueued by then; the first thunk awaited dispatches the whole batch, and the
/// others wait for the same batch. Create one loader per request (per-request caching, and no
/// data crossing between users).
///
/// ```swift
/// resolvers.resolveField("Chore", "assignee") { source, _, context, _ in
///     let load = (context as! Context).users.load((source as! Chore).assigneeID)
///     return .async { try await load() }
/// }
/// ```
public final class DataLoader<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Loads many keys at once; keys missing from the result load as `nil`.
    public typealias BatchLoad = @Sendable (_ keys: [Key]) async throws -> [Key: Value]

    /// Loads a batch's keys (and any batches dispatched with it) and finishes it.
    private let dispatch: @Sendable (Batch) async -> Void
    /// Tells the loader's group about a new batch; `nil` for a loader on its own.
    private let enqueue: (@Sendable (Batch) -> Void)?
    /// The most keys one batch carries (SQLite's default limit on bound parameters is 32,766).
    public let maxBatchSize: Int
    private let state = Mutex<LoaderState>(LoaderState())

    private struct LoaderState {
        /// Which batch answers each key requested so far.
        var batches: [Key: Batch] = [:]
        /// The batch still collecting keys.
        var open: Batch?
    }

    /// Creates a loader around `batchLoad`: each batch is one call.
    public init(maxBatchSize: Int = 1_000, _ batchLoad: @escaping BatchLoad) {
        precondition(maxBatchSize > 0, "maxBatchSize must be positive")
        self.maxBatchSize = maxBatchSize
        enqueue = nil
        dispatch = { batch in
            guard let keys = batch.take() else { return }
            do { batch.finish(.success(try await batchLoad(keys))) } catch { batch.finish(.failure(error)) }
        }
    }

    /// Creates a loader of `group` around `batchLoad`, which reads in the context the group
    /// gives: the first batch of any of the group's loaders to be awaited dispatches every batch
    /// of the group collecting keys at that moment, in one call of the group's read.
    public init<Context>(
        group: LoaderGroup<Context>, maxBatchSize: Int = 1_000, _ batchLoad: @escaping @Sendable (_ keys: [Key], _ context: Context) throws -> [Key: Value]
    ) {
        precondition(maxBatchSize > 0, "maxBatchSize must be positive")
        self.maxBatchSize = maxBatchSize
        enqueue = { batch in
            group.enqueue {
                guard let keys = batch.take() else { return nil }
                return LoaderGroup<Context>.Taken(
                    run: { context in batch.finish(Result { try batchLoad(keys, context) }) }, fail: { batch.finish(.failure($0)) })
            }
        }
        dispatch = { _ in await group.flush() }
    }

    /// Enqueues `key` (unless it was requested before) and returns the work that yields its
    /// value; awaiting it dispatches the batch the key is in, if nobody did yet.
    public func load(_ key: Key) -> @Sendable () async throws -> Value? {
        let batch = state.withLock { state -> Batch in
            if let known = state.batches[key] { return known }
            let batch: Batch
            if let open = state.open, open.add(key, limit: maxBatchSize) {
                batch = open
            } else {
                batch = Batch(first: key)
                state.open = batch
                // Under the loader's lock, so the group knows the batch before anyone awaits it.
                enqueue?(batch)
            }
            state.batches[key] = batch
            return batch
        }
        return { [dispatch] in try await batch.values(dispatch)[key] }
    }

    /// Loads every key of `keys` and returns the values in the same order.
    public func loadMany(_ keys: [Key]) async throws -> [Value?] {
        let thunks = keys.map(load)
        var values: [Value?] = []
        values.reserveCapacity(keys.count)
        for thunk in thunks { values.append(try await thunk()) }
        return values
    }

    /// One batch: collecting keys, then loading (callers wait), then done.
    final class Batch: Sendable {
        private enum Phase {
            case collecting([Key])
            case loading([CheckedContinuation<[Key: Value], any Error>])
            case done(Result<[Key: Value], any Error>)
        }

        private let phase: Mutex<Phase>

        init(first key: Key) {
            phase = Mutex(.collecting([key]))
        }

        /// Adds `key` if the batch is still collecting and has room.
        func add(_ key: Key, limit: Int) -> Bool {
            phase.withLock { phase in
                guard case .collecting(var keys) = phase, keys.count < limit else { return false }
                keys.append(key)
                phase = .collecting(keys)
                return true
            }
        }

        /// The keys to load, once: the batch stops collecting; `nil` when someone took them before.
        func take() -> [Key]? {
            phase.withLock { phase in
                guard case .collecting(let keys) = phase else { return nil }
                phase = .loading([])
                return keys
            }
        }

        /// Records the load's result (the first one given) and wakes whoever waits for it.
        func finish(_ result: Result<[Key: Value], any Error>) {
            let waiting = phase.withLock { phase -> [CheckedContinuation<[Key: Value], any Error>] in
                guard case .loading(let waiting) = phase else { return [] }
                phase = .done(result)
                return waiting
            }
            for continuation in waiting { continuation.resume(with: result) }
        }

        /// The batch's values: the first caller dispatches the load, later callers wait for it.
        func values(_ dispatch: @Sendable (Batch) async -> Void) async throws -> [Key: Value] {
            if phase.withLock({ if case .collecting = $0 { true } else { false } }) { await dispatch(self) }
            if let result = phase.withLock({ phase -> Result<[Key: Value], any Error>? in if case .done(let result) = phase { result } else { nil } }) {
                return try result.get()
            }
            return try await withCheckedThrowingContinuation { continuation in
                let finished = phase.withLock { phase -> Result<[Key: Value], any Error>? in
                    switch phase {
                    case .loading(var waiting):
                        waiting.append(continuation)
                        phase = .loading(waiting)
                        return nil
                    case .done(let result): return result
                    case .collecting: preconditionFailure("a dispatched batch is loading or done")
                    }
                }
                if let finished { continuation.resume(with: finished) }
            }
        }
    }
}
