import Foundation
import Dispatch
import HearthStore
import Testing

/// The PostgreSQL store's pool: its connection limit and acquire timeout, and opening errors.
@Suite struct PostgresPoolTests {
    @Test func theConnectionLimitHoldsAndAWaiterGivesUpAtTheAcquireTimeout() throws {
        try TemporaryPostgresDatabase.withStore(configure: {
            $0.maxConnections = 2
            $0.acquireTimeout = .milliseconds(200)
        }) { store in
            let held = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let holders = (0..<2).map { _ in
                Background.run {
                    try store.read { _ in
                        held.signal()
                        release.wait()
                    }
                }
            }
            held.wait()
            held.wait()
            #expect(store.statistics.inUse == 2)
            let error = #expect(throws: StoreError.self) {
                try store.read { db in try db.scalar(Int.self, "SELECT 1") }
            }
            #expect(error?.category == .busy)
            release.signal()
            release.signal()
            for holder in holders { try holder.join() }
            // At the limit minus one, a read finds a connection.
            #expect(try store.read { db in try db.scalar(Int.self, "SELECT 1") } == 1)
            #expect(store.statistics.capacity == 2)
        }
    }

    @Test func aWrongPasswordFailsWithTheURLRedacted() throws {
        try TemporaryPostgresDatabase.withURL { url in
            // The test cluster trusts loopback, so make the failure a missing database instead
            // and check that the password given in the URL stays out of the message.
            let broken = url.replacingOccurrences(of: "://", with: "://hearth:s3cret-pass@").replacingOccurrences(of: "hearth_test_", with: "missing_")
            let error = #expect(throws: StoreError.self) {
                _ = try PostgresStore(configuration: .init(url: broken, maxConnections: 1))
            }
            #expect(error?.code == .cantOpen)
            #expect(error.map { "\($0)" }?.contains("s3cret-pass") == false)
            #expect(error.map { "\($0)" }?.contains("***") == true)
        }
    }
}
