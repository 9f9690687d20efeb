import Foundation
import GraphQL
import Testing

/// A child added offline (onboarding.md, issue 17), through the binary: the phone queues the
/// household, the parental consent and the child, each with an id it made, and sends the queue in
/// one `syncBatch`; sending it again, before or after the replay records are pruned, changes
/// nothing; the consent must come before the member that names it.
@Suite struct OfflineConsentEndToEndTests {
    private static func id(_ prefix: String, _ number: Int) -> String {
        prefix + "_0190eeee-0000-7000-8000-" + String(format: "%012x", number)
    }

    private static func householdEntry(_ id: String) -> JSON {
        ServerProcess.batchEntry(
            "mutation($input: CreateHouseholdInput!) { createHousehold(input: $input) { household { id } } }",
            ServerProcess.input(["id": .string(id), "name": "Flat", "clientMutationId": .string("household-\(id)")]))
    }

    private static func consentEntry(_ id: String, in householdID: String, termsVersion: JSON) -> JSON {
        ServerProcess.batchEntry(
            "mutation($input: RecordParentalConsentInput!) { recordParentalConsent(input: $input) { consent { id method } } }",
            ServerProcess.input([
                "id": .string(id), "householdId": .string(householdID), "method": "CARD", "path": "SUPERVISED",
                "attestation": "I am the parent and I consent.", "termsVersion": termsVersion, "clientMutationId": .string("consent-\(id)"),
            ]))
    }

    private static func memberEntry(_ id: String, in householdID: String, consentID: String) -> JSON {
        ServerProcess.batchEntry(
            "mutation($input: AddMemberInput!) { addMember(input: $input) { member { id displayName } } }",
            ServerProcess.input([
                "id": .string(id), "householdId": .string(householdID), "kind": "SHADOW", "displayName": "Tom", "age": 4,
                "consentId": .string(consentID), "clientMutationId": .string("member-\(id)"),
            ]))
    }

    @Test func aQueueOfHouseholdConsentAndChildGoesThroughOnceHoweverOftenItIsSent() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let (ana, ben) = (try server.person("ana"), try server.person("ben"))
        let version = try #require(try server.graphQL("{ terms { currentVersion } }", token: ana.token).data?["terms"]?["currentVersion"])
        let (household, consent, member) = (Self.id("hh", 1), Self.id("cns", 1), Self.id("mem", 1))
        let queue = [
            Self.householdEntry(household), Self.consentEntry(consent, in: household, termsVersion: version),
            Self.memberEntry(member, in: household, consentID: consent),
        ]
        for pass in ["first", "replayed", "after pruning"] {
            if pass == "after pruning" { try server.databaseWrite("DELETE FROM mutation_replays") }
            let results = ServerProcess.batchResults(try server.syncBatch(queue, as: ana))
            #expect(results.map { $0["isSuccess"] } == [true, true, true], "\(pass): \(results)")
            #expect(results[1]["response"]?["data"]?["recordParentalConsent"]?["consent"]?["id"]?.stringValue == consent, "\(pass)")
            #expect(results[2]["response"]?["data"]?["addMember"]?["member"]?["id"]?.stringValue == member, "\(pass)")
        }
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM parental_consents") == "1")
        #expect(try server.databaseText("SELECT consent_id FROM members WHERE id = '\(member)'") == consent)

        // Someone else's phone with the same consent id: taken, without saying whose.
        let (cabin, _) = try server.createHousehold("Cabin", as: ben)
        let taken = ServerProcess.batchResults(try server.syncBatch([Self.consentEntry(consent, in: cabin, termsVersion: version)], as: ben))
        let error = taken.first?["response"]?["errors"]?[0]?["extensions"]
        #expect(error?["code"] == "BAD_USER_INPUT" && error?["reason"] == "ID_TAKEN" && error?["field"] == "input.id", "\(taken)")
        #expect(!"\(taken)".contains("ana"))
    }

    @Test func aMemberQueuedBeforeItsConsentIsRefusedAndSucceedsWhenTheQueueIsSentInOrder() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let version = try #require(try server.graphQL("{ terms { currentVersion } }", token: ana.token).data?["terms"]?["currentVersion"])
        let (household, _) = try server.createHousehold("Flat", as: ana)
        let (consent, member) = (Self.id("cns", 2), Self.id("mem", 2))
        let addChild = Self.memberEntry(member, in: household, consentID: consent)
        let recordConsent = Self.consentEntry(consent, in: household, termsVersion: version)
        // syncBatch applies entries in the order sent: a member before its consent finds no consent.
        let wrongOrder = ServerProcess.batchResults(try server.syncBatch([addChild, recordConsent], as: ana))
        #expect(wrongOrder.map { $0["isSuccess"] } == [false, true], "\(wrongOrder)")
        let refused = wrongOrder.first?["response"]?["errors"]?[0]?["extensions"]
        #expect(refused?["field"] == "input.consentId" && refused?["reason"] == "UNKNOWN_VALUE", "\(wrongOrder)")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM members WHERE kind = 'shadow'") == "0")
        // Sent again, consent first: the consent answers the first record and the child is added under it.
        let inOrder = ServerProcess.batchResults(try server.syncBatch([recordConsent, addChild], as: ana))
        #expect(inOrder.map { $0["isSuccess"] } == [true, true], "\(inOrder)")
        #expect(try server.databaseText("SELECT consent_id FROM members WHERE id = '\(member)'") == consent)
    }
}
