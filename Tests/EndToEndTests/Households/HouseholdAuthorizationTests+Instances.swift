import Foundation
import GraphQL
import HearthDomain
import Testing

extension HouseholdAuthorizationTests {
    /// The instance operations of issue 14, tried on the fixture's chore ("Dishes", a `SINGLE_ACTION`
    /// chore due 2036-03-01T09:00:00Z) and its derived instance id. Completing is for adults and
    /// admins (no rule names children), and so is recording a completion for the child (on the
    /// child's chore, "Kid's room", due then too); reading history and lists is every member's.
    static let instanceOperations: [Operation] = [
        Operation(name: "myChores of the household", adminOnly: false,
                  document: "query($id: ID) { myChores(filter: {householdId: $id}) { edges { node { id } } } }") { f, _ in
            ["id": .string(f.householdID)]
        },
        Operation(name: "chore.occurrences and completions", adminOnly: false,
                  document: "query($id: ID!) { chore(id: $id) { occurrences(after: \"2026-01-01T00:00:00Z\", first: 3) completions(first: 5) { edges { node { id } } } } }") { f, _ in
            ["id": .string(f.choreID)]
        },
        Operation(name: "household.members.completions", adminOnly: false,
                  document: "query($id: ID!) { household(id: $id) { members(first: 10) { edges { node { completions(first: 5) { edges { node { id } } } } } } } }") { f, _ in
            ["id": .string(f.householdID)]
        },
        Operation(name: "completeChore", adminOnly: false,
                  document: "mutation($input: CompleteChoreInput!) { completeChore(input: $input) { outcome } }",
                  variables: { f, _ in ServerProcess.input(["instanceId": .string(dishesInstance(f))]) }, refusesChildren: true),
        Operation(name: "completeChore on behalf of a child", adminOnly: false,
                  document: "mutation($input: CompleteChoreInput!) { completeChore(input: $input) { outcome } }",
                  variables: { f, _ in
                      ServerProcess.input(["instanceId": .string(instance(of: f.childsChoreID)), "onBehalfOf": .string(f.childMemberID)])
                  },
                  refusesChildren: true),
        Operation(name: "uncompleteChore", adminOnly: false,
                  document: "mutation($input: UncompleteChoreInput!) { uncompleteChore(input: $input) { instance { id } } }") { f, _ in
            ServerProcess.input(["instanceId": .string(dishesInstance(f))])
        },
    ]

    /// Every chore and token-economy object of household A, by id: an outsider gets exactly what an
    /// id that does not exist gets (null through `node`, the same `NOT_FOUND` from each operation
    /// taking one), while its admin finds each.
    @Test func idsOfTheChoresAndTokensOfAnotherHouseholdAnswerExactlyLikeUnknownIds() throws {
        try Self.withFixture { server, f in
            let ledger = try server.graphQL(
                "query($id: ID!) { node(id: $id) { ... on Member { tokenLedger(first: 1) { edges { node { id } } } } } }",
                variables: ["id": .string(f.childMemberID)], token: f.ana.token)
            let entryID = try #require(ledger.data?["node"]?["tokenLedger"]?["edges"]?[0]?["node"]?["id"]?.stringValue, "\(ledger.json)")
            let known = [f.choreID, f.tagID, f.presetID, Self.dishesInstance(f), f.completionID, f.rewardID, f.redemptionID, entryID]
            let unknown = ["chr", "tag", "prs", "chi", "cmp", "rwd", "rdm", "led"].map { "\($0)_01900000-0000-7000-8000-000000000000" }
            let nodes = "query($ids: [ID!]!) { nodes(ids: $ids) { id } }"
            let outsider = try server.graphQL(nodes, variables: ["ids": .array((known + unknown).map { .string($0) })], token: f.cara.token)
            #expect(outsider.data?["nodes"] == JSON.array(Array(repeating: JSON.null, count: known.count + unknown.count)), "\(outsider.json)")
            let admin = try server.graphQL(nodes, variables: ["ids": .array((known + unknown).map { .string($0) })], token: f.ana.token)
            let found = (0..<(known.count + unknown.count)).map { admin.data?["nodes"]?[$0]?["id"]?.stringValue }
            let expected: [String?] = known + unknown.map { _ in nil }
            #expect(found == expected, "\(admin.json)")

            // Each operation taking one id: the outsider's answer is the unknown id's, word for word.
            let byID: [(document: String, input: @Sendable (String) -> [String: JSON], ids: (String, String))] = [
                ("query($input: ID!) { chore(id: $input) { id } }", { ["input": .string($0)] }, (f.choreID, unknown[0])),
                ("mutation($input: UpdateTagInput!) { updateTag(input: $input) { tag { id } } }",
                 { ServerProcess.input(["tagId": .string($0), "name": "Mine"]) }, (f.tagID, unknown[1])),
                ("mutation($input: DeleteChorePresetInput!) { deleteChorePreset(input: $input) { deletedPresetId } }",
                 { ServerProcess.input(["presetId": .string($0)]) }, (f.presetID, unknown[2])),
                ("mutation($input: CompleteChoreInput!) { completeChore(input: $input) { outcome } }",
                 { ServerProcess.input(["instanceId": .string($0)]) }, (Self.dishesInstance(f), unknown[3])),
                ("mutation($input: UncompleteChoreInput!) { uncompleteChore(input: $input) { instance { id } } }",
                 { ServerProcess.input(["instanceId": .string($0)]) }, (Self.dishesInstance(f), unknown[3])),
                ("mutation($input: RejectCompletionInput!) { rejectCompletion(input: $input) { completion { id } } }",
                 { ServerProcess.input(["completionId": .string($0)]) }, (f.completionID, unknown[4])),
                ("mutation($input: UpdateRewardInput!) { updateReward(input: $input) { reward { id } } }",
                 { ServerProcess.input(["rewardId": .string($0), "tokenCost": 1]) }, (f.rewardID, unknown[5])),
                ("mutation($input: RejectRedemptionInput!) { rejectRedemption(input: $input) { redemption { id } } }",
                 { ServerProcess.input(["redemptionId": .string($0)]) }, (f.redemptionID, unknown[6])),
            ]
            for (document, input, (theirs, nobodys)) in byID {
                let guessed = try server.graphQL(document, variables: input(theirs), token: f.cara.token)
                let invented = try server.graphQL(document, variables: input(nobodys), token: f.cara.token)
                #expect(guessed.errorCode == "NOT_FOUND" && guessed.json["errors"] == invented.json["errors"], "\(document): \(guessed.json)")
            }
        }
    }

    /// The id of the fixture chore's one instance, derived as a client would.
    static func dishesInstance(_ fixture: Fixture) -> String {
        instance(of: fixture.choreID)
    }

    /// The id of the one instance of the fixture's shared chore `choreID` (due 2036-03-01T09:00:00Z, the kit's default), derived
    /// as a client would.
    private static func instance(of choreID: String) -> String {
        ChoreInstanceID.make(choreID: choreID, occurrence: Date(timeIntervalSince1970: 2_087_974_800), memberID: nil).rawValue
    }
}
