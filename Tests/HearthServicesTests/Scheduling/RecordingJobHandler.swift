import Dispatch
import Foundation
@testable import HearthServices
import HearthStore
import Synchronization

extension JobKind {
    /// The kind of ``RecordingJobHandler``'s jobs in these tests.
    static let recorded: JobKind = "test.recorded"
}

/// A handler for scheduler tests: reports each job it starts on ``started``, fails as its
/// script says (one outcome per attempt, then success), blocks on ``gate`` when given one, and
/// keeps the failures the scheduler asked it to record.
final class RecordingJobHandler: JobHandler {
    let kind: JobKind
    let started: AsyncStream<Job>
    private let continuation: AsyncStream<Job>.Continuation
    private let script: Mutex<[JobFailure]>
    private let gate: DispatchSemaphore?
    private let failures = Mutex<[(id: Int64, message: String, retryAt: Date?)]>([])

    init(kind: JobKind = .recorded, failures: [JobFailure] = [], gate: DispatchSemaphore? = nil) {
        self.kind = kind
        script = Mutex(failures)
        self.gate = gate
        (started, continuation) = AsyncStream.makeStream(of: Job.self)
    }

    func run(_ job: Job) throws {
        continuation.yield(job)
        gate?.wait()
        if let failure = script.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { throw failure }
    }

    func recordFailure(of job: Job, _ failure: JobFailure, retryAt: Date?, in database: Database) throws {
        failures.withLock { $0.append((job.id, failure.message, retryAt)) }
    }

    /// The failed attempts the scheduler recorded through this handler, in order.
    var recordedFailures: [(id: Int64, message: String, retryAt: Date?)] { failures.withLock { $0 } }
}

/// A payload for test jobs.
struct Note: Codable, Equatable {
    var text: String
}

extension JobQueue {
    /// Enqueues in a transaction of its own.
    @discardableResult
    func enqueueNow(kind: JobKind = .recorded, _ text: String = "", dueAt: Date? = nil, dedupeKey: String? = nil) throws -> Int64 {
        try pool.write { database in try enqueue(kind: kind, payload: Note(text: text), dueAt: dueAt, dedupeKey: dedupeKey, in: database) }
    }

    /// Job `id` as stored now.
    func stored(_ id: Int64) throws -> Job? {
        try pool.read { database in try JobQueue.job(id: id, in: database) }
    }
}

extension JobQueue {
    /// Hands back expired leases and leases due jobs of `kinds` as a worker `owner` would, for
    /// `seconds`: a stand-in for a worker in another process (or one that dies right after).
    @discardableResult
    func leaseAs(_ owner: String, kinds: [JobKind] = [.recorded], for seconds: Double = 60, maxAttempts: Int = 8) throws -> [Job] {
        let now = clock.now
        return try pool.write { database in
            _ = try reclaimExpiredLeases(kinds: kinds, maxAttempts: maxAttempts, at: now, in: database)
            return try lease(kinds: kinds, owner: owner, until: now.addingTimeInterval(seconds), limit: 10, at: now, in: database)
        }
    }

    /// ``JobQueue/retry(id:at:in:)`` in a transaction of its own, at the clock's time.
    func retryNow(_ id: Int64) throws -> Job? {
        let now = clock.now
        return try pool.write { database in try JobQueue.retry(id: id, at: now, in: database) }
    }
}
