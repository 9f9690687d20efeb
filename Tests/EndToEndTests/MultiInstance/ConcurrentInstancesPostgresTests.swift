import Foundation
import GraphQL
import HearthStore
import Testing

/// Issue 20: the serializable decisions hold when two `hearth serve` processes decide them on one
/// PostgreSQL database at once (``Deployment`` without nginx: clients alternate between A and B,
/// every thread released together by ``ConcurrentClients``). Each race checks the answers and
/// then the database: exactly one claim, one completion and one credit, an admin left, one effect
/// per `clientMutationId`. No answer may be an internal error: a serialization failure (40001)
/// is retried by the store (`--database-write-attempts`), never shown to the client.
///
/// Runs in `make test`'s PostgreSQL pass (tools/postgres/suites); the SQLite pass skips it by
/// name, and a SQLite file has one process serving it anyway.
@Suite(.serialized, .enabled(if: !TestDatabaseStore.isSQLite, "two instances share one PostgreSQL database"))
struct ConcurrentInstancesPostgresTests {
    /// Clients in a race of many (claims, completions, replays), half on each instance.
    private static let crowd = 24

    /// Four adults registered through instance A, and a household of theirs where they are members.
    private static func family(_ deployment: Deployment) throws -> Deployment.RaceHousehold {
        let people = try ["ana", "ben", "dan", "eve"].map { try deployment.instances[0].person($0) }
        return try deployment.household("Flat", of: people)
    }

