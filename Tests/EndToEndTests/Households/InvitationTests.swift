import Foundation
import GraphQL
import HearthStore
import Testing

/// FR-12, FR-13 and FR-ONBOARD-4 through the binary: invitations by email with the token read
/// from the emailed link, accepting by token and by id, declining, resending, revoking, expiry,
/// the address binding and the authorization of every operation.
@Suite struct InvitationEndToEndTests {
    /// A server with ana, the admin of "Flat", and ben and cara, who are not members.
    struct Scene {
        let server: ServerProcess
        let ana: ServerProcess.Person
        let ben: ServerProcess.Person
        let cara: ServerProcess.Person
        let householdID: String

        init() throws {
            server = try ServerProcess(ServerProcess.householdArguments)
            ana = try server.person("ana")
            ben = try server.person("ben")
            cara = try server.person("cara")
            householdID = try server.createHousehold("Flat", as: ana).householdID
        }

        /// Runs `inviteMember` (or `mutation`) for `email` as `person`.
        func invite(
            _ email: String, as person: ServerProcess.Person? = nil, mutation: String = "inviteMember", extra: [String: JSON] = [:]
        ) throws -> ServerProcess.GraphQLResponse {
            var input: OrderedMap<String, JSON> = ["householdId": .string(householdID), "email": .string(email)]
            for (key, value) in extra { input[key] = value }
            let inputType = mutation == "inviteMember" ? "InviteMemberInput" : "InviteCoParentInput"
            return try server.graphQL(
                """
                mutation($input: \(inputType)!) { \(mutation)(input: $input) {
                  invitation { id email role kind isExpired createdAt expiresAt invitedBy { id } member { id status kind role displayName } }
                  inviteLink inviteToken clientMutationId } }
                """,
                variables: ["input": .object(input)], token: (person ?? ana).token)
        }

        /// Invites `email` as ana and returns the invitation's id and the token of the emailed link.
        func invited(_ email: String, mutation: String = "inviteMember") throws -> (id: String, token: String) {
            let response = try invite(email, mutation: mutation)
            let id = try #require(response.data?[mutation]?["invitation"]?["id"]?.stringValue, "\(response.json)")
            return (id, try server.emailedToken(to: email, page: "invitation", baseURL: ServerProcess.householdBaseURL))
        }

        /// Runs `acceptInvitation` or `declineInvitation` for the invitation `reference` names
        /// (`token` or `invitationId`) as `person`, remembered under `clientMutationID` when given.
        func answer(
            _ mutation: String, _ reference: OrderedMap<String, JSON>, clientMutationID: String? = nil, as person: ServerProcess.Person
        ) throws -> ServerProcess.GraphQLResponse {
            let selection = mutation == "acceptInvitation"
                ? "household { id name isActive } member { id role kind status displayName isViewer }" : "declinedInvitationId"
            let inputType = mutation == "acceptInvitation" ? "AcceptInvitationInput" : "DeclineInvitationInput"
            var input: OrderedMap<String, JSON> = ["invitation": .object(reference)]
            input["clientMutationId"] = clientMutationID.map(JSON.string)
            return try server.graphQL(
                "mutation($input: \(inputType)!) { \(mutation)(input: $input) { \(selection) clientMutationId } }",
                variables: ["input": .object(input)],
                token: person.token)
        }

        /// The household's pending invitations' ids as `person` reads them.
        func pendingInvitations(as person: ServerProcess.Person? = nil) throws -> [String] {
            let response = try server.graphQL(
                "query($id: ID!) { household(id: $id) { invitations { id } } }", variables: ["id": .string(householdID)],
                token: (person ?? ana).token)
            guard case .array(let list)? = response.data?["household"]?["invitations"] else {
                throw ServerProcess.Failure(description: "no invitations in \(response.json)")
            }
            return list.compactMap { $0["id"]?.stringValue }
        }

