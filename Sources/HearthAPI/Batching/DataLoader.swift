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

    private let batchLoad: BatchLoad
    /// The most keys one batch carries (SQLite's default limit on bound parameters is 32,766).
    public let maxBatchSize: Int
    private let state = Mutex<LoaderState>(LoaderState())

    private struct LoaderState {
        /// Which batch answers each key requested so far.
        var batches: [Key: Batch] = [:]
        /// The batch still collecting keys.
        var open: Batch?
    }

    /// Creates a loader around `batchLoad`.
    public init(maxBatchSize: Int = 1_000, _ batchLoad: @escaping BatchLoad) {
        precondition(maxBatchSize > 0, "maxBatchSize must be positive")
        self.maxBatchSize = maxBatchSize
        self.batchLoad = batchLoad
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
            }
            state.batches[key] = batch
            return batch
        }
        return { [batchLoad] in try await batch.values(batchLoad)[key] }
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

        private enum BatchStep {
            case run([Key])
            case wait
            case finished(Result<[Key: Value], any Error>)
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

        /// The batch's values: the first caller runs the load, later callers wait for it.
        func values(_ batchLoad: BatchLoad) async throws -> [Key: Value] {
            let step = phase.withLock { phase -> BatchStep in
                switch phase {
                case .collecting(let keys):
                    phase = .loading([])
                    return .run(keys)
                case .loading: return .wait
                case .done(let result): return .finished(result)
                }
            }
            switch step {
            case .finished(let result):
                return try result.get()
            case .run(let keys):
                let result: Result<[Key: Value], any Error>
                do { result = .success(try await batchLoad(keys)) } catch { result = .failure(error) }
                let waiting = phase.withLock { phase -> [CheckedContinuation<[Key: Value], any Error>] in
                    guard case .loading(let waiting) = phase else { return [] }
                    phase = .done(result)
                    return waiting
                }
                for continuation in waiting { continuation.resume(with: result) }
                return try result.get()
            case .wait:
                return try await withCheckedThrowingContinuation { continuation in
                    let finished = phase.withLock { phase -> Result<[Key: Value], any Error>? in
                        switch phase {
                        case .loading(var waiting):
                            waiting.append(continuation)
                            phase = .loading(waiting)
                            return nil
                        case .done(let result): return result
                        case .collecting: preconditionFailure("a batch never returns to collecting")
                        }
                    }
                    if let finished { continuation.resume(with: finished) }
                }
            }
        }
    }
}
