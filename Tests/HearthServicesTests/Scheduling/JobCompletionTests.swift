import Foundation
@testable import HearthServices
import HearthStore
import Support
import Synchronization
import TestFixtures
import Testing

/// A handler marking its job done in its own write transaction (``JobCompletion``): the job is
/// done with the handler's effect in one commit; when that transaction rolls back, the scheduler
/// marks it done itself, as for any job.
struct JobCompletionTests {
    /// Writes its effect (a job of kind `test.effect` keyed by its own id) and records its
    /// completion in one transaction, which `rollsBack` undoes; reports whether the completion
    /// counted as recorded after that transaction.
    final class CompletingHandler: JobHandler {
        let kind: JobKind = "test.completing"
        let queue: JobQueue
        let rollsBack: Bool
        let recorded = Mutex<[Bool]>([])

        init(queue: JobQueue, rollsBack: Bool) {
            self.queue = queue
            self.rollsBack = rollsBack
        }

        func run(_ job: Job) throws {
            Issue.record("the scheduler calls run(_:completion:)")
        }

        func run(_ job: Job, completion: JobCompletion) throws {
            struct Undo: Error {}
            do {
                try queue.pool.write { database in
                    try queue.enqueue(kind: "test.effect", payload: Note(text: ""), dedupeKey: "\(job.id)", in: database)
                    try completion.record(in: database)
                    #expect(try JobQueue.job(id: job.id, in: database)?.state == .done, "done inside the transaction")
                    if rollsBack { throw Undo() }
                }
            } catch is Undo {}
            recorded.withLock { $0.append(completion.isRecorded) }
        }
    }

    @Test(arguments: [false, true])
    func theJobIsDoneWithItsEffectOrByTheSchedulerAfterARollback(rollsBack: Bool) async throws {
        try await MigratedDatabase.withDatabase { pool in
            let queue = JobQueue(pool: pool, clock: ManualClock())
            let handler = CompletingHandler(queue: queue, rollsBack: rollsBack)
            let scheduler = JobScheduler(queue: queue, handlers: [handler], configuration: .init(), logger: .disabled)
            let id = try queue.enqueueNow(kind: handler.kind)
            #expect(try await scheduler.runDueJobs().done == 1)
            #expect(handler.recorded.withLock { $0 } == [!rollsBack], "recorded only once its transaction committed")
            let job = try #require(try queue.stored(id))
            #expect(job.state == .done && job.leaseOwner == nil && job.attempts == 1)
            let effects = try await queue.pool.read { try JobQueue.jobs(state: nil, kind: "test.effect", limit: 10, in: $0) }
            #expect(effects.count == (rollsBack ? 0 : 1))
        }
    }
}