        /// The link page's view of `token`, signed out.
        func preview(_ token: String) throws -> ServerProcess.GraphQLResponse {
            try server.graphQL(
                "query($token: String!) { invitationPreview(token: $token) { id householdName invitedByName email kind role isExpired } }",
                variables: ["token": .string(token)])
        }
    }

    @Test func FR12_anAdminInvitesByEmailAndTheSameLinkIsReturnedAndEmailed() throws {
        let scene = try Scene()
        defer { scene.server.remove() }
        let response = try scene.invite("dan@example.com", extra: ["role": "ADMIN", "clientMutationId": "c-1"])
        let payload = try #require(response.data?["inviteMember"], "\(response.json)")
        let token = try #require(payload["inviteToken"]?.stringValue)
        #expect(payload["inviteLink"]?.stringValue == "\(ServerProcess.householdBaseURL)/invitation?token=\(token)")
        #expect(try scene.server.emailedToken(to: "dan@example.com", page: "invitation", baseURL: ServerProcess.householdBaseURL) == token)
        #expect(payload["clientMutationId"] == "c-1")
        let invitation = try #require(payload["invitation"])
        #expect(invitation["email"] == "dan@example.com" && invitation["role"] == "ADMIN" && invitation["kind"] == "PARENT")
        #expect(invitation["isExpired"] == false && invitation["invitedBy"]?["id"] != nil)
        #expect(invitation["member"]?["status"] == "INVITED" && invitation["member"]?["displayName"] == "Invited member")
        #expect(try scene.pendingInvitations() == [try #require(invitation["id"]?.stringValue)])
        let subject = try #require(try scene.server.mails(to: "dan@example.com").last?.subject)
        #expect(subject.contains("Flat"))
    }

    @Test func FR13_theInviteeAcceptsWithTheEmailedTokenAndJoinsWithTheInvitedRole() throws {
        let scene = try Scene()
        defer { scene.server.remove() }
        let response = try scene.invite("ben@example.com", extra: ["role": "ADMIN"])
        try #require(response.data?["inviteMember"] != nil, "\(response.json)")
        let token = try scene.server.emailedToken(to: scene.ben.email, page: "invitation", baseURL: ServerProcess.householdBaseURL)
        let preview = try scene.preview(token)
        #expect(preview.data?["invitationPreview"]?["householdName"] == "Flat", "\(preview.json)")
        #expect(preview.data?["invitationPreview"]?["invitedByName"] == "ana")
        let accepted = try scene.answer("acceptInvitation", ["token": .string(token)], as: scene.ben)
        let payload = try #require(accepted.data?["acceptInvitation"], "\(accepted.json)")
        #expect(payload["household"]?["id"]?.stringValue == scene.householdID)
        #expect(payload["household"]?["isActive"] == true)
        #expect(payload["member"]?["role"] == "ADMIN" && payload["member"]?["status"] == "ACTIVE")
        #expect(payload["member"]?["isViewer"] == true && payload["member"]?["displayName"] == "ben")
        let active = try scene.server.graphQL("{ activeHousehold { id } }", token: scene.ben.token)
        #expect(active.data?["activeHousehold"]?["id"]?.stringValue == scene.householdID)
        #expect(try scene.pendingInvitations().isEmpty)
        let again = try scene.answer("acceptInvitation", ["token": .string(token)], as: scene.ben)
        #expect(again.errorCode == "BAD_USER_INPUT" && again.errorReason == "LINK_INVALID", "\(again.json)")
    }