    /// A `SINGLE_ACTION` chore worth `tokens` due at `due` (every adult may claim or complete it)
    /// and its instance's id (derived as an offline client does), with whether it is stored yet:
    /// one due in an hour is; one due years ahead is beyond the planning horizon, written by the
    /// first claim or completion, so racing clients also race to insert it.
    private static func sharedInstance(
        _ deployment: Deployment, _ household: Deployment.RaceHousehold, _ title: String, due: String, tokens: Int = 0
    ) throws -> (id: String, isMaterialized: Bool) {
        let chore = try deployment.instances[0].chore(title, in: household.id, as: household.people[0], [
            "assignmentMode": "SINGLE_ACTION", "schedule": ["once": .string(due)], "tokens": .int(tokens),
        ])
        let id = try ServerProcess.derivedInstanceID(choreID: try #require(chore["id"]?.stringValue), dueAt: due)
        return (id, try deployment.count("SELECT count(*) FROM chore_instances WHERE id = '\(id)'") == 1)
    }

    /// An hour from now, and a day years ahead: the two kinds of instance each race runs on.
    private static let dues = [
        ISO8601DateFormatter().string(from: Date().addingTimeInterval(3600)),
        "2036-03-01T09:00:00Z",
    ]

    @Test func ofManyClaimsOfOneInstanceOverTwoInstancesExactlyOneWinsAndEveryOtherIsAConflictNamingTheClaimant() throws {
        try Deployment.with(instances: 2, behindNginx: false) { deployment in
            let household = try Self.family(deployment)
            let targets = deployment.clientTargets
            var kinds: Set<Bool> = []
            for (round, due) in Self.dues.enumerated() {
                let instance = try Self.sharedInstance(deployment, household, "Bins \(round)", due: due)
                kinds.insert(instance.isMaterialized)
                let answers = ConcurrentClients.run(Self.crowd) { index in
                    try targets.instance(for: index).claimChore(instance.id, as: household.people[index / 2 % household.people.count])
                }.answers()
                #expect(answers.count == Self.crowd)
                #expect(answers.tally == ["ok": 1, "CONFLICT/ALREADY_CLAIMED": Self.crowd - 1], "\(answers.tally)")
                let winner = try #require(answers.first { $0.errorCode == nil }?.data?["claimChore"]?["claimant"]?["id"]?.stringValue)
                for loser in answers where loser.errorCode != nil {
                    #expect(loser.errorExtensions?["claimant"]?["id"]?.stringValue == winner, "\(loser.json)")
                }
                // One row for the instance, claimed by the winner, and one claim recorded.
                #expect(try deployment.count("SELECT count(*) FROM chore_instances WHERE id = '\(instance.id)'") == 1)
                #expect(try deployment.instances[0].databaseText("SELECT claimant_id FROM chore_instances WHERE id = '\(instance.id)'") == winner)
                #expect(try deployment.count("SELECT count(*) FROM change_log WHERE kind = 'chore_instance.claimed'") == round + 1)
            }
            #expect(kinds == [true, false], "a stored instance and one its claim writes")
        }
    }

    @Test func ofManyCompletionsOfOneSingleActionInstanceOverTwoInstancesOneCountsAndItsTokensAreCreditedOnce() throws {
        try Deployment.with(instances: 2, behindNginx: false) { deployment in
            let household = try Self.family(deployment)
            let targets = deployment.clientTargets
            for (round, due) in Self.dues.enumerated() {
                let instance = try Self.sharedInstance(deployment, household, "Dishes \(round)", due: due, tokens: 5)
                let answers = ConcurrentClients.run(Self.crowd) { index in
                    try targets.instance(for: index).completeChore(instance.id, as: household.people[index / 2 % household.people.count])
                }.answers()
                #expect(answers.count == Self.crowd)
                #expect(answers.tally == ["ok": Self.crowd], "\(answers.tally)")
                let outcomes = answers.map { $0.data?["completeChore"]?["outcome"]?.stringValue ?? "-" }
                #expect(outcomes.filter { $0 == "COMPLETED" }.count == 1, "\(outcomes)")
                #expect(outcomes.filter { $0 == "ALREADY_COMPLETED" }.count == Self.crowd - 1, "\(outcomes)")
                // Every answer names the one completion.
                let completions = Set(answers.compactMap { $0.data?["completeChore"]?["completion"]?["id"]?.stringValue })
                #expect(completions.count == 1, "\(completions)")
                let completion = try #require(completions.first)
                #expect(try deployment.count("SELECT count(*) FROM chore_completions WHERE instance_id = '\(instance.id)'") == 1)
                #expect(try deployment.count("SELECT count(*) FROM token_ledger WHERE completion_id = '\(completion)' AND kind = 'credit'") == 1)
                #expect(try deployment.count(
                    "SELECT COALESCE(SUM(balance), 0) FROM token_balances WHERE household_id = '\(household.id)'") == 5 * (round + 1))
            }
        }
    }

    /// The mutations admins race with in ``everyRaceOfAdminsDemotingRemovingOrLeavingLeavesAnAdmin()``:
    /// what admin `index` of four sends (to `others`: the next admin), and the endings allowed.
    enum AdminRace: String, CaseIterable {
        case demoteEachOther, demoteThemselves, removeEachOther, leave

        func mutation(_ index: Int, _ household: Deployment.RaceHousehold) -> (document: String, input: [String: JSON]) {
            let next = household.memberIDs[(index + 1) % household.memberIDs.count]
            return switch self {
            case .demoteEachOther, .demoteThemselves: (
                "mutation($input: ChangeMemberRoleInput!) { changeMemberRole(input: $input) { member { id role } } }",
                ["memberId": .string(self == .demoteThemselves ? household.memberIDs[index] : next), "role": "MEMBER"])
            case .removeEachOther: (
                "mutation($input: RemoveMemberInput!) { removeMember(input: $input) { removedMemberId } }",
                ["memberId": .string(next), "incompleteTasks": "UNASSIGN"])
            case .leave: (
                "mutation($input: LeaveHouseholdInput!) { leaveHousehold(input: $input) { leftHouseholdId } }",
                ["householdId": .string(household.id), "incompleteTasks": "UNASSIGN"])
            }
        }

        /// Demoting or leaving oneself: serialised, every admin but the last succeeds.
        var leavesExactlyOne: Bool { self == .demoteThemselves || self == .leave }

        /// The refusals an admin may meet once others went first: the last admin's, or no longer
        /// being an admin (demoted), a member (removed), or the target being one (removed or gone).
        static let refusals: Set<String> = [
            "CONFLICT/LAST_ADMIN", "FORBIDDEN/ADMINS_ONLY", "NOT_FOUND", "BAD_USER_INPUT", "BAD_USER_INPUT/NOT_ALLOWED",
        ]
    }

    @Test(arguments: AdminRace.allCases)
    func everyRaceOfAdminsDemotingRemovingOrLeavingLeavesAnAdmin(_ race: AdminRace) throws {
        // New people each round (an address gets few emails an hour), all registering from one address.
        try Deployment.with(instances: 2, ["--mail-requests-per-address", "1000"], behindNginx: false) { deployment in
            let targets = deployment.clientTargets
            for round in 0..<3 {
                let admins = try ["ana", "ben", "dan", "eve"].map { try deployment.instances[0].person("\($0)\(round)") }
                let bystander = try deployment.instances[0].person("max\(round)")
                let household = try deployment.household("Flat \(round)", of: admins, role: "ADMIN", bystanders: [bystander])
                let answers = ConcurrentClients.run(admins.count) { index in
                    let (document, input) = race.mutation(index, household)
                    return try ServerProcess.graphQL(
                        at: targets.instance(for: index).address, document, variables: ServerProcess.input(input), token: household.people[index].token)
                }.answers()
                #expect(answers.count == admins.count)
                let tally = answers.tally
                #expect(tally["ok", default: 0] >= 1, "\(race) \(tally)")
                #expect(Set(tally.keys).subtracting(["ok"]).isSubset(of: AdminRace.refusals), "\(race) \(tally)")
                let remaining = try deployment.count(
                    "SELECT count(*) FROM members WHERE household_id = '\(household.id)' AND role = 'admin' AND status = 'active'")
                if race.leavesExactlyOne {
                    #expect(remaining == 1 && tally == ["ok": admins.count - 1, "CONFLICT/LAST_ADMIN": 1], "\(race) \(tally)")
                } else {
                    #expect(remaining >= 1, "\(race) \(tally)")
                }
            }
        }
    }

    @Test func aMutationSentWithOneClientMutationIdToBothInstancesAtOnceHasOneEffectAndEveryAnswerIsTheFirst() throws {
        try Deployment.with(instances: 2, behindNginx: false) { deployment in
            let household = try Self.family(deployment)
            let (ana, ben) = (household.people[0], household.memberIDs[1])
            let targets = deployment.clientTargets
            for round in 0..<3 {
                // A new chore, and a token correction: each replayed by a crowd split over A and B.
                let created = ConcurrentClients.run(Self.crowd) { index in
                    try targets.instance(for: index).createChore(
                        ["householdId": .string(household.id), "title": .string("Replayed \(round)"), "schedule": ["once": "2036-03-01T09:00:00Z"],
                         "clientMutationId": .string("create-\(round)")],
                        as: ana)
                }.answers()
                #expect(created.tally == ["ok": Self.crowd], "\(created.tally)")
                let choreIDs = Set(created.compactMap { $0.data?["createChore"]?["chore"]?["id"]?.stringValue })
                #expect(choreIDs.count == 1, "\(choreIDs)")
                #expect(created.allSatisfy { $0.data?["createChore"]?["clientMutationId"]?.stringValue == "create-\(round)" })
                #expect(try deployment.count("SELECT count(*) FROM chores WHERE title = 'Replayed \(round)'") == 1)

                let adjusted = ConcurrentClients.run(Self.crowd) { index in
                    try ServerProcess.graphQL(
                        at: targets.instance(for: index).address,
                        "mutation($input: AdjustTokensInput!) { adjustTokens(input: $input) { entry { id } member { tokenBalance } clientMutationId } }",
                        variables: ServerProcess.input([
                            "memberId": .string(ben), "amount": 3, "note": "Raced", "clientMutationId": .string("adjust-\(round)"),
                        ]),
                        token: ana.token)
                }.answers()
                #expect(adjusted.tally == ["ok": Self.crowd], "\(adjusted.tally)")
                let entries = Set(adjusted.compactMap { $0.data?["adjustTokens"]?["entry"]?["id"]?.stringValue })
                #expect(entries.count == 1, "\(entries)")
                #expect(try deployment.count("SELECT count(*) FROM token_ledger WHERE member_id = '\(ben)' AND kind = 'adjustment'") == round + 1)
                #expect(try deployment.count("SELECT balance FROM token_balances WHERE member_id = '\(ben)'") == 3 * (round + 1))
            }
            #expect(try deployment.count("SELECT count(*) FROM mutation_replays WHERE client_mutation_id LIKE 'create-%'") == 3)
            #expect(try deployment.count("SELECT count(*) FROM mutation_replays WHERE client_mutation_id LIKE 'adjust-%'") == 3)
        }
    }
}
