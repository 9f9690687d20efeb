import Foundation
import GraphQL
import HearthDomain

extension HouseholdAuthorizationTests {
    /// The instance operations of issue 14, tried on the fixture's chore ("Dishes", a `SINGLE_ACTION`
    /// chore due 2026-03-01T09:00:00Z, archived since: completing it is a `CONFLICT` for whoever may)
    /// and its derived instance id. Completing is for adults and admins (no rule names children);
    /// reading history and lists is every member's.
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
        Operation(name: "uncompleteChore", adminOnly: false,
                  document: "mutation($input: UncompleteChoreInput!) { uncompleteChore(input: $input) { instance { id } } }") { f, _ in
            ServerProcess.input(["instanceId": .string(dishesInstance(f))])
        },
    ]

    /// The id of the fixture chore's one instance (due 2036-03-01T09:00:00Z, the kit's default), derived as a client would.
    private static func dishesInstance(_ fixture: Fixture) -> String {
        ChoreInstanceID.make(choreID: fixture.choreID, occurrence: Date(timeIntervalSince1970: 2_087_974_800), memberID: nil).rawValue
    }
}