    @Test func FR13_aReplayedAcceptByTokenReturnsTheFirstJoinInsteadOfLinkInvalid() throws {
        let scene = try Scene()
        defer { scene.server.remove() }
        let (_, token) = try scene.invited("ben@example.com")
        let accepted = try scene.answer("acceptInvitation", ["token": .string(token)], clientMutationID: "offline-7", as: scene.ben)
        let first = try #require(accepted.data?["acceptInvitation"], "\(accepted.json)")
        #expect(first["clientMutationId"] == "offline-7")
        let replayed = try scene.answer("acceptInvitation", ["token": .string(token)], clientMutationID: "offline-7", as: scene.ben)
        #expect(replayed.json["errors"] == nil, "\(replayed.json)")
        let payload = try #require(replayed.data?["acceptInvitation"])
        #expect(payload["member"]?["id"] == first["member"]?["id"] && payload["household"]?["id"]?.stringValue == scene.householdID)
        #expect(payload["member"]?["status"] == "ACTIVE" && payload["clientMutationId"] == "offline-7")
        let members = try scene.server.graphQL(
            "query($id: ID!) { household(id: $id) { members(first: 10) { totalCount } } }",
            variables: ["id": .string(scene.householdID)], token: scene.ana.token)
        #expect(members.data?["household"]?["members"]?["totalCount"] == 2, "\(members.json)")
        let fresh = try scene.answer("acceptInvitation", ["token": .string(token)], clientMutationID: "offline-8", as: scene.ben)
        #expect(fresh.errorReason == "LINK_INVALID", "\(fresh.json)")
    }

    @Test func FR13_theInviteeAcceptsByIdFromTheirInvitations() throws {
        let scene = try Scene()
        defer { scene.server.remove() }
        let (id, _) = try scene.invited("ben@example.com")
        let mine = try scene.server.graphQL("{ myInvitations { id householdName invitedByName email role kind isExpired } }", token: scene.ben.token)
        let received = try #require(mine.data?["myInvitations"]?[0], "\(mine.json)")
        #expect(received["id"]?.stringValue == id && received["householdName"] == "Flat" && received["invitedByName"] == "ana")
        #expect(received["role"] == "MEMBER" && received["kind"] == "PARENT" && received["isExpired"] == false)
        let accepted = try scene.answer("acceptInvitation", ["invitationId": .string(id)], as: scene.ben)
        #expect(accepted.data?["acceptInvitation"]?["member"]?["role"] == "MEMBER", "\(accepted.json)")
        let after = try scene.server.graphQL("{ myInvitations { id } }", token: scene.ben.token)
        #expect(after.data?["myInvitations"] == .array([]))
    }

    @Test func FR13_declineRemovesTheInvitationByTokenOrById() throws {
        let scene = try Scene()
        defer { scene.server.remove() }
        let toBen = try scene.invited("ben@example.com")
        let toCara = try scene.invited("cara@example.com")
        let byToken = try scene.answer("declineInvitation", ["token": .string(toBen.token)], as: scene.ben)
        #expect(byToken.data?["declineInvitation"]?["declinedInvitationId"]?.stringValue == toBen.id, "\(byToken.json)")
        let byID = try scene.answer("declineInvitation", ["invitationId": .string(toCara.id)], as: scene.cara)
        #expect(byID.data?["declineInvitation"]?["declinedInvitationId"]?.stringValue == toCara.id, "\(byID.json)")
        #expect(try scene.pendingInvitations().isEmpty)
        let households = try scene.server.graphQL("{ households { id } }", token: scene.ben.token)
        #expect(households.data?["households"] == .array([]))
        #expect(try scene.preview(toBen.token).errorReason == "LINK_INVALID")
    }

    @Test func FR13_anInvitationNeedsTheInvitedAddressAndBothIdentificationsCannotBeGiven() throws {
        let scene = try Scene()
        defer { scene.server.remove() }
        let (id, token) = try scene.invited("ben@example.com")
        let byToken = try scene.answer("acceptInvitation", ["token": .string(token)], as: scene.cara)
        #expect(byToken.errorCode == "FORBIDDEN" && byToken.errorReason == "INVITATION_FOR_ANOTHER_ADDRESS", "\(byToken.json)")
        let byID = try scene.answer("acceptInvitation", ["invitationId": .string(id)], as: scene.cara)
        #expect(byID.errorCode == "NOT_FOUND", "\(byID.json)")
        let decline = try scene.answer("declineInvitation", ["token": .string(token)], as: scene.cara)
        #expect(decline.errorReason == "INVITATION_FOR_ANOTHER_ADDRESS", "\(decline.json)")
        let both = try scene.answer("acceptInvitation", ["token": .string(token), "invitationId": .string(id)], as: scene.ben)
        #expect(both.errorCode == "BAD_USER_INPUT" && both.data?["acceptInvitation"] == nil, "\(both.json)")
        #expect(try scene.pendingInvitations() == [id])
    }

