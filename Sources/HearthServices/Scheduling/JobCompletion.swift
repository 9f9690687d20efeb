import FoundationEssentials
import HearthStore
import Synchronization

/// Lets a handler mark its job done inside its own write transaction (``JobHandler/run(_:completion:)``),
/// so its effect and the job's state commit together: one commit instead of two. Work whose cost is
/// commits (a burst of thousands of reminders due in one minute) saves a third of them, and the job
/// can no longer be left running after its effect committed (a crash between the two commits).
///
/// If the handler does not record it, or its transaction rolls back, or this worker lost the lease
/// meanwhile, the scheduler records the outcome as it does for any job.
public final class JobCompletion: Sendable {
    private let job: Job
    private let owner: String
    private let queue: JobQueue
    /// Set once the transaction that marked the job done has committed.
    private let committed = Atomic<Bool>(false)

    /// The completion of `job`, leased by the worker `owner`, in `queue`.
    init(job: Job, owner: String, queue: JobQueue) {
        self.job = job
        self.owner = owner
        self.queue = queue
    }

    /// Marks the job done in the transaction of `database` while this worker holds its lease
    /// (nothing otherwise: the scheduler then finds the lease lost, as without this).
    public func record(in database: Database) throws {
        guard try queue.markDone(job, owner: owner, at: queue.clock.now, in: database) else { return }
        database.afterCommit { self.committed.store(true, ordering: .releasing) }
    }

    /// Whether the handler's transaction marked the job done and committed.
    var isRecorded: Bool { committed.load(ordering: .acquiring) }
}
