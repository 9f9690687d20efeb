import Foundation
import GraphQL
import JOSE
import Testing

/// `hearth serve --registration open|invite-only|closed` (FR-67) through the real binary:
/// who may create an account by `register` and by a first Google sign-in, and that existing
/// accounts are never locked out.
@Suite(.serialized) struct RegistrationModeTests {
    static let register = "mutation($input: RegisterInput!) { register(input: $input) { user { id email } tokens { accessToken } } }"

    /// Registers `username` (`<username>@example.com` unless `email` is given) with `invitationToken`.
    static func register(
        _ server: ServerProcess, _ username: String, email: String? = nil, invitationToken: String? = nil
    ) throws -> ServerProcess.GraphQLResponse {
        var input: [String: JSON] = [
            "username": .string(username), "email": .string(email ?? "\(username)@example.com"), "password": "correct horse battery",
        ]
        if let invitationToken { input["invitationToken"] = .string(invitationToken) }
        return try server.graphQL(Self.register, variables: ServerProcess.input(input))
    }

    static func accounts(_ server: ServerProcess) throws -> String? {
        try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM users")
    }

    static func googleSignIn(_ server: ServerProcess, email: String, invitationToken: String? = nil) throws -> JSON {
        var input = OrderedMap<String, JSON>()
        input["idToken"] = .string(try ProviderSignInTests.googleToken(subject: "g-\(email)", email: email))
        input["nonce"] = .string(ProviderSignInTests.rawNonce)
        if let invitationToken { input["invitationToken"] = .string(invitationToken) }
        return try ProviderSignInTests.graphQL(server, ProviderSignInTests.signInWithGoogle, ["input": .object(input)])
    }

    static func keySet() throws -> KeySetServer {
        try KeySetServer(serving: JSONWebKeySet(keys: [ProviderSignInTests.firstKey.verificationKey(keyID: "k1")]))
    }

