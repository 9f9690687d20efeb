import Dispatch
import Foundation
import GraphQL
import Synchronization
import Testing

/// FR-ONBOARD-5 (the token economy: ledgers, bonuses, payouts, the rewards store) and FR-ONBOARD-6
/// (approving completions) through the binary, with every refusal.
@Suite struct TokensAndRewardsTests {
    static let giveBonus = """
        mutation($input: GiveBonusTokensInput!) {
          giveBonusTokens(input: $input) { entry { id kind amount balanceAfter note recordedBy { id } } member { id tokenBalance } clientMutationId }
        }
        """
    static let adjust = "mutation($input: AdjustTokensInput!) { adjustTokens(input: $input) { entry { amount balanceAfter } } }"
    static let payout = """
        mutation($input: RecordPayoutInput!) {
          recordPayout(input: $input) { entry { kind amount balanceAfter currencyPerToken moneyAmount currencyCode } member { tokenBalance } }
        }
        """
    static let createReward = """
        mutation($input: CreateRewardInput!) {
          createReward(input: $input) {
            reward { id name tokenCost stock viewerTokenCost eligibleMembers { id } memberPrices { member { id } tokenCost } }
          }
        }
        """
    static let redeem = """
        mutation($input: RedeemRewardInput!) {
          redeemReward(input: $input) {
            redemption { id status tokenCost member { id } requestedBy { id } reward { id name } }
            member { tokenBalance heldTokens }
          }
        }
        """
    static let approveRedemption = """
        mutation($input: ApproveRedemptionInput!) {
          approveRedemption(input: $input) { redemption { status reviewedBy { id } reviewedAt } member { tokenBalance heldTokens } }
        }
        """
    static let rejectRedemption = """
        mutation($input: RejectRedemptionInput!) {
          rejectRedemption(input: $input) { redemption { status rejectionReason } member { tokenBalance heldTokens } }
        }
        """
    static let ledger = """
        query($id: ID!) {
          node(id: $id) {
            ... on Member { tokenBalance heldTokens tokenLedger(first: 10) { totalCount edges { node { kind amount balanceAfter note } } } }
          }
        }
        """

    /// The chore family (Flat of `ana`, admin, with `ben`, a member, and `kim`, a child with a login;
    /// `cara` with a household of her own) and the shadow `Kid` in Flat, who has no login.
    struct Family {
        let server: ServerProcess
        let family: ServerProcess.ChoreFamily
        let kid: String

        var ana: ServerProcess.Person { family.ana }
        var ben: ServerProcess.Person { family.ben }
        var kim: ServerProcess.Person { family.kim }
        var cara: ServerProcess.Person { family.cara }
        var householdID: String { family.householdID }
        var caraHouseholdID: String { family.caraHouseholdID }
        var anaMember: String { family.anaMemberID }
        var benMember: String { family.benMemberID }
        var kimMember: String { family.kimMemberID }
        var caraMember: String { family.caraMemberID }

        init(_ server: ServerProcess) throws {
            self.server = server
            family = try server.choreFamily()
            let added = try server.graphQL(
                "mutation($input: AddMemberInput!) { addMember(input: $input) { member { id } } }",
                variables: ServerProcess.input(["householdId": .string(family.householdID), "kind": "SHADOW", "displayName": "Kid", "age": 14]),
                token: family.ana.token)
            kid = try #require(added.data?["addMember"]?["member"]?["id"]?.stringValue, "\(added.json)")
        }

        /// Runs `document` with `fields` as its input as `person`.
        func call(_ document: String, _ fields: [String: JSON], as person: ServerProcess.Person) throws -> ServerProcess.GraphQLResponse {
            try server.graphQL(document, variables: ServerProcess.input(fields), token: person.token)
        }

        /// Gives `memberID` `amount` bonus tokens as ana.
        func give(_ amount: Int, to memberID: String) throws {
            let given = try call(TokensAndRewardsTests.giveBonus, ["memberId": .string(memberID), "amount": .int(amount), "note": "Start"], as: ana)
            try #require(given.data?["giveBonusTokens"]?["entry"]?["amount"] == .int(amount), "\(given.json)")
        }

