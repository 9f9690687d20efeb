import Foundation
import GraphQL
import Glibc
import Testing

/// A phone's queue in one request (`syncBatch`, issue 17): entries applied in order, each with its
/// own response, continuing after a failure; the entry limit at its edge; no queries, subscriptions
/// or batches inside; and a batch cut short by `kill -9` that, sent again after the restart, ends
/// where an uninterrupted one does.
@Suite struct SyncBatchTests {
    private static func id(_ prefix: String, _ number: Int) -> String {
        prefix + "_0190bbbb-0000-7000-8000-" + String(format: "%012x", number)
    }

    @Test func aQueueIsAppliedInOrderEachWithItsOwnResultAndAFailureDoesNotStopTheRest() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let habit = Self.id("hab", 1)
        let queue: [JSON] = [
            ServerProcess.habitEntry(habit, title: "Run", clientMutationID: "q-1"),
            ServerProcess.eventEntry(habit, eventID: Self.id("hev", 1), comment: "park", clientMutationID: "q-2"),
            ServerProcess.habitEntry("hab_not-a-uuid", title: "Swim", clientMutationID: "q-3"),
            ServerProcess.eventEntry("hab_not-a-uuid", eventID: Self.id("hev", 2), comment: "pool", clientMutationID: "q-4"),
            ServerProcess.batchEntry(
                "mutation($input: UpdateHabitInput!) { updateHabit(input: $input) { habit { title } } }",
                ServerProcess.input(["habitId": .string(habit), "title": "Run 5 km", "clientMutationId": "q-5"])),
        ]
        let sent = try server.syncBatch(queue, as: ana)
        let results = ServerProcess.batchResults(sent)
        #expect(results.map { $0["index"] } == [0, 1, 2, 3, 4], "\(sent.json)")
        #expect(results.map { $0["isSuccess"] } == [true, true, false, false, true])
        #expect(results[1]["response"]?["data"]?["recordHabitEvent"]?["habitEvent"]?["id"]?.stringValue == Self.id("hev", 1))
        #expect(results[2]["response"]?["errors"]?[0]?["extensions"]?["code"] == "BAD_USER_INPUT")
        #expect(results[2]["response"]?["errors"]?[0]?["extensions"]?["field"] == "input.id")
        #expect(results[3]["response"]?["errors"]?[0]?["extensions"]?["code"] == "NOT_FOUND", "it depended on the failed creation")
        #expect(results[4]["response"]?["data"]?["updateHabit"]?["habit"]?["title"] == "Run 5 km")
        // The whole queue again (the phone never saw the answer): the same results, nothing changes.
        let again = ServerProcess.batchResults(try server.syncBatch(queue, as: ana))
        #expect(again.map { $0["isSuccess"] } == [true, true, false, false, true])
        #expect(again[0]["response"]?["data"]?["createHabit"]?["habit"]?["title"] == "Run 5 km", "the first habit, as it is now")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM habits") == "1")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM habit_events") == "1")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM change_log WHERE kind = 'habit.updated'") == "1")
    }

    @Test func aNewAccountsOfflineQueueAcceptsTheTermsFirstAndTheRestGoesThroughAndSignedOutIsRefusedWhole() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana", acceptingTerms: false)
        let version = try #require(try server.graphQL("{ terms { currentVersion } }", token: ana.token).data?["terms"]?["currentVersion"])
        let accept = ServerProcess.batchEntry(
            "mutation($input: AcceptTermsInput!) { acceptTerms(input: $input) { terms { isAcceptanceRequired } } }",
            ServerProcess.input(["version": version, "clientMutationId": "q-1"]))
        let habit = Self.id("hab", 7)
        // Before the terms are accepted, an entry of the queue is refused on its own, as it would be alone.
        let early = ServerProcess.batchResults(try server.syncBatch([ServerProcess.habitEntry(habit, title: "Run", clientMutationID: "q-0")], as: ana))
        #expect(early.first?["response"]?["errors"]?[0]?["extensions"]?["code"] == "TERMS_ACCEPTANCE_REQUIRED", "\(early)")
        let results = ServerProcess.batchResults(
            try server.syncBatch([accept, ServerProcess.habitEntry(habit, title: "Run", clientMutationID: "q-2")], as: ana))
        #expect(results.map { $0["isSuccess"] } == [true, true], "\(results)")
        #expect(try server.databaseText("SELECT title FROM habits") == "Run")

        let signedOut = try server.graphQL(
            ServerProcess.syncBatchDocument, variables: ServerProcess.input(["mutations": .array([accept])]), token: nil)
        #expect(signedOut.errorCode == "UNAUTHENTICATED", "\(signedOut.json)")
        #expect(signedOut.data?["syncBatch"] == nil || signedOut.data?["syncBatch"] == .null)
    }

    @Test func aBatchHoldsAtMostTheConfiguredEntriesAndNothingElseThanMutations() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let unknown = ServerProcess.batchEntry(
            "mutation($input: DeleteHabitInput!) { deleteHabit(input: $input) { deletedHabitId } }",
            ServerProcess.input(["habitId": .string(Self.id("hab", 9))]))
        let full = try server.syncBatch(Array(repeating: unknown, count: 100), as: ana)
        #expect(ServerProcess.batchResults(full).count == 100, "\(full.json)")
        let over = try server.syncBatch(Array(repeating: unknown, count: 101), as: ana)
        #expect(over.errorCode == "BAD_USER_INPUT" && over.errorExtensions?["field"] == "input.mutations", "\(over.json)")
        #expect(over.data?["syncBatch"] == nil || over.data?["syncBatch"] == .null)

        let configured = try ServerProcess(ServerProcess.householdArguments + ["--max-sync-batch-entries", "2"])
        defer { configured.remove() }
        let ben = try configured.person("ben")
        #expect(ServerProcess.batchResults(try configured.syncBatch([unknown, unknown], as: ben)).count == 2)
        #expect(try configured.syncBatch([unknown, unknown, unknown], as: ben).errorCode == "BAD_USER_INPUT")

        let mixed = ServerProcess.batchResults(try server.syncBatch([
            ServerProcess.batchEntry("{ me { id } }"),
            ServerProcess.batchEntry("subscription { serverEvents { kind } }"),
            ServerProcess.batchEntry(ServerProcess.syncBatchDocument, ServerProcess.input(["mutations": [unknown]])),
            ServerProcess.batchEntry("mutation { nope }"),
            unknown,
        ], as: ana))
        #expect(mixed.map { $0["isSuccess"] } == [false, false, false, false, false])
        #expect(mixed[0]["response"]?["errors"]?[0]?["extensions"]?["code"] == "BAD_REQUEST", "a query is not queued")
        #expect(mixed[1]["response"]?["errors"]?[0]?["extensions"]?["code"] == "BAD_REQUEST", "nor a subscription")
        #expect(mixed[2]["response"]?["errors"]?[0]?["extensions"]?["code"] == "BAD_USER_INPUT", "nor a batch")
        #expect(mixed[3]["response"]?["errors"]?[0]?["extensions"]?["code"] == "GRAPHQL_VALIDATION_FAILED")
        #expect(mixed[4]["response"]?["errors"]?[0]?["extensions"]?["code"] == "NOT_FOUND")
    }

    /// The queue of the crash test: a habit and `count` events of it, each with a client-made id
    /// and its own clientMutationId.
    private static func crashQueue(count: Int) -> [JSON] {
        let habit = id("hab", 7)
        return [ServerProcess.habitEntry(habit, title: "Read", clientMutationID: "c-0")] + (1...count).map { number in
            ServerProcess.eventEntry(habit, eventID: id("hev", 1000 + number), comment: "p\(number)", clientMutationID: "c-\(number)")
        }
    }

    /// What the crash test compares: every event's id and comment, in id order.
    private static func events(_ server: ServerProcess) throws -> [String] {
        try server.databaseColumn("SELECT id || ':' || comment FROM habit_events ORDER BY id")
    }

    @Test func aBatchKilledHalfwayAndSentAgainEndsAsAnUninterruptedOne() throws {
        let arguments = ServerProcess.householdArguments + ["--max-sync-batch-entries", "2000", "--max-body-bytes", "4MiB"]
        let queue = Self.crashQueue(count: 1500)
        let reference = try ServerProcess(arguments)
        defer { reference.remove() }
        let ana = try reference.person("ana")
        #expect(ServerProcess.batchResults(try reference.syncBatch(queue, as: ana)).allSatisfy { $0["isSuccess"] == true })
        let expected = try Self.events(reference)

        let first = try ServerProcess(arguments)
        var removed = false
        defer { if !removed { first.remove() } }
        let ben = try first.person("ben")
        let connection = try first.sendSyncBatch(queue, as: ben)
        // Killed once the change log shows some entries committed, long before the last.
        var applied = 0
        while applied == 0 {
            applied = Int(try first.databaseText("SELECT CAST(count(*) AS TEXT) FROM change_log WHERE kind = 'habit_event.recorded'") ?? "0") ?? 0
        }
        #expect(first.stop(signal: SIGKILL) == SIGKILL)
        connection.close()
        let prefix = Int(try first.databaseText("SELECT CAST(count(*) AS TEXT) FROM habit_events") ?? "") ?? -1
        #expect(prefix >= 1 && prefix < 1500, "a prefix was applied: \(prefix)")

        let restarted = try ServerProcess(directory: first.directory, arguments: arguments)
        removed = true
        defer { restarted.remove() }
        let retried = ServerProcess.batchResults(try restarted.syncBatch(queue, as: ben))
        #expect(retried.count == 1501 && retried.allSatisfy { $0["isSuccess"] == true })
        #expect(try Self.events(restarted) == expected, "the same events, each once")
        #expect(try restarted.databaseText("SELECT CAST(count(*) AS TEXT) FROM habits") == "1")
    }
}
