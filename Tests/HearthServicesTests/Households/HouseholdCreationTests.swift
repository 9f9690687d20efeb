import FoundationEssentials
import HearthDomain
import HearthServices
import HearthStore
import Support
import Testing
import TestFixtures

/// Creating households (FR-07, FR-ONBOARD-1) at the service level: the creator's membership,
/// the active household, validation, limits, replays, events and analytics.
struct HouseholdCreationTests {
    private func error(_ body: () async throws -> Void) async -> ServiceError? {
        do {
            try await body()
            return nil
        } catch let error as ServiceError {
            return error
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    @Test func theCreatorBecomesAnActiveAdminParentAndTheHouseholdTheirActiveOne() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let (household, member, _) = try await harness.service.createHousehold(
                .init(name: "  City Flat ", emoji: "🏠", locationLabel: " Lisbon ", timeZone: "Europe/Lisbon"), viewer: ana)
            #expect(household.name == "City Flat")
            #expect(household.emoji == "🏠")
            #expect(household.locationLabel == "Lisbon")
            #expect(household.timeZone == "Europe/Lisbon")
            #expect(household.currencyPerToken == "0.10")
            #expect(member.userID == ana.userID)
            #expect(member.role == .admin)
            #expect(member.kind == .parent)
            #expect(member.status == .active)
            #expect(try await harness.service.activeHouseholdID(viewer: ana) == household.id)
            let step = try await harness.pool.read { try $0.scalar(String.self, "SELECT state FROM onboarding_steps WHERE household_id = ? AND step = 'household'", [household.id]) }
            #expect(step == "done")
        }
    }

    @Test func aSecondHouseholdDoesNotTakeOverTheActiveOne() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let (first, _, _) = try await harness.service.createHousehold(.init(name: "Home"), viewer: ana)
            let (second, _, _) = try await harness.service.createHousehold(.init(name: "Cottage"), viewer: ana)
            #expect(try await harness.service.activeHouseholdID(viewer: ana) == first.id)
            let listed = try await harness.service.households(viewer: ana).map(\.record.id)
            #expect(listed == [first.id, second.id])
        }
    }

    @Test func everyInputProblemIsReportedAtOnceAndNothingIsStored() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let refused = await error {
                _ = try await harness.service.createHousehold(
                    .init(name: String(repeating: "é", count: 81), emoji: "a", timeZone: "Mars/Olympus"), viewer: ana)
            }
            #expect(refused?.code == .badUserInput)
            #expect(refused?.problems.map(\.field) == ["input.name", "input.emoji", "input.timeZone"])
            #expect(refused?.problems.map(\.reason) == [.tooLong, .invalidFormat, .unknownValue])
            let count = try await harness.pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM households") }
            #expect(count == 0)
        }
    }

    /// A household's name goes into the subject of its invitation emails, where a line break
    /// cannot go: a name with one would make every invitation of the household fail.
    @Test func namesAndLabelsWithLineBreaksOrControlCharactersAreRefused() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let refused = await error {
                _ = try await harness.service.createHousehold(.init(name: "Flat\r\nBcc: x@example.com", locationLabel: "Lis\u{0}bon"), viewer: ana)
            }
            #expect(refused?.problems.map(\.field) == ["input.name", "input.locationLabel"])
            #expect(refused?.problems.map(\.reason) == [.invalidFormat, .invalidFormat])
            let (household, _, _) = try await harness.service.createHousehold(.init(name: "Flat"), viewer: ana)
            let renamed = await error {
                _ = try await harness.service.updateHousehold(id: household.id, .init(name: "Flat\u{2028}Two"), viewer: ana)
            }
            #expect(renamed?.problems.map(\.reason) == [.invalidFormat])
        }
    }

    /// One character as people see it can hold any number of combining marks: each is bounded,
    /// so 80 characters stay a few kilobytes.
    @Test func aCharacterOfANameIsBoundedInItsCombiningMarks() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let heavy = "e" + String(repeating: "\u{301}", count: 5000)
            #expect(heavy.count == 1)
            let refused = await error { _ = try await harness.service.createHousehold(.init(name: heavy), viewer: ana) }
            #expect(refused?.problems.map(\.field) == ["input.name"])
            #expect(refused?.problems.map(\.reason) == [.tooLong])
        }
    }

    @Test func aNameOfEightyCharactersIsAcceptedAndBlankNamesAreRequired() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let family = "👨‍👩‍👧‍👦"  // one character of seven scalars
            let (household, _, _) = try await harness.service.createHousehold(.init(name: String(repeating: family, count: 80)), viewer: ana)
            #expect(household.name.count == 80)
            let blank = await error { _ = try await harness.service.createHousehold(.init(name: " \t "), viewer: ana) }
            #expect(blank?.problems.first?.reason == .required)
        }
    }

    @Test func anUnconfirmedAddressCannotCreateAHousehold() async throws {
        try await HouseholdsHarness.with { harness in
            let (_, issued) = try await harness.accounts.register("ana")
            let viewer = try await harness.accounts.service.authenticate(accessToken: issued.accessToken)
            let refused = await error { _ = try await harness.service.createHousehold(.init(name: "Home"), viewer: viewer) }
            #expect(refused?.code == .emailNotConfirmed)
        }
    }

    @Test func theHouseholdsPerUserLimitHoldsAtItsEdge() async throws {
        try await HouseholdsHarness.with(configure: { $0.maximumHouseholdsPerUser = 2 }) { harness in
            let ana = try await harness.confirmedViewer("ana")
            _ = try await harness.service.createHousehold(.init(name: "One"), viewer: ana)
            _ = try await harness.service.createHousehold(.init(name: "Two"), viewer: ana)
            let refused = await error { _ = try await harness.service.createHousehold(.init(name: "Three"), viewer: ana) }
            #expect(refused?.code == .conflict && refused?.reason == .limitReached)
        }
    }

    @Test func theTimeZoneDefaultsToTheCreatorsAndThenToUTC() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let (utc, _, _) = try await harness.service.createHousehold(.init(name: "Home"), viewer: ana)
            #expect(utc.timeZone == "UTC")
            try await harness.pool.write { try $0.execute("UPDATE users SET time_zone = 'Asia/Tokyo' WHERE id = ?", [ana.userID]) }
            let (tokyo, _, _) = try await harness.service.createHousehold(.init(name: "Flat"), viewer: ana)
            #expect(tokyo.timeZone == "Asia/Tokyo")
        }
    }

    @Test func aReplayedClientMutationIdReturnsTheFirstHouseholdAndCreatesNothing() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let ben = try await harness.confirmedViewer("ben")
            let first = try await harness.service.createHousehold(.init(name: "Home"), viewer: ana, clientMutationID: "offline-1")
            let replay = try await harness.service.createHousehold(.init(name: "Other name"), viewer: ana, clientMutationID: "offline-1")
            #expect(replay.household == first.household)
            #expect(replay.member == first.member)
            // Another user's identical id is theirs alone.
            let bens = try await harness.service.createHousehold(.init(name: "Ben's"), viewer: ben, clientMutationID: "offline-1")
            #expect(bens.household.id != first.household.id)
            let count = try await harness.pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM households") }
            #expect(count == 2)
            let events = try await harness.pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM change_log WHERE kind = 'household.created'") }
            #expect(events == 2)
        }
    }

    @Test func creationIsPublishedOnTheHouseholdTopicAfterCommit() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let (household, member, _) = try await harness.service.createHousehold(.init(name: "Home"), viewer: ana)
            let changes = try await ChangeLog(pool: harness.pool, bus: harness.bus).changes(
                after: 0, topics: [.household(household.id)], limit: 10)
            #expect(changes.map(\.kind) == [.householdCreated])
            let change = try changes[0].payload.decode(HouseholdChange.self)
            #expect(change == HouseholdChange(householdID: household.id, memberID: member.id, userID: ana.userID))
        }
    }

    @Test func nonMembersGetNotFoundAndMembersBelowTheRoleGetForbidden() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let cara = try await harness.confirmedViewer("cara")
            let (household, _, _) = try await harness.service.createHousehold(.init(name: "Home"), viewer: ana)
            let stranger = await error { _ = try await harness.service.household(id: household.id, viewer: cara) }
            let unknown = await error { _ = try await harness.service.household(id: "0190-unknown", viewer: cara) }
            #expect(stranger == unknown)
            #expect(stranger?.code == .notFound)
            try await harness.pool.write { database in
                try database.execute(
                    """
                    INSERT INTO members (id, household_id, user_id, kind, role, status, display_name, joined_at, updated_at)
                    VALUES ('m-cara', ?, ?, 'parent', 'member', 'active', 'Cara', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')
                    """, [household.id, cara.userID])
            }
            let access = try await harness.service.access(viewer: cara, householdID: household.id)
            #expect(access.role == .member)
            let forbidden = await error { _ = try await harness.service.access(viewer: cara, householdID: household.id, requiring: .admin) }
            #expect(forbidden?.code == .forbidden)
        }
    }
}

