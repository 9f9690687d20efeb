@testable import HearthApp
import HearthServices
import HearthStore
import Testing

/// On PostgreSQL an instance's change log publishes through its ``ChangeLogRelay``, even when
/// it is the only instance: concurrent writes on the pool's connections run their commit
/// callbacks in any order, so publishing from them would hand a subscriber a sequence before a
/// lower one, which a change feed then skips for good.
@Suite struct InstanceCoordinationPostgresTests {
    @Test func concurrentWritesOfOneInstanceReachItsSubscribersInSequenceOrder() async throws {
        try await TemporaryPostgresDatabase.withStore(configure: { $0.maxConnections = 4 }) { store in
            try DatabaseSettings.embeddedMigrator(EmbeddedFiles.postgresMigrations).migrate(store)
            let coordination = try InstanceCoordination(store: store, postgres: store)
            let relay = try #require(coordination.bus as? ChangeLogRelay)
            let changeLog = ChangeLog(pool: coordination.writer, bus: coordination.bus)
            let subscription = coordination.local.subscribe(to: [.server], bufferSize: 200)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<4 {
                    group.addTask {
                        for step in 0..<20 {
                            _ = try await coordination.writer.write { db in
                                try changeLog.record(topic: .server, kind: "test.step", payload: [writer, step], in: db)
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await relay.catchUp() == 80)
            var iterator = subscription.makeAsyncIterator()
            var sequences: [Int64] = []
            while sequences.count < 80, case .event(let event) = await iterator.next() { sequences.append(event.sequence) }
            #expect(sequences == Array(1...80))
        }
    }
}
