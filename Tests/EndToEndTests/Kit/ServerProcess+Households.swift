import Foundation
import GraphQL
import Testing

/// Signed-up people and households for end-to-end tests of households and onboarding.
extension ServerProcess {
    /// A registered account with a confirmed address, signed in.
    struct Person {
        /// The username; the address is `<username>@example.com`.
        let username: String
        /// The account's id.
        let userID: String
        /// A valid access token.
        let token: String
        /// The address.
        var email: String { "\(username)@example.com" }
    }

    /// The base URL household tests start the server with (`--public-base-url`): links in emails start with it.
    static let householdBaseURL = "https://hearth.test"

    /// The arguments household tests start the server with: cheap password hashing, a known base URL.
    static let householdArguments = ["--password-hash-cost", "10", "--public-base-url", householdBaseURL]

    /// Registers `username`, confirms the address with the emailed link and, unless told not to,
    /// accepts the current terms.
    func person(_ username: String, acceptingTerms: Bool = true) throws -> Person {
        let registered = try graphQL(
            "mutation($input: RegisterInput!) { register(input: $input) { user { id } tokens { accessToken } } }",
            variables: ["input": .object([
                "username": .string(username), "email": .string("\(username)@example.com"),
                "password": "correct horse battery",
            ])])
        let payload = try #require(registered.data?["register"], "\(registered.json)")
        let person = Person(
            username: username, userID: try #require(payload["user"]?["id"]?.stringValue),
            token: try #require(payload["tokens"]?["accessToken"]?.stringValue))
        let token = try emailedToken(to: person.email, page: "confirm-email", baseURL: Self.householdBaseURL)
        let confirmed = try graphQL(
            "mutation($input: ConfirmEmailInput!) { confirmEmail(input: $input) { user { isEmailConfirmed } } }",
            variables: ["input": ["token": .string(token)]])
        try #require(confirmed.data?["confirmEmail"]?["user"]?["isEmailConfirmed"] == true, "\(confirmed.json)")
        if acceptingTerms { try acceptCurrentTerms(person) }
        return person
    }

    /// Accepts the server's current terms as `person`.
    func acceptCurrentTerms(_ person: Person) throws {
        let terms = try graphQL("{ terms { currentVersion } }", token: person.token)
        let version = try #require(terms.data?["terms"]?["currentVersion"]?.stringValue, "\(terms.json)")
        let accepted = try graphQL(
            "mutation($input: AcceptTermsInput!) { acceptTerms(input: $input) { terms { isAcceptanceRequired } } }",
            variables: ["input": ["version": .string(version)]], token: person.token)
        try #require(accepted.data?["acceptTerms"]?["terms"]?["isAcceptanceRequired"] == false, "\(accepted.json)")
    }

    /// `fields` as the `input` variable of a mutation, in key order (so a request reads the same every run).
    static func input(_ fields: [String: JSON]) -> [String: JSON] {
        var object = OrderedMap<String, JSON>()
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) { object[key] = value }
        return ["input": .object(object)]
    }

    /// Makes `person` an active member of `householdID` with `role`, as people join: `admin`
    /// invites their address and they accept the emailed token; returns their member id.
    @discardableResult
    func join(_ person: Person, _ householdID: String, role: String = "MEMBER", invitedBy admin: Person) throws -> String {
        let token = try inviteToken(person.email, to: householdID, role: role, by: admin)
        let accepted = try graphQL(
            "mutation($input: AcceptInvitationInput!) { acceptInvitation(input: $input) { member { id } } }",
            variables: Self.input(["invitation": ["token": .string(token)]]), token: person.token)
        return try #require(accepted.data?["acceptInvitation"]?["member"]?["id"]?.stringValue, "\(accepted.json)")
    }

    /// Invites `email` to `householdID` with `role` as `admin`; returns the link's token.
    func inviteToken(_ email: String, to householdID: String, role: String = "MEMBER", by admin: Person) throws -> String {
        let invited = try graphQL(
            "mutation($input: InviteMemberInput!) { inviteMember(input: $input) { inviteToken } }",
            variables: Self.input(["householdId": .string(householdID), "email": .string(email), "role": .string(role)]),
            token: admin.token)
        return try #require(invited.data?["inviteMember"]?["inviteToken"]?.stringValue, "\(invited.json)")
    }

    /// Creates a household named `name` as `person`; returns its id and the creator's member id.
    @discardableResult
    func createHousehold(_ name: String, as person: Person) throws -> (householdID: String, memberID: String) {
        let created = try graphQL(
            "mutation($input: CreateHouseholdInput!) { createHousehold(input: $input) { household { id } member { id } } }",
            variables: ["input": ["name": .string(name)]], token: person.token)
        let payload = try #require(created.data?["createHousehold"], "\(created.json)")
        return (try #require(payload["household"]?["id"]?.stringValue), try #require(payload["member"]?["id"]?.stringValue))
    }
}