    @Test func FR13_anExpiredInvitationIsRefusedButShownAsExpired() throws {
        let scene = try Scene()
        defer { scene.server.remove() }
        let (id, token) = try scene.invited("ben@example.com")
        try scene.server.databaseWrite("UPDATE invitations SET expires_at = '2000-01-01T00:00:00.000Z'")
        let accepted = try scene.answer("acceptInvitation", ["token": .string(token)], as: scene.ben)
        #expect(accepted.errorCode == "BAD_USER_INPUT" && accepted.errorReason == "INVITATION_EXPIRED", "\(accepted.json)")
        #expect(try scene.preview(token).data?["invitationPreview"]?["isExpired"] == true)
        let mine = try scene.server.graphQL("{ myInvitations { id isExpired } }", token: scene.ben.token)
        #expect(mine.data?["myInvitations"]?[0]?["isExpired"] == true, "\(mine.json)")
        #expect(try scene.pendingInvitations() == [id])
    }

    @Test func FR12_resendingSendsANewLinkAndTheOldOneStopsWorking() throws {
        let scene = try Scene()
        defer { scene.server.remove() }
        let (id, first) = try scene.invited("ben@example.com")
        let resent = try scene.server.graphQL(
            "mutation($input: ResendInvitationInput!) { resendInvitation(input: $input) { inviteToken invitation { id isExpired } } }",
            variables: ["input": ["invitationId": .string(id)]], token: scene.ana.token)
        let token = try #require(resent.data?["resendInvitation"]?["inviteToken"]?.stringValue, "\(resent.json)")
        #expect(token != first && resent.data?["resendInvitation"]?["invitation"]?["id"]?.stringValue == id)
        #expect(try scene.server.emailedToken(to: scene.ben.email, page: "invitation", baseURL: ServerProcess.householdBaseURL) == token)
        #expect(try scene.server.mails(to: scene.ben.email).filter { $0.subject.contains("Flat") }.count == 2)
        #expect(try scene.preview(first).errorReason == "LINK_INVALID")
        let accepted = try scene.answer("acceptInvitation", ["token": .string(token)], as: scene.ben)
        #expect(accepted.data?["acceptInvitation"]?["member"] != nil, "\(accepted.json)")
    }

    @Test func FR12_revokingWithdrawsTheInvitationAndItsLink() throws {
        let scene = try Scene()
        defer { scene.server.remove() }
        let (id, token) = try scene.invited("ben@example.com")
        let revoked = try scene.server.graphQL(
            "mutation($input: RevokeInvitationInput!) { revokeInvitation(input: $input) { revokedInvitationId household { id } } }",
            variables: ["input": ["invitationId": .string(id)]], token: scene.ana.token)
        #expect(revoked.data?["revokeInvitation"]?["revokedInvitationId"]?.stringValue == id, "\(revoked.json)")
        #expect(revoked.data?["revokeInvitation"]?["household"]?["id"]?.stringValue == scene.householdID)
        #expect(try scene.pendingInvitations().isEmpty)
        let accepted = try scene.answer("acceptInvitation", ["token": .string(token)], as: scene.ben)
        #expect(accepted.errorReason == "LINK_INVALID", "\(accepted.json)")
    }

    @Test func FR12_invitingAnExistingMemberIsAFriendlyConflictAndTheServerCarriesOn() throws {
        let scene = try Scene()
        defer { scene.server.remove() }
        let (_, token) = try scene.invited("ben@example.com")
        _ = try scene.answer("acceptInvitation", ["token": .string(token)], as: scene.ben)
        let response = try scene.invite("BEN@example.com")
        #expect(response.errorCode == "CONFLICT" && response.errorReason == "ALREADY_MEMBER", "\(response.json)")
        #expect(response.json["errors"]?[0]?["message"] == "BEN@example.com is already a member of Flat.")
        let pending = try scene.invite("cara@example.com")
        #expect(pending.data?["inviteMember"] != nil, "\(pending.json)")
        let twice = try scene.invite("cara@example.com")
        #expect(twice.errorCode == "CONFLICT" && twice.errorReason == "ALREADY_INVITED", "\(twice.json)")
    }

