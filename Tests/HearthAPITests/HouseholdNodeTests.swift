import Foundation
import GraphQL
import HearthDomain
import HearthServices
import HearthStore
import TestFixtures
import Testing

/// `Query.node` and `Query.nodes` for households and members: the viewer's own resolve, those of
/// households they are not in answer null exactly like unknown ids; ids of another type than
/// asked for, or malformed, answer null or `NOT_FOUND` without a read; ids issued before ids
/// carried their type keep resolving.
@Suite struct HouseholdNodeTests {
    private static let nodes = """
        query($ids: [ID!]!) {
          nodes(ids: $ids) { __typename id ... on Household { name } ... on Member { displayName household { id } } }
        }
        """
    private static let node = "query($id: ID!) { node(id: $id) { __typename id } }"

    private func nodes(_ ids: [String], as viewer: Viewer, in fixture: HouseholdsAPIFixture) async throws -> [JSON] {
        let result = try await fixture.execute(Self.nodes, ["ids": .array(ids.map { .string($0) })], as: viewer)
        #expect(result.errors.isEmpty)
        guard case .array(let found)? = result.data?["nodes"] else { throw GraphQLError(message: "no nodes: \(result.errors)") }
        return found
    }

    private func node(_ id: String, as viewer: Viewer, in fixture: HouseholdsAPIFixture) async throws -> JSON? {
        let result = try await fixture.execute(Self.node, ["id": .string(id)], as: viewer)
        #expect(result.errors.isEmpty)
        return result.data?["node"]
    }

    @Test func ownHouseholdsAndTheirMembersResolveOthersAreNullLikeUnknownIds() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let ben = try await fixture.person("ben")
            let (flat, anaInFlat) = try await fixture.household("Flat", by: ana)
            let (cabin, benInCabin) = try await fixture.household("Cabin", by: ben)
            let unknown = GlobalID.make(.household, now: Date()).rawValue

            let found = try await nodes([flat, anaInFlat, cabin, benInCabin, unknown, flat], as: ana, in: fixture)
            #expect(found.count == 6)
            #expect(found[0]["__typename"] == "Household")
            #expect(found[0]["id"] == .string(flat))
            #expect(found[0]["name"] == "Flat")
            #expect(found[1]["__typename"] == "Member")
            #expect(found[1]["displayName"] == "ana")
            #expect(found[1]["household"]?["id"] == .string(flat))
            #expect(Array(found[2...4]) == [.null, .null, .null])
            #expect(found[5]["id"] == .string(flat))

