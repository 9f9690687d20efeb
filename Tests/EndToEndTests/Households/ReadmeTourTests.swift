import Foundation
import GraphQL
import Testing

/// The README's API tour ("from registration to a set-up household") runs as written: every
/// GraphQL block of that section is sent in order to a real server, with the placeholders
/// (`"<household.id>"`, tokens from emailed links) replaced by the values earlier steps
/// produced, and must answer without errors.
@Suite struct ReadmeTourTests {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The ```graphql blocks of the tour section, in order.
    static func tourBlocks() throws -> [String] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "#### API tour: from registration to a set-up household"))
        let section = readme[start.upperBound...].prefix { _ in true }
        let end = section.range(of: "\n### ")?.lowerBound ?? section.endIndex
        return section[..<end].components(separatedBy: "```graphql\n").dropFirst().map { block in
            String(block.prefix(upTo: block.range(of: "```")!.lowerBound))
        }
    }

    @Test func theToursBlocksRunInOrderWithoutErrors() throws {
        let blocks = try Self.tourBlocks()
        #expect(blocks.count >= 10)
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ben = try server.person("ben")
        var values: [String: String] = [:]
        var anaToken: String?
        for block in blocks {
            var document = block
            if document.contains("<token from the confirmation link>") {
                values["<token from the confirmation link>"] = try server.emailedToken(
                    to: "ana@example.com", page: "confirm-email", baseURL: ServerProcess.householdBaseURL)
            }
            if document.contains("<token from the invitation link>") {
                values["<token from the invitation link>"] = try server.emailedToken(
                    to: ben.email, page: "invitation", baseURL: ServerProcess.householdBaseURL)
            }
            for (placeholder, value) in values { document = document.replacingOccurrences(of: placeholder, with: value) }
            #expect(!document.contains("\"<"), "an unfilled placeholder in:\n\(document)")
            let asBen = document.contains("invitationPreview") || document.contains("acceptInvitation")
            let response = try server.graphQL(document, token: asBen ? ben.token : anaToken)
            #expect(response.json["errors"] == nil, "\(document)\n→ \(response.json)")
            let data = try #require(response.data)
            if let token = data["register"]?["tokens"]?["accessToken"]?.stringValue { anaToken = token }
            if let created = data["createHousehold"] {
                values["<household.id>"] = created["household"]?["id"]?.stringValue
                values["<member.id>"] = created["member"]?["id"]?.stringValue
            }
            if let consent = data["recordParentalConsent"]?["consent"]?["id"]?.stringValue { values["<consent.id>"] = consent }
        }
        // Where the tour leaves the household: set up, with Lia and Ben in it.
        let members = try server.graphQL(
            "query($id: ID!) { household(id: $id) { onboarding { isComplete } members(first: 10) { totalCount } } }",
            variables: ["id": .string(try #require(values["<household.id>"]))], token: anaToken)
        #expect(members.data?["household"]?["onboarding"]?["isComplete"] == true, "\(members.json)")
        #expect(members.data?["household"]?["members"]?["totalCount"] == 3)
    }
}
