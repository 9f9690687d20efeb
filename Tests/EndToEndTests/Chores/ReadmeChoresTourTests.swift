import Foundation
import GraphQL
import Testing

/// The README's chores tour runs as written: every `gql '…'` request of that section is sent in
/// order to a real server as the admin of a fresh household, with the placeholders (`<household.id>`,
/// `<member.id>`, `<tag.id>`, `<chore.id>`) replaced by the values earlier steps produced, and must
/// answer without errors.
@Suite struct ReadmeChoresTourTests {
    /// The repository's root, where README.md is.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The JSON bodies of the `gql '…'` requests of the tour under `heading`, in order: what
    /// follows each `block` up to its closing quote (for `TOKEN=$WHO gql '…'` blocks, with `WHO gql '`).
    static func tourRequests(_ heading: String = "#### API tour: chores", block opening: String = "```sh\ngql '") throws -> [String] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: heading))
        let section = readme[start.upperBound...]
        let end = section.range(of: "\n### ")?.lowerBound ?? section.endIndex
        return section[..<end].components(separatedBy: opening).dropFirst().map { block in
            String(block.prefix(upTo: block.range(of: "'\n```")!.lowerBound))
        }
    }

    @Test func theToursRequestsRunInOrderWithoutErrors() throws {
        let requests = try Self.tourRequests()
        #expect(requests.count == 11)
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let (householdID, memberID) = try server.createHousehold("City Flat", as: ana)
        var values = ["<household.id>": householdID, "<member.id>": memberID]
        for request in requests {
            let data = try Self.send(request, values: values, as: ana, on: server)
            if let tag = data["createTag"]?["tag"]?["id"]?.stringValue { values["<tag.id>"] = tag }
            if let chore = data["createChore"]?["chore"], chore["requiresApproval"] != nil { values["<chore.id>"] = chore["id"]?.stringValue }
        }
        let checklist = try OnboardingTests.checklist(of: householdID, as: ana, on: server)
        #expect(checklist["steps"]?[4]?["state"] == "DONE", "the first chore completed the checklist step")
        let left = try server.graphQL(
            "query($id: ID!) { householdChores(householdId: $id) { edges { node { title } } } personalChores { totalCount } }",
            variables: ["id": .string(householdID)], token: ana.token)
        #expect(left.data?["householdChores"]?["edges"] == [["node": ["title": "Tidy your room"]]], "\(left.json)")
        #expect(left.data?["personalChores"]?["totalCount"] == 1)
    }

    /// Sends the tour request `request` with its placeholders replaced by `values` as `person`;
    /// expects it to answer without errors, and returns its data.
    static func send(_ request: String, values: [String: String], as person: ServerProcess.Person, on server: ServerProcess) throws -> JSON {
        var body = request
        for (placeholder, value) in values { body = body.replacingOccurrences(of: placeholder, with: value) }
        #expect(!body.contains("\"<"), "an unfilled placeholder in:\n\(body)")
        let json = try JSON(parsing: Array(body.utf8))
        var variables: [String: JSON] = [:]
        if case .object(let object)? = json["variables"] { for (name, value) in object { variables[name] = value } }
        let response = try server.graphQL(try #require(json["query"]?.stringValue), variables: variables, token: person.token)
        #expect(response.json["errors"] == nil, "\(body)\n→ \(response.json)")
        return try #require(response.data)
    }
}