            #expect(try await node(flat, as: ana, in: fixture)?["__typename"] == "Household")
            #expect(try await node(anaInFlat, as: ana, in: fixture)?["__typename"] == "Member")
            for hidden in [cabin, benInCabin, unknown] {
                #expect(try await node(hidden, as: ana, in: fixture) == .null)
            }
        }
    }

    @Test func membersOfASharedHouseholdResolveButNotTheirOtherHouseholds() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let ben = try await fixture.person("ben")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            let (cabin, benInCabin) = try await fixture.household("Cabin", by: ben)
            let benInFlat = try await fixture.join(flat, ben, as: "Ben")

            let found = try await nodes([benInFlat, benInCabin, cabin], as: ana, in: fixture)
            #expect(found[0]["displayName"] == "Ben")
            #expect(found[0]["household"]?["id"] == .string(flat))
            #expect(Array(found[1...]) == [.null, .null])
        }
    }

    @Test func aFormerMemberNoLongerReachesTheHouseholdOrItsMembers() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let ben = try await fixture.person("ben")
            let (flat, anaInFlat) = try await fixture.household("Flat", by: ana)
            let benInFlat = try await fixture.join(flat, ben, as: "Ben")
            #expect(try await nodes([flat, anaInFlat], as: ben, in: fixture).map { $0["__typename"] } == ["Household", "Member"])

            try await fixture.depart(.memberLeft, flat, memberID: benInFlat, of: ben)
            #expect(try await nodes([flat, anaInFlat, benInFlat], as: ben, in: fixture) == [.null, .null, .null])
        }
    }

    @Test func invitationsResolveForTheirHouseholdsAdminsOnly() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let ben = try await fixture.person("ben")
            let cleo = try await fixture.person("cleo")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            try await fixture.household("Cabin", by: cleo)
            _ = try await fixture.join(flat, ben, as: "Ben")
            let invited = try await fixture.execute(
                """
                mutation($input: InviteMemberInput!) { inviteMember(input: $input) { invitation { id } } }
                """, ["input": ["householdId": .string(flat), "email": "dan@example.com"]], as: ana)
            let invitation = try #require(invited.data?["inviteMember"]?["invitation"]?["id"], "\(invited.errors)")
            guard case .string(let id) = invitation else { throw GraphQLError(message: "no invitation id") }

            #expect(try await nodes([id], as: ana, in: fixture).map { $0["__typename"] } == ["Invitation"])
            // Ben is a member of Flat but not an admin; Cleo is in another household.
            #expect(try await nodes([id], as: ben, in: fixture) == [.null])
            #expect(try await node(id, as: cleo, in: fixture) == .null)
        }
    }

    /// Connections the pool lent since it opened: unchanged across a request means it read nothing.
    private func lendings(_ fixture: HouseholdsAPIFixture) throws -> Int {
        try StoreStatistics.lendings(of: fixture.harness.pool)
    }

    @Test func idsOfAnotherTypeOrMalformedAreNullOrNotFoundWithoutARead() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let (flat, anaInFlat) = try await fixture.household("Flat", by: ana)
            let uuid = String(flat.dropFirst("hh_".count))
            // No node has these types (someone else's account is not visible either), or they are malformed.
            let noNodes = ["avt_\(uuid)", "dep_\(uuid)", "usr_\(uuid)", "chi_\(uuid)", "HH_\(uuid)", "hh_\(uuid.uppercased())", " \(flat)", "garbage", ""]
            // `household(id:)` expects a household's id.
            let notHouseholds = [anaInFlat, "mem_\(uuid)", ana.userID, "HH_\(uuid)", "garbage"]
            let household = "query($id: ID!) { household(id: $id) { id } }"
            // Once to fill the caches a signed-in request reads (the account), then counted.
            _ = try await nodes(noNodes, as: ana, in: fixture)
            let before = try lendings(fixture)
            #expect(try await nodes(noNodes, as: ana, in: fixture) == Array(repeating: .null, count: noNodes.count))
            for id in noNodes {
                #expect(try await node(id, as: ana, in: fixture) == .null)
            }
            for id in notHouseholds {
                let result = try await fixture.execute(household, ["id": .string(id)], as: ana)
                #expect(result.errors.map { $0.extensions["code"] } == ["NOT_FOUND"])
            }
            #expect(try lendings(fixture) == before)
            #expect(try await node(flat, as: ana, in: fixture)?["id"] == .string(flat))
            #expect(try lendings(fixture) > before)
        }
    }

    @Test func idsIssuedBeforeIdsCarriedTheirTypeKeepResolving() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let ben = try await fixture.person("ben")
            let legacy = try fixture.harness.legacyHousehold(named: "Old Farm", admin: ana)
            let (flat, _) = try await fixture.household("Flat", by: ana)
            let ids = [legacy.householdID, legacy.memberID, legacy.invitationID, legacy.consentID, legacy.invitedMemberID, flat]

            let found = try await nodes(ids, as: ana, in: fixture)
            #expect(found.map { $0["__typename"] } == ["Household", "Member", "Invitation", "ParentalConsent", "Member", "Household"])
            #expect(found.map { $0["id"] } == ids.map { .string($0) })
            #expect(found[1]["household"]?["id"] == .string(legacy.householdID))
            let household = try await fixture.execute("query($id: ID!) { household(id: $id) { name } }", ["id": .string(legacy.householdID)], as: ana)
            #expect(household.data?["household"]?["name"] == "Old Farm")
            #expect(try await nodes(ids, as: ben, in: fixture).dropLast() == Array(repeating: .null, count: ids.count - 1))
        }
    }

    @Test func theViewersAccountAndSessionsResolveByTheirTypedIDs() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let ben = try await fixture.person("ben")
            let found = try await fixture.execute(
                "query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }",
                ["ids": .array([ana.userID, ana.sessionID, ben.userID, ben.sessionID].map { .string($0) })], as: ana)
            #expect(found.errors.isEmpty)
            #expect(found.data?["nodes"] == .array([
                ["__typename": "User", "id": .string(ana.userID)], ["__typename": "Session", "id": .string(ana.sessionID)], .null, .null,
            ]))
            #expect(GlobalID(rawValue: ana.userID)?.kind == .user && GlobalID(rawValue: ana.sessionID)?.kind == .session)
        }
    }
}
