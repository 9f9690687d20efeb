import Dispatch
import Foundation
@testable import HearthServices
import HearthStore
import Support
import TestFixtures
import Testing

/// The job queue and scheduler with a hand-moved clock: enqueueing in the caller's
/// transaction, dedupe keys, due order, backoff and dead-lettering, leases that expire and
/// are renewed, the loop's sleep and wake-up, and the numbers `/metrics` reports.
struct JobSchedulerTests {
    /// A queue and a scheduler running `handlers` over a migrated database, on `clock`.
    private func withScheduler(
        _ handlers: [any JobHandler], clock: ManualClock = ManualClock(), configuration: JobScheduler.Configuration = .init(),
        _ body: (JobQueue, JobScheduler) async throws -> Void
    ) async throws {
        try await MigratedDatabase.withDatabase { pool in
            let queue = JobQueue(pool: pool, clock: clock)
            try await body(queue, JobScheduler(queue: queue, handlers: handlers, configuration: configuration, logger: .disabled))
        }
    }

    @Test func anEnqueuedJobCommitsOrRollsBackWithTheCallersTransaction() async throws {
        let clock = ManualClock()
        try await withScheduler([RecordingJobHandler()], clock: clock) { queue, _ in
            struct Abort: Error {}
            #expect(throws: Abort.self) {
                try queue.pool.write { database in
                    try queue.enqueue(kind: .recorded, payload: Note(text: "lost"), in: database)
                    throw Abort()
                }
            }
            #expect(try queue.pool.read { try JobQueue.jobs(state: nil, kind: nil, limit: 10, in: $0) }.isEmpty)
            let id = try queue.enqueueNow("kept", dueAt: clock.now.addingTimeInterval(5))
            let job = try #require(try queue.stored(id))
            #expect(job.state == .pending && job.attempts == 0 && job.kind == .recorded && job.createdAt == clock.now)
            #expect(job.dueAt == clock.now.addingTimeInterval(5) && job.leaseOwner == nil && job.lastError == nil)
            #expect(try job.decodePayload(Note.self) == Note(text: "kept"))
        }
    }

    @Test func aDedupeKeyHoldsOneJobPerKindWhileItsRowExists() async throws {
        try await withScheduler([RecordingJobHandler()]) { queue, scheduler in
            let first = try queue.enqueueNow("a", dedupeKey: "k")
            #expect(try queue.enqueueNow("b", dedupeKey: "k") == first)
            #expect(try queue.stored(first)?.payload.contains("\"a\"") == true, "the second enqueue changed nothing")
            #expect(try queue.enqueueNow(kind: "test.other", dedupeKey: "k") != first, "keys are per kind")
            #expect(try queue.enqueueNow() != queue.enqueueNow(), "jobs without a key never collide")
            #expect(try await scheduler.runDueJobs().done == 3, "the other kind has no handler here")
            #expect(try queue.enqueueNow("c", dedupeKey: "k") == first, "a done job still holds its key")
        }
    }

    @Test func runsDueJobsEarliestFirstAndLeavesFutureOnesForLater() async throws {
        let clock = ManualClock()
        let handler = RecordingJobHandler()
        try await withScheduler([handler], clock: clock) { queue, scheduler in
            let later = try queue.enqueueNow("later", dueAt: clock.now.addingTimeInterval(10))
            let second = try queue.enqueueNow("second", dueAt: clock.now.addingTimeInterval(-1))
            let first = try queue.enqueueNow("first", dueAt: clock.now.addingTimeInterval(-2))
            let now = try queue.enqueueNow("now")
            #expect(try await scheduler.runDueJobs().done == 3)
            var started = handler.started.makeAsyncIterator()
            var order: [Int64] = []
            for _ in 0..<3 { order.append(try #require(await started.next()).id) }
            #expect(order == [first, second, now])
            #expect(try queue.stored(later)?.state == .pending)
            clock.advance(seconds: 10)
            #expect(try await scheduler.runDueJobs().done == 1)
            #expect(try queue.stored(later)?.state == .done && queue.stored(later)?.attempts == 1)
        }
    }

    @Test func failuresAreRetriedWithDoublingJitteredDelaysUntilTheLastAttempt() async throws {
        let clock = ManualClock()
        let failure = JobFailure(.transient, "try later")
        let handler = RecordingJobHandler(failures: Array(repeating: failure, count: 5))
        let retry = RetryPolicy(maxAttempts: 4, initialDelay: .seconds(10), maxDelay: .seconds(30), jitter: { 0.5 })
        try await withScheduler([handler], clock: clock, configuration: .init(retry: retry)) { queue, scheduler in
            let id = try queue.enqueueNow()
            // 10 s, 20 s, then 40 s capped at 30 s; each halved by the jitter.
            for delay in [5.0, 10, 15] {
                #expect(try await scheduler.runDueJobs().retrying == 1)
                let job = try #require(try queue.stored(id))
                #expect(job.state == .pending && job.dueAt == clock.now.addingTimeInterval(delay) && job.lastError == "try later")
                clock.advance(seconds: delay - 0.001)
                #expect(try await scheduler.runDueJobs() == .init(), "not due a millisecond early")
                clock.advance(seconds: 0.001)
            }
            #expect(try await scheduler.runDueJobs().dead == 1)
            let dead = try #require(try queue.stored(id))
            #expect(dead.state == .dead && dead.attempts == 4 && dead.lastError == "try later" && dead.leaseOwner == nil)
            #expect(handler.recordedFailures.map(\.retryAt) == [
                clock.now.addingTimeInterval(-25), clock.now.addingTimeInterval(-15), clock.now, nil,
            ])
        }
    }

    @Test func aRetryWaitsAtLeastTheRetryAfterTheFailureNames() async throws {
        let clock = ManualClock()
        let handler = RecordingJobHandler(failures: [
            JobFailure(.transient, "busy", retryAfter: .seconds(120)), JobFailure(.transient, "busy", retryAfter: .seconds(1)),
        ])
        let retry = RetryPolicy(maxAttempts: 4, initialDelay: .seconds(10), maxDelay: .seconds(30), jitter: { 1 })
        try await withScheduler([handler], clock: clock, configuration: .init(retry: retry)) { queue, scheduler in
            let id = try queue.enqueueNow()
            #expect(try await scheduler.runDueJobs().retrying == 1)
            #expect(try queue.stored(id)?.dueAt == clock.now.addingTimeInterval(120), "Retry-After beats the 10 s backoff")
            clock.advance(seconds: 120)
            #expect(try await scheduler.runDueJobs().retrying == 1)
            #expect(try queue.stored(id)?.dueAt == clock.now.addingTimeInterval(20), "a shorter Retry-After leaves the backoff")
        }
    }

    @Test func aPermanentFailureOrAPayloadThatDoesNotDecodeIsDeadAtOnce() async throws {
        struct Unreadable: Decodable { var missing: Int }
        struct Decoding: JobHandler {
            var kind: JobKind { "test.decoding" }
            func run(_ job: Job) throws { _ = try job.decodePayload(Unreadable.self) }
        }
        let handler = RecordingJobHandler(failures: [JobFailure(.permanent, "550 no")])
        try await withScheduler([handler, Decoding()]) { queue, scheduler in
            let refused = try queue.enqueueNow()
            let unreadable = try queue.enqueueNow(kind: "test.decoding")
            #expect(try await scheduler.runDueJobs().dead == 2)
            #expect(try queue.stored(refused)?.lastError == "550 no" && queue.stored(refused)?.attempts == 1)
            #expect(try queue.stored(unreadable)?.state == .dead && queue.stored(unreadable)?.lastError?.contains("payload") == true)
        }
    }

    @Test func aJobWhoseWorkerDiedRunsAgainOnceItsLeaseExpires() async throws {
        let clock = ManualClock()
        let handler = RecordingJobHandler()
        try await withScheduler([handler], clock: clock, configuration: .init(leaseDuration: .seconds(60))) { queue, scheduler in
            let id = try queue.enqueueNow()
            // Another worker leased it and died without a word.
            let leased = try queue.leaseAs("gone")
            #expect(leased.map(\.id) == [id] && leased.first?.attempts == 1)
            clock.advance(seconds: 59.999)
            #expect(try await scheduler.runDueJobs() == .init(), "the lease still holds")
            #expect(try queue.stored(id)?.state == .running && queue.stored(id)?.leaseOwner == "gone")
            clock.advance(seconds: 0.001)
            #expect(try await scheduler.runDueJobs().done == 1)
            let job = try #require(try queue.stored(id))
            #expect(job.state == .done && job.attempts == 2)
            #expect(handler.recordedFailures.count == 1 && handler.recordedFailures.first?.message.contains("gone") == true)
            #expect(handler.recordedFailures.first?.retryAt == clock.now, "the handler heard of the lost attempt")
        }
    }

    @Test func aJobThatKeepsKillingItsWorkerIsGivenUpAfterItsAttempts() async throws {
        let clock = ManualClock()
        let handler = RecordingJobHandler()
        let configuration = JobScheduler.Configuration(retry: RetryPolicy(maxAttempts: 2), leaseDuration: .seconds(60))
        try await withScheduler([handler], clock: clock, configuration: configuration) { queue, scheduler in
            let id = try queue.enqueueNow()
            for _ in 0..<2 {
                try queue.leaseAs("crashing", maxAttempts: 2)
                clock.advance(seconds: 60)
            }
            #expect(try await scheduler.runDueJobs() == .init(), "reclaimed dead, not run")
            let job = try #require(try queue.stored(id))
            #expect(job.state == .dead && job.attempts == 2 && job.lastError?.contains("lease expired") == true)
            #expect(handler.recordedFailures.last?.retryAt == nil)
        }
    }

    @Test func onlyKindsWithARegisteredHandlerAreLeased() async throws {
        try await withScheduler([RecordingJobHandler()]) { queue, scheduler in
            let foreign = try queue.enqueueNow(kind: "test.unknown")
            #expect(try await scheduler.runDueJobs() == .init())
            #expect(try queue.stored(foreign)?.state == .pending && queue.stored(foreign)?.attempts == 0)
        }
    }

    @Test func theLoopSleepsUntilTheNextDueTimeOnTheInjectedClockAndWakesForAnEarlierCommit() async throws {
        let clock = ManualClock()
        let handler = RecordingJobHandler()
        try await withScheduler([handler], clock: clock) { queue, scheduler in
            let due = clock.now.addingTimeInterval(30)
            let later = try queue.enqueueNow(dueAt: due)
            let loop = Task { await scheduler.run() }
            await clock.waitForSleeper(until: due)
            // A commit of a job due now wakes it before its deadline.
            let now = try queue.enqueueNow()
            var started = handler.started.makeAsyncIterator()
            #expect(await started.next()?.id == now)
            await clock.waitForSleeper(until: due)
            clock.advance(seconds: 30)
            #expect(await started.next()?.id == later)
            loop.cancel()
            await loop.value
        }
    }

    /// The server's scheduler costs nothing while no job is due: it reads the table once,
    /// sleeps until the poll interval ends (or an enqueue wakes it), and reads it once again.
    @Test(.timeLimit(.minutes(1)), .enabled(if: TestDatabaseStore.isSQLite, "counts the statements of SQLite's pool"))
    func anIdleLoopReadsTheTableOncePerPollIntervalAndSleepsInBetween() async throws {
        let clock = ManualClock()
        try await withScheduler([RecordingJobHandler()], clock: clock, configuration: .init(pollInterval: .seconds(60))) { queue, scheduler in
            let start = clock.now
            let loop = Task { await scheduler.run() }
            await clock.waitForSleeper(until: start.addingTimeInterval(60))
            let firstLook = try statements(queue)
            clock.advance(seconds: 60)
            await clock.waitForSleeper(until: start.addingTimeInterval(120))
            let secondLook = try statements(queue)
            clock.advance(seconds: 60)
            await clock.waitForSleeper(until: start.addingTimeInterval(180))
            let perLook = secondLook - firstLook
            #expect(perLook > 0, "each interval ends with a look at the table")
            #expect(try statements(queue) - secondLook == perLook, "and one look only: no polling in between")
            loop.cancel()
            await loop.value
        }
    }

    /// The statements `queue`'s pool has executed so far.
    private func statements(_ queue: JobQueue) throws -> Int {
        let statistics = try #require(queue.pool as? DatabasePool).statistics
        return statistics.readers.statements + statistics.writer.statements
    }

    @Test func aRunningJobsLeaseIsRenewedEveryThirdOfItsLength() async throws {
        let clock = ManualClock()
        let gate = DispatchSemaphore(value: 0)
        let handler = RecordingJobHandler(gate: gate)
        let configuration = JobScheduler.Configuration(workers: 1, leaseDuration: .seconds(60))
        try await withScheduler([handler], clock: clock, configuration: configuration) { queue, scheduler in
            let start = clock.now
            let id = try queue.enqueueNow()
            let loop = Task { await scheduler.run() }
            var started = handler.started.makeAsyncIterator()
            #expect(await started.next()?.id == id)
            #expect(try queue.stored(id)?.leaseExpiresAt == start.addingTimeInterval(60))
            await clock.waitForSleeper(until: start.addingTimeInterval(20))
            clock.advance(seconds: 20)
            await clock.waitForSleeper(until: start.addingTimeInterval(40))
            #expect(try queue.stored(id)?.leaseExpiresAt == start.addingTimeInterval(80))
            gate.signal()
            loop.cancel()
            await loop.value
            #expect(try queue.stored(id)?.state == .done, "a job running at cancellation finishes and is recorded")
        }
    }

    @Test func noMoreThanTheConfiguredNumberOfJobsRunAtOnce() async throws {
        let gate = DispatchSemaphore(value: 0)
        let handler = RecordingJobHandler(gate: gate)
        try await withScheduler([handler], configuration: .init(workers: 2)) { queue, scheduler in
            let ids = try (0..<3).map { _ in try queue.enqueueNow() }
            let loop = Task { await scheduler.run() }
            var started = handler.started.makeAsyncIterator()
            let firstTwo = Set([await started.next()?.id, await started.next()?.id])
            #expect(firstTwo == Set(ids.prefix(2)), "the earliest two, in either order")
            let states = try ids.map { try queue.stored($0)?.state }
            #expect(states == [.running, .running, .pending])
            gate.signal()
            #expect(await started.next()?.id == ids[2], "a finished job frees its worker")
            gate.signal()
            gate.signal()
            loop.cancel()
            await loop.value
            #expect(try ids.map { try queue.stored($0)?.state } == [.done, .done, .done])
        }
    }

    @Test func retryRevivesADeadJobAndRefusesARunningOrDoneOne() async throws {
        let clock = ManualClock()
        let handler = RecordingJobHandler(failures: [JobFailure(.permanent, "broken")])
        try await withScheduler([handler], clock: clock) { queue, scheduler in
            let id = try queue.enqueueNow()
            try await scheduler.runDueJobs()
            clock.advance(seconds: 60)
            let revived = try #require(try queue.retryNow(id))
            #expect(revived.state == .pending && revived.attempts == 0 && revived.dueAt == clock.now && revived.lastError == "broken")
            #expect(try await scheduler.runDueJobs().done == 1)
            #expect(throws: JobRetryRefusal.self) { try queue.retryNow(id) }
            #expect(try queue.retryNow(999) == nil)
            let running = try queue.enqueueNow()
            try queue.leaseAs("busy")
            #expect(throws: JobRetryRefusal.self) { try queue.retryNow(running) }
        }
    }

    @Test func statisticsCountDueRunningAndDeadJobsAndTheOldestDueJobsLag() async throws {
        let clock = ManualClock()
        let handler = RecordingJobHandler(failures: [JobFailure(.permanent, "no")])
        try await withScheduler([handler], clock: clock) { queue, scheduler in
            try queue.enqueueNow()
            try await scheduler.runDueJobs()  // dead
            try queue.enqueueNow(dueAt: clock.now.addingTimeInterval(-90))
            try queue.enqueueNow(dueAt: clock.now.addingTimeInterval(-30))
            try queue.enqueueNow(dueAt: clock.now.addingTimeInterval(30))
            try queue.enqueueNow(kind: "test.other")
            try queue.leaseAs("w", kinds: ["test.other"])
            let now = clock.now
            let statistics = try await queue.pool.read { try JobStatistics.read(at: now, in: $0) }
            let recorded = try #require(statistics[.recorded])
            #expect(recorded.due == 2 && recorded.running == 0 && recorded.dead == 1 && recorded.lagSeconds == 90)
            #expect(statistics["test.other"]?.running == 1 && statistics["test.other"]?.lagSeconds == 0)
        }
    }
}