    @Test func FR67_anOpenServerRegistersAnyone() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        for name in ["ana", "bob"] {
            let registered = try Self.register(server, name)
            #expect(registered.data?["register"]?["user"]?["email"] == .string("\(name)@example.com"), "\(registered.json)")
        }
        #expect(try Self.accounts(server) == "2")
    }

    @Test func FR67_anInviteOnlyServerAdmitsTheFirstAccountThenOnlyInvitees() throws {
        let keys = try Self.keySet()
        defer { keys.stop() }
        let server = try ServerProcess(ServerProcess.householdArguments + [
            "--registration", "invite-only", "--google-client-ids", "test-client", "--google-jwks-url", keys.url, "--test-endpoints",
        ])
        defer { server.remove() }
        // The first account: whoever sets the server up creates the household.
        let ana = try server.person("ana")
        let (household, _) = try server.createHousehold("Home", as: ana)
        let bobToken = try server.inviteToken("bob@example.com", to: household, by: ana)

        let uninvited = try Self.register(server, "bob")
        #expect(uninvited.errorCode == "FORBIDDEN" && uninvited.errorReason == "INVITATION_REQUIRED", "\(uninvited.json)")
        #expect(uninvited.errorExtensions?["field"] == "input.invitationToken")
        let unknown = try Self.register(server, "bob", invitationToken: "bm90LWEtdG9rZW4")
        #expect(unknown.errorCode == "BAD_USER_INPUT" && unknown.errorReason == "LINK_INVALID", "\(unknown.json)")
        #expect(unknown.errorExtensions?["field"] == "input.invitationToken")
        let otherAddress = try Self.register(server, "carol", invitationToken: bobToken)
        #expect(otherAddress.errorReason == "INVITATION_FOR_ANOTHER_ADDRESS", "\(otherAddress.json)")
        let google = try Self.googleSignIn(server, email: "dan@example.com")
        #expect(google["errors"]?[0]?["extensions"]?["reason"] == "INVITATION_REQUIRED", "\(google)")
        #expect(try Self.accounts(server) == "1", "refusals create nothing")

        // Bob, holding his invitation, gets in and joins.
        let bobRegistered = try Self.register(server, "bob", invitationToken: bobToken)
        let bobAccess = try #require(bobRegistered.data?["register"]?["tokens"]?["accessToken"]?.stringValue, "\(bobRegistered.json)")
        let confirmation = try server.emailedToken(to: "bob@example.com", page: "confirm-email", baseURL: ServerProcess.householdBaseURL)
        _ = try server.graphQL(
            "mutation($input: ConfirmEmailInput!) { confirmEmail(input: $input) { user { id } } }",
            variables: ["input": ["token": .string(confirmation)]])
        let bob = ServerProcess.Person(
            username: "bob", userID: try #require(bobRegistered.data?["register"]?["user"]?["id"]?.stringValue), token: bobAccess)
        try server.acceptCurrentTerms(bob)
        let joined = try server.graphQL(
            "mutation($input: AcceptInvitationInput!) { acceptInvitation(input: $input) { member { id } } }",
            variables: ServerProcess.input(["invitation": ["token": .string(bobToken)]]), token: bob.token)
        #expect(joined.data?["acceptInvitation"]?["member"]?["id"]?.stringValue != nil, "\(joined.json)")

        // A Google sign-in that would create an account takes an invitation the same way.
        let danToken = try server.inviteToken("dan@example.com", to: household, by: ana)
        let dan = try Self.googleSignIn(server, email: "dan@example.com", invitationToken: danToken)
        #expect(dan["data"]?["signInWithGoogle"]?["outcome"] == "ACCOUNT_CREATED", "\(dan)")

        // An expired invitation admits nobody.
        let erinToken = try server.inviteToken("erin@example.com", to: household, by: ana)
        let later = try server.post("/_test/clock", String(Date().timeIntervalSince1970 + 15 * 86_400))
        #expect(later.status == 200, "\(later.text)")
        let expired = try Self.register(server, "erin", invitationToken: erinToken)
        #expect(expired.errorCode == "BAD_USER_INPUT" && expired.errorReason == "INVITATION_EXPIRED", "\(expired.json)")
        #expect(try Self.accounts(server) == "3")
    }

    @Test func FR67_aClosedServerRefusesNewAccountsAndKeepsExistingOnes() throws {
        let keys = try Self.keySet()
        defer { keys.stop() }
        let providers = ["--google-client-ids", "test-client", "--google-jwks-url", keys.url]
        let first = try ServerProcess(ServerProcess.householdArguments + providers)
        _ = try first.person("ana")
        let google = try Self.googleSignIn(first, email: "gina@example.com")
        #expect(google["data"]?["signInWithGoogle"]?["outcome"] == "ACCOUNT_CREATED", "\(google)")
        #expect(first.stop() == 0)

        let server = try ServerProcess(
            directory: first.directory, arguments: ServerProcess.householdArguments + providers + ["--registration", "closed"])
        defer { server.remove() }
        let refused = try Self.register(server, "bob")
        #expect(refused.errorCode == "FORBIDDEN" && refused.errorReason == "REGISTRATION_CLOSED", "\(refused.json)")
        let newcomer = try Self.googleSignIn(server, email: "hal@example.com")
        #expect(newcomer["errors"]?[0]?["extensions"]?["reason"] == "REGISTRATION_CLOSED", "\(newcomer)")
        #expect(try Self.accounts(server) == "2")

        // Those who have accounts sign in as before, with a password or with Google.
        let login = try server.graphQL(
            "mutation { login(input: {email: \"ana@example.com\", password: \"correct horse battery\"}) { tokens { accessToken } } }")
        #expect(login.data?["login"]?["tokens"]?["accessToken"]?.stringValue != nil, "\(login.json)")
        let returning = try Self.googleSignIn(server, email: "gina@example.com")
        #expect(returning["data"]?["signInWithGoogle"]?["outcome"] == "SIGNED_IN", "\(returning)")
    }
}
