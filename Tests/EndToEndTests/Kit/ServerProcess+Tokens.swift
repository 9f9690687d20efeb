import Foundation
import GraphQL
import Testing

/// Completions for the token economy's end-to-end tests.
extension ServerProcess {
    /// A one-off chore of `householdID` worth `tokens`, due tomorrow and assigned to `child` (member
    /// `childMemberID`), created by `admin` and completed by `child`; returns the chore's instance,
    /// the completion's id and its status (`PENDING_APPROVAL` when it needs approval).
    func childCompletesAChore(
        _ child: Person, member childMemberID: String, in householdID: String, createdBy admin: Person, tokens: Int, requiresApproval: Bool
    ) throws -> (instanceID: String, completionID: String, status: String?) {
        let due = ISO8601DateFormatter().string(from: Date().addingTimeInterval(86_400))
        let chore = try chore("Room", in: householdID, as: admin, [
            "assignmentMode": "INDIVIDUAL", "assigneeIds": [.string(childMemberID)], "tokens": .int(tokens),
            "requiresApproval": .bool(requiresApproval), "schedule": ["once": .string(due)],
        ])
        let listed = try graphQL("{ myChores { edges { node { id chore { id } } } } }", token: child.token)
        var listedID: String?
        if case .array(let edges)? = listed.data?["myChores"]?["edges"] {
            listedID = edges.compactMap { $0["node"] }.first { $0["chore"]?["id"] == chore["id"] }?["id"]?.stringValue
        }
        let instanceID = try #require(listedID, "the chore's instance in myChores: \(listed.json)")
        let done = try graphQL(
            "mutation($input: CompleteChoreInput!) { completeChore(input: $input) { completion { id status } } }",
            variables: Self.input(["instanceId": .string(instanceID)]), token: child.token)
        let completion = try #require(done.data?["completeChore"]?["completion"], "\(done.json)")
        return (instanceID, try #require(completion["id"]?.stringValue), completion["status"]?.stringValue)
    }
}
