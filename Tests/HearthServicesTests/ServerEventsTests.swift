import TestFixtures
import HearthServices
import HearthStore
import Support
import Testing

@Suite struct ServerEventsTests {
    @Test func publishesStartedThenHeartbeatsAndStopsWhenCancelled() async throws {
        try await MigratedDatabase.withChangeLog { changeLog, bus in
            let subscription = bus.subscribe(to: [.server], bufferSize: 16)
            let producer = ServerEvents(
                changeLog: changeLog,
                configuration: ServerEvents.Configuration(heartbeatInterval: .milliseconds(5)),
                logger: .disabled
            )
            let running = Task { await producer.run() }

            var received: [Event] = []
            for await delivery in subscription {
                guard case .event(let event) = delivery else { continue }
                received.append(event)
                if received.count == 3 { break }
            }
            running.cancel()
            await running.value

            #expect(received.map(\.kind) == [.serverStarted, .serverHeartbeat, .serverHeartbeat])
            let statuses = try received.map { try $0.payload.decode(ServerStatus.self) }
            let beats = statuses.map(\.heartbeat)
            if TestDatabaseStore.isSQLite {
                #expect(beats == [0, 1, 2])
            } else {
                // Delivered by reading the log (ChangeLogRelay): a heartbeat its successor deleted
                // before the relay read it is skipped, as only the latest matters.
                #expect(beats.first == 0 && beats == beats.sorted() && Set(beats).count == 3, "\(beats)")
            }
            #expect(Set(statuses.map(\.startedAt)).count == 1)
            // The start stays in the log; of the heartbeats, only the latest.
            let logged = try await changeLog.changes(after: 0, topics: [.server], limit: 100)
            #expect(logged.map(\.kind) == [.serverStarted, .serverHeartbeat])
            #expect(logged.first?.sequence == received.first?.sequence)
            #expect(try #require(logged.last).sequence >= received[2].sequence)
        }
    }
}