        /// Creates a reward as `person` (ana by default); returns its id.
        func reward(_ fields: [String: JSON], in household: String? = nil, as person: ServerProcess.Person? = nil) throws -> String {
            var input = fields
            input["householdId"] = .string(household ?? householdID)
            let created = try call(TokensAndRewardsTests.createReward, input, as: person ?? ana)
            return try #require(created.data?["createReward"]?["reward"]?["id"]?.stringValue, "\(created.json)")
        }

        /// The balance the database keeps for `memberID`.
        func storedBalance(_ memberID: String) throws -> String? {
            try server.databaseText("SELECT CAST(balance AS TEXT) FROM token_balances WHERE member_id = '\(memberID)'")
        }
    }

    @Test func FR_ONBOARD_5_anAdminGivesBonusTokensAndRecordsAPayoutAtTheRateInForce() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try Family(server)
        let bonus = try f.call(
            Self.giveBonus, ["memberId": .string(f.kid), "amount": 40, "note": "Helped grandma", "clientMutationId": "bonus-1"], as: f.ana)
        #expect(bonus.data?["giveBonusTokens"]?["entry"]?["kind"] == "BONUS", "\(bonus.json)")
        #expect(bonus.data?["giveBonusTokens"]?["entry"]?["recordedBy"]?["id"]?.stringValue == f.anaMember)
        #expect(bonus.data?["giveBonusTokens"]?["member"]?["tokenBalance"] == 40)
        // The offline queue sends it again: nothing more is given, the first entry comes back.
        let replay = try f.call(
            Self.giveBonus, ["memberId": .string(f.kid), "amount": 40, "note": "Helped grandma", "clientMutationId": "bonus-1"], as: f.ana)
        #expect(replay.data?["giveBonusTokens"]?["entry"]?["id"] == bonus.data?["giveBonusTokens"]?["entry"]?["id"])
        _ = try f.call(
            "mutation($input: UpdateEconomySettingsInput!) { updateEconomySettings(input: $input) { economy { currencyPerToken } } }",
            ["householdId": .string(f.householdID), "currencyPerToken": "0.25", "currencyCode": "EUR"], as: f.ana)
        let paid = try f.call(Self.payout, ["memberId": .string(f.kid), "tokens": 10], as: f.ana)
        #expect(paid.data?["recordPayout"]?["entry"] == [
            "kind": "PAYOUT", "amount": -10, "balanceAfter": 30, "currencyPerToken": "0.25", "moneyAmount": "2.50", "currencyCode": "EUR",
        ], "\(paid.json)")
        let overdraft = try f.call(Self.adjust, ["memberId": .string(f.kid), "amount": -31, "note": "Too much"], as: f.ana)
        #expect(overdraft.errorCode == "CONFLICT" && overdraft.errorReason == "INSUFFICIENT_TOKENS", "\(overdraft.json)")
        let read = try f.server.graphQL(Self.ledger, variables: ["id": .string(f.kid)], token: f.ana.token)
        #expect(read.data?["node"]?["tokenBalance"] == 30 && read.data?["node"]?["tokenLedger"]?["totalCount"] == 2, "\(read.json)")
        #expect(read.data?["node"]?["tokenLedger"]?["edges"]?[0]?["node"]?["kind"] == "PAYOUT")
        #expect(read.data?["node"]?["tokenLedger"]?["edges"]?[1]?["node"]?["note"] == "Helped grandma")
        #expect(try f.storedBalance(f.kid) == "30")
    }

    @Test func FR_ONBOARD_5_membersSeeOnlyTheirOwnTokensAndAdminsEveryones() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try Family(server)
        try f.give(5, to: f.benMember)
        try f.give(7, to: f.kid)
        let query = "query($id: ID!) { household(id: $id) { members { edges { node { id tokenBalance tokenLedger { totalCount } } } } } }"
        func balances(_ person: ServerProcess.Person) throws -> [String: JSON] {
            let read = try f.server.graphQL(query, variables: ["id": .string(f.householdID)], token: person.token)
            guard case .array(let edges)? = read.data?["household"]?["members"]?["edges"] else {
                Issue.record("members: \(read.json)")
                return [:]
            }
            var found: [String: JSON] = [:]
            for node in edges.compactMap({ $0["node"] }) {
                found[try #require(node["id"]?.stringValue)] = node["tokenBalance"]
                #expect((node["tokenBalance"] == .null) == (node["tokenLedger"] == .null))
            }
            return found
        }
        #expect(try balances(f.ben) == [f.anaMember: .null, f.benMember: 5, f.kimMember: .null, f.kid: .null])
        #expect(try balances(f.ana) == [f.anaMember: 0, f.benMember: 5, f.kimMember: 0, f.kid: 7])
    }

    @Test func FR_ONBOARD_5_aRequestHoldsTokensUntilAnAdminApprovesOrRejectsIt() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try Family(server)
        try f.give(50, to: f.kid)
        let rewardID = try f.reward([
            "name": "Cinema", "tokenCost": 30, "stock": 2, "memberPrices": [["memberId": .string(f.kid), "tokenCost": 20]],
        ])
        // Ben, a parent without admin rights, asks for the kid, who has no login.
        let first = try f.call(Self.redeem, ["rewardId": .string(rewardID), "memberId": .string(f.kid)], as: f.ben)
        let redemption = try #require(first.data?["redeemReward"]?["redemption"], "\(first.json)")
        #expect(redemption["status"] == "PENDING" && redemption["tokenCost"] == 20 && redemption["requestedBy"]?["id"]?.stringValue == f.benMember)
        // Ben may ask for the kid, yet only the kid's admins see the kid's tokens.
        #expect(first.data?["redeemReward"]?["member"] == ["tokenBalance": .null, "heldTokens": .null])
        let approved = try f.call(Self.approveRedemption, ["redemptionId": redemption["id"]!], as: f.ana)
        #expect(approved.data?["approveRedemption"]?["redemption"]?["status"] == "APPROVED", "\(approved.json)")
        #expect(approved.data?["approveRedemption"]?["member"] == ["tokenBalance": 30, "heldTokens": 0])
        let second = try f.call(Self.redeem, ["rewardId": .string(rewardID), "memberId": .string(f.kid)], as: f.ana)
        let secondID = try #require(second.data?["redeemReward"]?["redemption"]?["id"], "\(second.json)")
        let rejected = try f.call(Self.rejectRedemption, ["redemptionId": secondID, "reason": "Not on a school night"], as: f.ana)
        #expect(rejected.data?["rejectRedemption"]?["redemption"] == ["status": "REJECTED", "rejectionReason": "Not on a school night"])
        #expect(rejected.data?["rejectRedemption"]?["member"] == ["tokenBalance": 30, "heldTokens": 0])
        #expect(try server.databaseText("SELECT CAST(stock AS TEXT) FROM rewards") == "1")
        let list = "query($id: ID!, $status: RedemptionStatus) { household(id: $id) { redemptions(status: $status) { totalCount edges { node { id } } } } }"
        let rejectedOnes = try server.graphQL(list, variables: ["id": .string(f.householdID), "status": "REJECTED"], token: f.ana.token)
        #expect(rejectedOnes.data?["household"]?["redemptions"]?["totalCount"] == 1, "\(rejectedOnes.json)")
        #expect(rejectedOnes.data?["household"]?["redemptions"]?["edges"]?[0]?["node"]?["id"] == secondID)
        // Ben sees the request he made, not the one Ana made for the kid.
        let bens = try server.graphQL(list, variables: ["id": .string(f.householdID)], token: f.ben.token)
        #expect(bens.data?["household"]?["redemptions"]?["edges"] == [["node": ["id": redemption["id"]!]]], "\(bens.json)")
    }

    @Test func FR_ONBOARD_5_everyRefusalOfTheStoreAndItsRequests() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try Family(server)
        try f.give(10, to: f.benMember)
        let expensive = try f.reward(["name": "Bike", "tokenCost": 11])
        let soldOut = try f.reward(["name": "Last ticket", "tokenCost": 1, "stock": 0])
        let kidsOnly = try f.reward(["name": "Sweets", "tokenCost": 1, "eligibleMemberIds": [.string(f.kid)]])
        let cheap = try f.reward(["name": "Sticker", "tokenCost": 1])
        let carasReward = try f.reward(["name": "Elsewhere", "tokenCost": 1], in: f.caraHouseholdID, as: f.cara)
        for (rewardID, code, reason) in [
            (expensive, "CONFLICT", "INSUFFICIENT_TOKENS"), (soldOut, "CONFLICT", "OUT_OF_STOCK"), (kidsOnly, "FORBIDDEN", "NOT_ELIGIBLE"),
        ] {
            let refused = try f.call(Self.redeem, ["rewardId": .string(rewardID)], as: f.ben)
            #expect(refused.errorCode == code && refused.errorReason == reason, "\(refused.json)")
        }
        // Another household's ids answer exactly like ids that do not exist.
        let unknownReward = try f.call(Self.redeem, ["rewardId": "rwd_01900000-0000-7000-8000-000000000000"], as: f.ben)
        let othersReward = try f.call(Self.redeem, ["rewardId": .string(carasReward)], as: f.ben)
        #expect(unknownReward.errorCode == "NOT_FOUND" && othersReward.json["errors"] == unknownReward.json["errors"], "\(othersReward.json)")
        let othersMember = try f.call(Self.redeem, ["rewardId": .string(cheap), "memberId": .string(f.caraMember)], as: f.ana)
        let unknownMember = try f.call(Self.redeem, ["rewardId": .string(cheap), "memberId": "mem_01900000-0000-7000-8000-000000000000"], as: f.ana)
        #expect(othersMember.errorCode == "NOT_FOUND" && othersMember.json["errors"] == unknownMember.json["errors"])
        let othersBonus = try f.call(Self.giveBonus, ["memberId": .string(f.caraMember), "amount": 1, "note": "Guess"], as: f.ana)
        #expect(othersBonus.errorCode == "NOT_FOUND")
        // Members ask; only admins decide, give, correct, pay out and run the store.
        let pending = try f.call(Self.redeem, ["rewardId": .string(cheap)], as: f.ben)
        let pendingID = try #require(pending.data?["redeemReward"]?["redemption"]?["id"], "\(pending.json)")
        for (document, fields) in [
            (Self.approveRedemption, ["redemptionId": pendingID]), (Self.rejectRedemption, ["redemptionId": pendingID]),
            (Self.giveBonus, ["memberId": .string(f.benMember), "amount": 1, "note": "Me"]),
            (Self.adjust, ["memberId": .string(f.benMember), "amount": 1, "note": "Me"]),
            (Self.payout, ["memberId": .string(f.benMember), "tokens": 1]),
            (Self.createReward, ["householdId": .string(f.householdID), "name": "Mine", "tokenCost": 1]),
        ] as [(String, [String: JSON])] {
            let refused = try f.call(document, fields, as: f.ben)
            #expect(refused.errorCode == "FORBIDDEN" && refused.errorReason == "ADMINS_ONLY", "\(refused.json)")
        }
        // Only admins ask for anyone; adults for a child or supervised member, not for another adult,
        // and children for no one else.
        for (person, memberID) in [(f.ben, f.anaMember), (f.kim, f.kid)] {
            let refused = try f.call(Self.redeem, ["rewardId": .string(cheap), "memberId": .string(memberID)], as: person)
            #expect(refused.errorCode == "FORBIDDEN" && refused.errorReason == "REDEEM_FOR_OTHERS", "\(refused.json)")
            #expect(refused.json["errors"]?[0]?["message"] == "Only admins, or a parent for a child, can ask for a reward for someone else.")
        }
        let carasDecision = try f.call(Self.approveRedemption, ["redemptionId": pendingID], as: f.cara)
        let unknownDecision = try f.call(Self.approveRedemption, ["redemptionId": "rdm_01900000-0000-7000-8000-000000000000"], as: f.cara)
        #expect(carasDecision.errorCode == "NOT_FOUND" && carasDecision.json["errors"] == unknownDecision.json["errors"])
        _ = try f.call(Self.approveRedemption, ["redemptionId": pendingID], as: f.ana)
        let twice = try f.call(Self.rejectRedemption, ["redemptionId": pendingID], as: f.ana)
        #expect(twice.errorCode == "CONFLICT" && twice.errorReason == "ALREADY_REVIEWED")
        #expect(twice.json["errors"]?[0]?["message"] == "This request was already approved.", "\(twice.json)")
        #expect(try f.storedBalance(f.benMember) == "9")
        // The other household sees none of it through node, exactly like unknown ids.
        let ids: [JSON] = [.string(cheap), pendingID, "led_01900000-0000-7000-8000-000000000000"]
        let nodes = try server.graphQL("query($ids: [ID!]!) { nodes(ids: $ids) { id } }", variables: ["ids": .array(ids)], token: f.cara.token)
        #expect(nodes.data?["nodes"] == [.null, .null, .null], "\(nodes.json)")
        let own = try server.graphQL(
            "query($ids: [ID!]!) { nodes(ids: $ids) { __typename } }", variables: ["ids": .array(Array(ids.prefix(2)))], token: f.ben.token)
        #expect(own.data?["nodes"] == [["__typename": "Reward"], ["__typename": "RewardRedemption"]], "\(own.json)")
    }

    @Test func FR_ONBOARD_5_rewardsAndPendingRequestsBeyondTheirLimitsAreRefusedWithReasonLimitReached() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--max-rewards-per-household", "1", "--max-pending-redemptions", "1"])
        defer { server.remove() }
        let f = try Family(server)
        try f.give(10, to: f.benMember)
        let sticker = try f.reward(["name": "Sticker", "tokenCost": 1])
        let second = try f.call(Self.createReward, ["householdId": .string(f.householdID), "name": "Film", "tokenCost": 1], as: f.ana)
        #expect(second.errorCode == "CONFLICT" && second.errorReason == "LIMIT_REACHED", "\(second.json)")
        #expect(second.json["errors"]?[0]?["message"] == "The household offers 1 rewards, the most allowed. Delete one first.")
        _ = try #require(try f.call(Self.redeem, ["rewardId": .string(sticker)], as: f.ben).data?["redeemReward"]?["redemption"]?["id"])
        let waiting = try f.call(Self.redeem, ["rewardId": .string(sticker)], as: f.ben)
        #expect(waiting.errorCode == "CONFLICT" && waiting.errorReason == "LIMIT_REACHED", "\(waiting.json)")
    }

    /// Donetick's issue #489 through the server: many requests at once on separate connections.
    @Test func FR_ONBOARD_5_concurrentRequestsNeverOverdrawABalanceOrTheStock() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--max-pending-redemptions", "100"])
        defer { server.remove() }
        let f = try Family(server)
        try f.give(100, to: f.benMember)
        try f.give(100, to: f.kid)
        let pricey = try f.reward(["name": "Pricey", "tokenCost": 30])
        let scarce = try f.reward(["name": "Scarce", "tokenCost": 1, "stock": 4])
        let outcomes = Mutex<[String: Int]>([:])
        let address = server.address
        let (ben, benMember, ana, kid) = (f.ben.token, f.benMember, f.ana.token, f.kid)
        DispatchQueue.concurrentPerform(iterations: 24) { index in
            let (rewardID, token, member) = index % 2 == 0 ? (pricey, ben, benMember) : (scarce, ana, kid)
            let answer = try? ServerProcess.graphQL(
                at: address, Self.redeem, variables: ServerProcess.input(["rewardId": .string(rewardID), "memberId": .string(member)]), token: token)
            let outcome = answer?.data?["redeemReward"]?["redemption"]?["status"]?.stringValue ?? answer?.errorReason ?? "failed"
            outcomes.withLock { $0["\(rewardID == pricey ? "pricey" : "scarce") \(outcome)", default: 0] += 1 }
        }
        #expect(outcomes.withLock { $0 } == [
            "pricey PENDING": 3, "pricey INSUFFICIENT_TOKENS": 9, "scarce PENDING": 4, "scarce OUT_OF_STOCK": 8,
        ])
        #expect(try f.storedBalance(f.benMember) == "10" && f.storedBalance(f.kid) == "96")
        #expect(try server.databaseText("SELECT CAST(stock AS TEXT) FROM rewards WHERE id = '\(scarce)'") == "0")
    }

    static let approveCompletion = """
        mutation($input: ApproveCompletionInput!) {
          approveCompletion(input: $input) { completion { id status reviewedBy { id } reviewedAt } ledgerEntries { kind amount member { id } } }
        }
        """
    static let rejectCompletion = """
        mutation($input: RejectCompletionInput!) { rejectCompletion(input: $input) { completion { status rejectionReason } } }
        """

    /// A chore of Flat worth `tokens` that `kim` completes (``ServerProcess/childCompletesAChore``).
    static func kimCompletes(_ f: Family, tokens: Int, requiresApproval: Bool) throws -> (instanceID: String, completionID: JSON, status: JSON?) {
        let done = try f.server.childCompletesAChore(
            f.kim, member: f.kimMember, in: f.householdID, createdBy: f.ana, tokens: tokens, requiresApproval: requiresApproval)
        return (done.instanceID, .string(done.completionID), done.status.map { .string($0) })
    }

    @Test func FR_ONBOARD_6_anAdminApprovesACompletionWhichCreditsItsTokensOrRejectsItWhichCreditsNone() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try Family(server)
        let (_, completionID, status) = try Self.kimCompletes(f, tokens: 5, requiresApproval: true)
        #expect(status == "PENDING_APPROVAL")
        for person in [f.ben, f.kim] {
            let refused = try f.call(Self.approveCompletion, ["completionId": completionID], as: person)
            #expect(refused.errorCode == "FORBIDDEN" && refused.errorReason == "ADMINS_ONLY", "\(refused.json)")
        }
        // Cara, admin of another household, gets exactly the answer of an id that does not exist.
        let caras = try f.call(Self.approveCompletion, ["completionId": completionID], as: f.cara)
        let unknown = try f.call(Self.approveCompletion, ["completionId": "cmp_01900000-0000-7000-8000-000000000000"], as: f.cara)
        #expect(caras.errorCode == "NOT_FOUND" && caras.json["errors"] == unknown.json["errors"], "\(caras.json)")
        let approved = try f.call(Self.approveCompletion, ["completionId": completionID, "clientMutationId": "approve-1"], as: f.ana)
        #expect(approved.data?["approveCompletion"]?["completion"]?["status"] == "COMPLETED", "\(approved.json)")
        #expect(approved.data?["approveCompletion"]?["completion"]?["reviewedBy"]?["id"]?.stringValue == f.anaMember)
        #expect(approved.data?["approveCompletion"]?["ledgerEntries"] == [["kind": "CREDIT", "amount": 5, "member": ["id": .string(f.kimMember)]]])
        let replayed = try f.call(Self.approveCompletion, ["completionId": completionID, "clientMutationId": "approve-1"], as: f.ana)
        #expect(replayed.data?["approveCompletion"]?["ledgerEntries"] == approved.data?["approveCompletion"]?["ledgerEntries"])
        let twice = try f.call(Self.approveCompletion, ["completionId": completionID], as: f.ana)
        #expect(twice.errorCode == "CONFLICT" && twice.errorReason == "ALREADY_REVIEWED", "\(twice.json)")
        #expect(twice.json["errors"]?[0]?["message"] == "This completion was already approved.")
        let own = try server.graphQL(Self.ledger, variables: ["id": .string(f.kimMember)], token: f.kim.token)
        #expect(own.data?["node"]?["tokenBalance"] == 5, "\(own.json)")

        let (_, second, _) = try Self.kimCompletes(f, tokens: 3, requiresApproval: true)
        let rejected = try f.call(Self.rejectCompletion, ["completionId": second, "reason": "Still messy"], as: f.ana)
        #expect(rejected.data?["rejectCompletion"]?["completion"] == ["status": "REJECTED", "rejectionReason": "Still messy"], "\(rejected.json)")
        let rejectedTwice = try f.call(Self.approveCompletion, ["completionId": second], as: f.ana)
        #expect(rejectedTwice.errorReason == "ALREADY_REVIEWED" && rejectedTwice.json["errors"]?[0]?["message"] == "This completion was already rejected.")
        #expect(try f.storedBalance(f.kimMember) == "5")
    }

    @Test func FR_ONBOARD_6_aCompletionNeedingNoApprovalIsCreditedAtOnceAndUndoingItReversesTheCredit() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try Family(server)
        let (instanceID, _, status) = try Self.kimCompletes(f, tokens: 4, requiresApproval: false)
        #expect(status == "COMPLETED")
        #expect(try f.storedBalance(f.kimMember) == "4")
        let undone = try f.call(
            "mutation($input: UncompleteChoreInput!) { uncompleteChore(input: $input) { undoneCompletion { status } } }",
            ["instanceId": .string(instanceID)], as: f.kim)
        #expect(undone.data?["uncompleteChore"]?["undoneCompletion"]?["status"] == "UNDONE", "\(undone.json)")
        let read = try server.graphQL(Self.ledger, variables: ["id": .string(f.kimMember)], token: f.kim.token)
        #expect(read.data?["node"]?["tokenBalance"] == 0, "\(read.json)")
        #expect(read.data?["node"]?["tokenLedger"]?["edges"]?[0]?["node"]?["kind"] == "REVERSAL")
    }
}
