import Foundation
import GraphQL
import HearthStore
import Testing

/// History survives departures (issue 13) through the binary: a member who leaves keeps one
/// record, departed, that rejoining revives; the members list and the member limit ignore
/// departed members; a removed child is anonymised in the database.
@Suite struct DepartureTests {
    static let members = """
        query($id: ID!, $departed: Boolean) {
          household(id: $id) {
            members(includeDeparted: $departed) { totalCount edges { node { id status displayName departedAt user { id } } } }
          }
        }
        """
    static let remove = "mutation($input: RemoveMemberInput!) { removeMember(input: $input) { removedMemberId } }"
    static let leave = "mutation($input: LeaveHouseholdInput!) { leaveHousehold(input: $input) { leftHouseholdId } }"

    @Test func leavingAndRejoiningKeepsOneMemberRecordAndTheListAndLimitIgnoreDepartedMembers() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--max-members-per-household", "2"])
        defer { server.remove() }
        let ana = try server.person("ana")
        let ben = try server.person("ben")
        let (flat, _) = try server.createHousehold("Flat", as: ana)
        let benMember = try server.join(ben, flat, invitedBy: ana)
        let full = try server.graphQL(
            "mutation($input: InviteMemberInput!) { inviteMember(input: $input) { inviteToken } }",
            variables: ServerProcess.input(["householdId": .string(flat), "email": "cleo@example.com"]), token: ana.token)
        #expect(full.errorCode == "CONFLICT", "at the limit of 2: \(full.json)")

        let left = try server.graphQL(
            Self.leave, variables: ServerProcess.input(["householdId": .string(flat), "incompleteTasks": "UNASSIGN"]), token: ben.token)
        #expect(left.data?["leaveHousehold"]?["leftHouseholdId"] == .string(flat), "\(left.json)")
        #expect(try server.databaseText("SELECT status FROM members WHERE id = '\(benMember)'") == "departed")
        let listed = try server.graphQL(Self.members, variables: ["id": .string(flat)], token: ana.token)
        #expect(listed.data?["household"]?["members"]?["totalCount"] == 1, "\(listed.json)")
        let history = try server.graphQL(Self.members, variables: ["id": .string(flat), "departed": true], token: ana.token)
        guard case .array(let edges)? = history.data?["household"]?["members"]?["edges"] else {
            Issue.record("no members: \(history.json)")
            return
        }
        #expect(history.data?["household"]?["members"]?["totalCount"] == 2, "\(history.json)")
        let departed = edges.compactMap { $0["node"] }.first { $0["id"] == JSON.string(benMember) }
        #expect(departed?["status"] == "DEPARTED" && departed?["displayName"] == "ben" && departed?["user"] == JSON.null, "\(history.json)")
        #expect(departed?["departedAt"]?.stringValue?.hasSuffix("Z") == true, "\(history.json)")

        // Back with the same record: the invitation fits under the limit, the departed member does not count.
        let rejoined = try server.join(ben, flat, invitedBy: ana)
        #expect(rejoined == benMember)
        #expect(try server.databaseText(
            """
            SELECT count(*) || ' ' || min(status) || ' ' || CASE WHEN min(departed_at) IS NULL THEN 1 ELSE 0 END
            FROM members WHERE household_id = '\(flat)' AND user_id = '\(ben.userID)'
            """)
            == "1 active 1")
        let after = try server.graphQL(Self.members, variables: ["id": .string(flat)], token: ana.token)
        #expect(after.data?["household"]?["members"]?["totalCount"] == 2, "\(after.json)")
    }

    @Test func aRemovedChildIsAnonymisedInTheDatabase() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let (flat, _) = try server.createHousehold("Flat", as: ana)
        let consent = try ChildrenAndEconomyTests.consent(server, flat, as: ana)
        let added = try server.graphQL(ChildrenAndEconomyTests.addMember, variables: ServerProcess.input([
            "householdId": .string(flat), "kind": "CHILD", "displayName": "Wilhelmina Quartz", "age": 8, "consentId": .string(consent),
        ]), token: ana.token)
        let child = try #require(added.data?["addMember"]?["member"]?["id"]?.stringValue, "\(added.json)")

        let removed = try server.graphQL(
            Self.remove, variables: ServerProcess.input(["memberId": .string(child), "incompleteTasks": "UNASSIGN"]), token: ana.token)
        #expect(removed.data?["removeMember"]?["removedMemberId"] == .string(child), "\(removed.json)")
        let row = try server.databaseText("""
            SELECT status || '|' || display_name || '|' || coalesce(CAST(age AS TEXT), 'null') || '|' || coalesce(user_id, 'null')
                || '|' || CASE WHEN departed_at IS NOT NULL THEN 1 ELSE 0 END || '|' || consent_id
            FROM members WHERE id = '\(child)'
            """)
        #expect(row == "departed|Former member|null|null|1|\(consent)")
        if TestDatabaseStore.isSQLite {  // the bytes of SQLite's files (secure_delete)
            #expect(try server.databaseFilesContaining(Array("Wilhelmina".utf8)).isEmpty, "the name left the database files too")
        }
        let seen = try server.graphQL(
            "query($id: ID!) { node(id: $id) { ... on Member { status displayName age departedAt } } }",
            variables: ["id": .string(child)], token: ana.token)
        #expect(seen.data?["node"]?["status"] == "DEPARTED" && seen.data?["node"]?["displayName"] == "Former member", "\(seen.json)")
        #expect(seen.data?["node"]?["age"] == .null, "\(seen.json)")
    }
}

