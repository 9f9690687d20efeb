import Foundation
import GraphQL
import Testing

/// A household to try chores in through the binary, and the chore operations' documents.
extension ServerProcess {
    /// Household "Flat" of `ana` (admin) with `ben` (member), `kim` (a child, 14, whose member record
    /// is linked to an account of her own) and `cara` in a household of her own.
    struct ChoreFamily {
        let ana: Person
        let ben: Person
        let kim: Person
        let cara: Person
        let householdID: String
        let anaMemberID: String
        let benMemberID: String
        let kimMemberID: String
        let caraHouseholdID: String
        let caraMemberID: String
    }

    /// Sets up the ``ChoreFamily``.
    func choreFamily() throws -> ChoreFamily {
        let ana = try person("ana")
        let ben = try person("ben")
        let kim = try person("kim")
        let cara = try person("cara")
        let (householdID, anaMemberID) = try createHousehold("Flat", as: ana)
        let benMemberID = try join(ben, householdID, invitedBy: ana)
        let kimMemberID = try childWithLogin(kim, in: householdID, by: ana)
        let (caraHouseholdID, caraMemberID) = try createHousehold("Cara's", as: cara)
        return ChoreFamily(
            ana: ana, ben: ben, kim: kim, cara: cara, householdID: householdID, anaMemberID: anaMemberID, benMemberID: benMemberID,
            kimMemberID: kimMemberID, caraHouseholdID: caraHouseholdID, caraMemberID: caraMemberID)
    }

    /// Runs `body` on a new server started with ``householdArguments`` and `extra`, with the
    /// ``ChoreFamily`` set up on it; removes the server afterwards.
    static func withChoreFamily(_ extra: [String] = [], _ body: (ServerProcess, ChoreFamily) throws -> Void) throws {
        let server = try ServerProcess(householdArguments + extra)
        defer { server.remove() }
        try body(server, try server.choreFamily())
    }

    /// Registers an adult for each of `names` and has them join the family's household (invited by
    /// Ana, as members); returns them in order.
    func adults(_ names: String..., joining family: ChoreFamily) throws -> [Person] {
        try names.map { name in
            let adult = try person(name)
            try join(adult, family.householdID, invitedBy: family.ana)
            return adult
        }
    }

    /// Adds `child` to `householdID` as a child of 14 (no consent needed) and links the member record
    /// to their account, as a child who gets a login of their own will be (the link itself comes with
    /// a later issue, so the test writes it); returns the member id.
    func childWithLogin(_ child: Person, in householdID: String, by admin: Person) throws -> String {
        let added = try graphQL(
            "mutation($input: AddMemberInput!) { addMember(input: $input) { member { id } } }",
            variables: Self.input(["householdId": .string(householdID), "kind": "CHILD", "displayName": "Kim", "age": 14]), token: admin.token)
        let memberID = try #require(added.data?["addMember"]?["member"]?["id"]?.stringValue, "\(added.json)")
        try databaseWrite("UPDATE members SET user_id = '\(child.userID)' WHERE id = '\(memberID)'")
        return memberID
    }

    /// The fields of a chore the end-to-end tests read.
    static let choreFields = """
        id title description isPersonal assignmentMode tokens requiresApproval presetId viewerCanEdit hasSteps
        household { id } assignees { displayName member { id } } steps { id title assignee { member { id } } completers { kinds } }
        tags { id name } completers { roles kinds members { id } } editors { roles members { id } }
        schedule { __typename ... on OnceSchedule { dueAt } ... on RecurringSchedule { recurrence } ... on AfterCompletionSchedule { every unit firstDueAt } }
        """

    /// Calls `createChore` with `input` as `person`.
    func createChore(_ input: [String: JSON], as person: Person) throws -> GraphQLResponse {
        try graphQL(
            "mutation($input: CreateChoreInput!) { createChore(input: $input) { chore { \(Self.choreFields) } clientMutationId } }",
            variables: Self.input(input), token: person.token)
    }

    /// Calls `updateChore` with `input` as `person`.
    func updateChore(_ input: [String: JSON], as person: Person) throws -> GraphQLResponse {
        try graphQL(
            "mutation($input: UpdateChoreInput!) { updateChore(input: $input) { chore { \(Self.choreFields) } } }",
            variables: Self.input(input), token: person.token)
    }

    /// Creates a one-off chore titled `title` in `householdID` (personal when `nil`) as `person`, with
    /// `extra` input fields; returns it. Unless `extra` says otherwise it is due years ahead, so it
    /// stays active (a one-off chore past its due day is archived, FR-37).
    func chore(_ title: String, in householdID: String?, as person: Person, _ extra: [String: JSON] = [:]) throws -> JSON {
        var input: [String: JSON] = ["title": .string(title), "schedule": ["once": "2036-03-01T09:00:00Z"]]
        if let householdID { input["householdId"] = .string(householdID) }
        input.merge(extra) { _, new in new }
        let created = try createChore(input, as: person)
        return try #require(created.data?["createChore"]?["chore"], "\(created.json)")
    }

    /// Creates a tag named `name` in `householdID` (personal when `nil`) as `person`; returns its id.
    func tag(_ name: String, in householdID: String?, as person: Person) throws -> String {
        var input: [String: JSON] = ["name": .string(name)]
        if let householdID { input["householdId"] = .string(householdID) }
        let created = try graphQL(
            "mutation($input: CreateTagInput!) { createTag(input: $input) { tag { id } } }", variables: Self.input(input), token: person.token)
        return try #require(created.data?["createTag"]?["tag"]?["id"]?.stringValue, "\(created.json)")
    }
}