    @Test func FR12_onlyAdminsManageInvitationsAndNonMembersLearnNothing() throws {
        let scene = try Scene()
        defer { scene.server.remove() }
        let (_, token) = try scene.invited("ben@example.com")
        _ = try scene.answer("acceptInvitation", ["token": .string(token)], as: scene.ben)
        let (id, _) = try scene.invited("dan@example.com")
        for (person, code) in [(scene.ben, "FORBIDDEN"), (scene.cara, "NOT_FOUND")] {
            #expect(try scene.invite("eve@example.com", as: person).errorCode == code)
            #expect(try scene.invite("eve@example.com", as: person, mutation: "inviteCoParent").errorCode == code)
            for mutation in ["resendInvitation", "revokeInvitation"] {
                let inputType = mutation == "resendInvitation" ? "ResendInvitationInput" : "RevokeInvitationInput"
                let response = try scene.server.graphQL(
                    "mutation($input: \(inputType)!) { \(mutation)(input: $input) { clientMutationId } }",
                    variables: ["input": ["invitationId": .string(id)]], token: person.token)
                #expect(response.errorCode == code, "\(mutation): \(response.json)")
            }
        }
        #expect(try scene.pendingInvitations(as: scene.ben).isEmpty)
        #expect(try scene.pendingInvitations() == [id])
    }

    @Test func FR_ONBOARD_4_aCoParentInviteIsAnInvitedAdminForFourteenDaysWithACopyableLink() throws {
        let scene = try Scene()
        defer { scene.server.remove() }
        let response = try scene.invite("ben@example.com", mutation: "inviteCoParent", extra: ["displayName": "Ben"])
        let payload = try #require(response.data?["inviteCoParent"], "\(response.json)")
        #expect(payload["invitation"]?["kind"] == "CO_PARENT" && payload["invitation"]?["role"] == "ADMIN")
        #expect(payload["invitation"]?["member"]?["status"] == "INVITED" && payload["invitation"]?["member"]?["displayName"] == "Ben")
        let token = try #require(payload["inviteToken"]?.stringValue)
        #expect(payload["inviteLink"]?.stringValue == "\(ServerProcess.householdBaseURL)/invitation?token=\(token)")
        func stored(_ column: String) throws -> Date {
            let text = try #require(try scene.server.databaseText("SELECT \(column) FROM invitations"))
            return try #require(Date.fromDatabaseValue(.text(text)))
        }
        #expect(try (stored("expires_at").timeIntervalSince(stored("created_at")) / 86.4).rounded() == 14_000, "14 days, to the 1/1000 day")
        let accepted = try scene.answer("acceptInvitation", ["token": .string(token)], as: scene.ben)
        #expect(accepted.data?["acceptInvitation"]?["member"]?["kind"] == "CO_PARENT", "\(accepted.json)")
        #expect(accepted.data?["acceptInvitation"]?["member"]?["role"] == "ADMIN")
    }

    @Test func FR_ONBOARD_4_aCoParentWhoIsAlreadyAMemberGetsAFriendlyConflict() throws {
        let scene = try Scene()
        defer { scene.server.remove() }
        let response = try scene.invite("ana@example.com", mutation: "inviteCoParent")
        #expect(response.errorCode == "CONFLICT" && response.errorReason == "ALREADY_MEMBER", "\(response.json)")
        #expect(response.json["errors"]?[0]?["message"] == "ana@example.com is already a member of Flat.")
        #expect(try scene.invited("ben@example.com", mutation: "inviteCoParent").token.isEmpty == false)
    }
}