/// The privacy rules of activation analytics.
struct ActivationAnalyticsTests {
    @Test func nothingIsRecordedWithoutConsentAndReferencesAreKeyedHashes() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let analytics = ActivationAnalytics(key: Array(repeating: 1, count: 32))
            let at = Date(timeIntervalSince1970: 1_790_000_123.456)
            let recorded = try await harness.pool.write { database in
                try analytics.record(.householdCreated, actorID: ana.userID, householdID: "h-1", at: at, in: database)
            }
            #expect(recorded == false)
            try await harness.pool.write { try $0.execute("UPDATE users SET analytics_consented_at = '2026-01-01T00:00:00.000Z' WHERE id = ?", [ana.userID]) }
            let consented = try await harness.pool.write { database in
                try analytics.record(.memberInvited, actorID: ana.userID, householdID: "h-1", properties: ["kind": "shadow"], at: at, in: database)
            }
            #expect(consented)
            let row = try #require(try await harness.pool.read { try $0.queryOne("SELECT * FROM analytics_events") })
            let householdRef: String = try row["household_ref"]
            let actorRef: String = try row["actor_ref"]
            #expect(householdRef == analytics.reference("h-1"))
            #expect(householdRef != "h-1" && !householdRef.contains("h-1"))
            #expect(actorRef == analytics.reference(ana.userID))
            #expect(actorRef != ActivationAnalytics(key: Array(repeating: 2, count: 32)).reference(ana.userID))
            #expect(try row["properties"] as String == #"{"kind":"shadow"}"#)
            #expect(try row["occurred_at"] as Date == Date(timeIntervalSince1970: 1_790_000_100))
        }
    }
}
