import Foundation
import GraphQL
import Testing

/// The household's chore list (FR-55) through the binary: every chore of the household with its
/// assignees' names and pictures, filtered by tags, status and assignment modes, and nobody else's.
@Suite struct HouseholdChoresViewTests {
    static let list = """
        query($id: ID!, $filter: ChoreFilter) { householdChores(householdId: $id, filter: $filter) {
          totalCount edges { node { title assignmentMode assignees { displayName avatarUrl member { id } } } } } }
        """

    @Test func FR55_everyChoreOfTheHouseholdIsListedWithItsAssigneesNamesAndPicturesAndFilteredByTagsStatusAndModes() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let client = try server.connect()
        defer { client.close() }
        try client.send(Array(
            "PUT /avatar HTTP/1.1\r\nAuthorization: Bearer \(f.ben.token)\r\nContent-Type: image/png\r\nHost: e2e\r\nConnection: close\r\nContent-Length: \(AvatarTests.png.count)\r\n\r\n"
                .utf8) + AvatarTests.png)
        let bensPicture = try #require(try JSON(parsing: client.readResponse().body)["avatarUrl"]?.stringValue)
        let kitchen = try server.tag("Kitchen", in: f.householdID, as: f.ana)
        try server.chore("Dishes", in: f.householdID, as: f.ana, [
            "assignmentMode": "INDIVIDUAL", "assigneeIds": [.string(f.benMemberID)], "tagIds": [.string(kitchen)],
        ])
        try server.chore("Homework", in: f.householdID, as: f.ana, [
            "assignmentMode": "GROUP", "assigneeIds": [.string(f.benMemberID), .string(f.kimMemberID)],
        ])
        try server.chore("Tidy up", in: f.householdID, as: f.ana, ["assignmentMode": "ALL_MEMBERS", "tagIds": [.string(kitchen)]])
        try server.chore("Bins", in: f.householdID, as: f.ana, ["assignmentMode": "SINGLE_ACTION"])
        try server.chore("Last year's", in: f.householdID, as: f.ana, ["schedule": ["once": "2025-06-01T09:00:00Z"]])
        try server.chore("Ben's run", in: nil, as: f.ben)
        try server.chore("Cara's", in: f.caraHouseholdID, as: f.cara)

        func listed(_ filter: [String: JSON] = [:]) throws -> [JSON] {
            var object = OrderedMap<String, JSON>()
            for (key, value) in filter.sorted(by: { $0.key < $1.key }) { object[key] = value }
            let read = try server.graphQL(Self.list, variables: ["id": .string(f.householdID), "filter": .object(object)], token: f.kim.token)
            guard case .array(let edges)? = read.data?["householdChores"]?["edges"] else {
                Issue.record("householdChores: \(read.json)")
                return []
            }
            #expect(read.data?["householdChores"]?["totalCount"] == .int(edges.count))
            return edges.compactMap { $0["node"] }
        }
        let ben: JSON = ["displayName": "ben", "avatarUrl": .string(bensPicture), "member": ["id": .string(f.benMemberID)]]
        let kim: JSON = ["displayName": "Kim", "avatarUrl": .null, "member": ["id": .string(f.kimMemberID)]]
        let all = try listed()
        #expect(all.map { $0["title"] } == ["Bins", "Dishes", "Homework", "Tidy up"], "every member sees the active ones, by title")
        #expect(all[1]["assignees"] == [ben] && all[2]["assignees"] == [ben, kim] && all[0]["assignees"] == [])
        guard case .array(let everyone)? = all[3]["assignees"] else { Issue.record("\(all[3])"); return }
        #expect(Set(everyone.compactMap { $0["member"]?["id"]?.stringValue }) == [f.anaMemberID, f.benMemberID, f.kimMemberID])
        #expect(try listed(["assignmentModes": ["GROUP", "SINGLE_ACTION"]]).map { $0["title"] } == ["Bins", "Homework"])
        #expect(try listed(["tagIds": [.string(kitchen)], "assignmentModes": ["INDIVIDUAL"]]).map { $0["title"] } == ["Dishes"])
        #expect(try listed(["tagIds": [.string(kitchen)], "assignmentModes": ["GROUP"]]).isEmpty)
        #expect(try listed(["statuses": ["ARCHIVED"]]).map { $0["title"] } == ["Last year's"], "past due, archived (FR-37)")
        #expect(try listed(["statuses": ["ACTIVE", "ARCHIVED"], "assignmentModes": ["SINGLE_ACTION"]]).map { $0["title"] } == ["Bins", "Last year's"])

        let outsider = try server.graphQL(Self.list, variables: ["id": .string(f.householdID)], token: f.cara.token)
        let unknown = try server.graphQL(Self.list, variables: ["id": "hh_01900000-0000-7000-8000-000000000000"], token: f.cara.token)
        #expect(outsider.errorCode == "NOT_FOUND" && outsider.json["errors"] == unknown.json["errors"], "\(outsider.json)")
    }
}