extension DepartureTests {
    /// COPPA: what admins wrote about a child in free text (ledger notes, reasons for rejecting
    /// their completions and requests) leaves with the child's name, from the database files too;
    /// amounts and balances stay.
    @Test func aRemovedChildsLedgerNotesAndRejectionReasonsAreErasedWithTheirName() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        func call(_ document: String, _ input: [String: JSON]) throws -> ServerProcess.GraphQLResponse {
            let answer = try server.graphQL(document, variables: ServerProcess.input(input), token: f.ana.token)
            #expect(answer.json["errors"] == nil, "\(answer.json)")
            return answer
        }
        let kim = JSON.string(f.kimMemberID)
        _ = try call("mutation($input: GiveBonusTokensInput!) { giveBonusTokens(input: $input) { entry { id } } }",
                     ["memberId": kim, "amount": 5, "note": "Wilhelmina tidied up"])
        _ = try call("mutation($input: AdjustTokensInput!) { adjustTokens(input: $input) { entry { id } } }",
                     ["memberId": kim, "amount": -1, "note": "Wilhelmina's typo"])
        _ = try call("mutation($input: RecordPayoutInput!) { recordPayout(input: $input) { entry { id } } }",
                     ["memberId": kim, "tokens": 1, "note": "Wilhelmina's pocket money"])
        let rejectedCompletion = try server.childCompletesAChore(
            f.kim, member: f.kimMemberID, in: f.householdID, createdBy: f.ana, tokens: 2, requiresApproval: true)
        _ = try call("mutation($input: RejectCompletionInput!) { rejectCompletion(input: $input) { completion { id } } }",
                     ["completionId": .string(rejectedCompletion.completionID), "reason": "Wilhelmina missed a spot"])
        let reward = try call("mutation($input: CreateRewardInput!) { createReward(input: $input) { reward { id } } }",
                              ["householdId": .string(f.householdID), "name": "Sticker", "tokenCost": 1])
        let asked = try call("mutation($input: RedeemRewardInput!) { redeemReward(input: $input) { redemption { id } } }",
                             ["rewardId": reward.data?["createReward"]?["reward"]?["id"] ?? .null, "memberId": kim])
        _ = try call("mutation($input: RejectRedemptionInput!) { rejectRedemption(input: $input) { redemption { id } } }",
                     ["redemptionId": asked.data?["redeemReward"]?["redemption"]?["id"] ?? .null, "reason": "Wilhelmina has enough"])
        // The bytes of SQLite's files (secure_delete); PostgreSQL's are its own (VACUUM's).
        let files = TestDatabaseStore.isSQLite
        #expect(try !files || !server.databaseFilesContaining(Array("Wilhelmina".utf8)).isEmpty)

        _ = try call(Self.remove, ["memberId": kim, "incompleteTasks": "UNASSIGN"])
        #expect(try !files || server.databaseFilesContaining(Array("Wilhelmina".utf8)).isEmpty, "the notes left the database files")
        let erased = "Removed with a former member's data."
        let read = try server.graphQL(
            """
            query($id: ID!) { node(id: $id) { ... on Member { displayName tokenBalance
              tokenLedger(first: 10) { edges { node { kind amount note } } } } } }
            """,
            variables: ["id": kim], token: f.ana.token)
        #expect(read.data?["node"]?["displayName"] == "Former member" && read.data?["node"]?["tokenBalance"] == 3, "\(read.json)")
        guard case .array(let entries)? = read.data?["node"]?["tokenLedger"]?["edges"] else {
            Issue.record("no ledger: \(read.json)")
            return
        }
        let noted = entries.compactMap { $0["node"] }.filter { $0["note"] != .null }
        #expect(noted.map { $0["kind"] } == ["PAYOUT", "ADJUSTMENT", "BONUS"] && noted.allSatisfy { $0["note"] == .string(erased) }, "\(entries)")
        #expect(try server.databaseText("SELECT review_note FROM chore_completions WHERE id = '\(rejectedCompletion.completionID)'") == erased)
        #expect(try server.databaseText("SELECT reason FROM reward_redemptions") == erased)
    }
}
