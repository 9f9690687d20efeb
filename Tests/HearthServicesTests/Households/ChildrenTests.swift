import FoundationEssentials
import HearthDomain
import HearthServices
import HearthStore
import TestFixtures
import Testing

/// FR-ONBOARD-3: children and shadows behind the parental consent gate (COPPA).
struct ChildrenTests {
    @Test func aConsentRecordedFirstAdmitsAChildUnderThirteen() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            try h.allowAnalytics(for: ana)
            let householdID = try await h.householdID(named: "Flat", ana)
            let consent = try await h.recordConsent(householdID, .ownAccount, ana, attestation: "  I am the parent and I consent.  ")
            #expect(consent.householdID == householdID && consent.consentedBy == ana.userID)
            #expect(consent.method == .emailPlus && consent.path == .ownAccount && consent.usedAt == nil)
            #expect(consent.attestation == "I am the parent and I consent.")
            #expect(consent.termsVersion == h.service.configuration.termsVersion && consent.consentedAt == h.clock.now)

            let mia = try await h.service.addMember(
                householdID: householdID, .init(kind: .child, displayName: " Mia Rose ", age: 8, consentID: consent.id), viewer: ana).member
            #expect(mia.displayName == "Mia Rose" && mia.kind == .child && mia.age == 8 && mia.consentID == consent.id)
            #expect(mia.role == .member && mia.status == .active && mia.userID == nil && mia.householdID == householdID)
            #expect(try h.sqlText("SELECT kind FROM change_log ORDER BY sequence DESC LIMIT 1") == "member.joined")
            #expect(try h.sqlText("SELECT count(*) FROM parental_consents WHERE id = '\(consent.id)' AND used_at IS NOT NULL") == "1")

            let captured = try #require(try h.sqlText("SELECT properties FROM analytics_events WHERE name = 'child_consent_captured'"))
            #expect(captured.contains(h.service.analytics.reference(consent.id)) && captured.contains("own_account"))
            #expect(try h.sqlText("SELECT properties FROM analytics_events WHERE name = 'member_invited'") == #"{"kind":"child"}"#)
            #expect(try h.tablesContaining("Mia Rose") == ["members"],
                "the child's name is stored in the member record only (searched with its space: three letters alone turn up in base64 keys and hashes now and then)")
        }
    }

    @Test func aConsentSyncedTwiceWithTheSameClientMutationIdIsRecordedOnce() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let householdID = try await h.householdID(named: "Flat", ana)
            func record() async throws -> ParentalConsentRecord {
                try await h.service.recordParentalConsent(
                    householdID: householdID, method: .card, path: .supervised, attestation: "I consent.",
                    termsVersion: h.service.configuration.termsVersion, viewer: ana, clientMutationID: "offline-consent-1")
            }
            let first = try await record()
            let replay = try await record()
            #expect(replay == first)
            #expect(try h.sqlText("SELECT CAST(count(*) AS TEXT) FROM parental_consents") == "1")
            // A replay answers with the first result whatever it carries, as every mutation's does.
            let cabin = try await h.householdID(named: "Cabin", ana)
            let elsewhere = try await h.service.recordParentalConsent(
                householdID: cabin, method: .card, path: .supervised, attestation: "I consent.",
                termsVersion: h.service.configuration.termsVersion, viewer: ana, clientMutationID: "offline-consent-1")
            #expect(elsewhere == first)
            #expect(try h.sqlText("SELECT CAST(count(*) AS TEXT) FROM parental_consents") == "1")
        }
    }

    @Test(.enabled(if: TestDatabaseStore.isSQLite, "reads the bytes of SQLite's database file and write-ahead log"))
    func withoutAConsentNothingOfTheChildIsStoredAnywhere() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            try h.allowAnalytics(for: ana)
            let householdID = try await h.householdID(named: "Flat", ana)
            let before = try h.rowCounts()
            for age in [12, nil] as [Int?] {
                let refused = await #expect(throws: ServiceError.self) {
                    try await h.service.addMember(
                        householdID: householdID, .init(kind: .child, displayName: "Zephyrine Quill", age: age), viewer: ana,
                        clientMutationID: "add-zephyrine")
                }
                #expect(refused?.code == .consentRequired)
            }
            #expect(try h.rowCounts() == before)
            #expect(try h.tablesContaining("Zephyrine").isEmpty)
            #expect(try !h.databaseFilesContain("Zephyrine"), "not even in the database file or its write-ahead log")

            // The probes do see the child once a consent admits them.
            let consent = try await h.recordConsent(householdID, .ownAccount, ana)
            _ = try await h.service.addMember(
                householdID: householdID, .init(kind: .child, displayName: "Zephyrine Quill", age: 12, consentID: consent.id), viewer: ana)
            #expect(try h.tablesContaining("Zephyrine") == ["members"])
            #expect(try h.databaseFilesContain("Zephyrine"))
        }
    }

    /// The database keeps the gate on its own, whatever code writes the rows: SQLite passes a
    /// `CHECK` whose result is NULL, so an unknown age must not slip through as "not under 13".
    @Test func theDatabaseRefusesChildrenUnderThirteenOrOfUnknownAgeWithoutAConsent() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let householdID = try await h.householdID(named: "Flat", ana)
            func insert(_ kind: String, age: Int?) throws -> String {
                let id = GlobalID.make(.member, now: h.clock.now).rawValue
                try h.pool.write {
                    try $0.execute(
                        """
                        INSERT INTO members (id, household_id, user_id, kind, role, status, display_name, age, joined_at, updated_at)
                        VALUES (?, ?, NULL, ?, 'member', 'active', 'Kid', ?, ?, ?)
                        """,
                        [id, householdID, kind, age, h.clock.now, h.clock.now])
                }
                return id
            }
            func update(_ id: String, _ assignments: String, _ arguments: StatementArguments) throws {
                try h.pool.write { try $0.execute("UPDATE members SET \(assignments) WHERE id = ?", arguments) }
            }
            for kind in ["child", "shadow"] {
                #expect(throws: StoreError.self, "\(kind) of unknown age") { _ = try insert(kind, age: nil) }
                #expect(throws: StoreError.self, "\(kind) of 12") { _ = try insert(kind, age: 12) }
                let teen = try insert(kind, age: 13)
                #expect(throws: StoreError.self, "\(kind) made of unknown age") { try update(teen, "age = NULL", [teen]) }
            }
            #expect(try h.sqlText("SELECT count(*) FROM members WHERE household_id = '\(householdID)' AND kind <> 'parent' AND (age IS NULL OR age < 13)") == "0")
        }
    }

    @Test func aChildOfUnknownAgeOrAShadowUnderThirteenNeedsAConsentToo() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let householdID = try await h.householdID(named: "Flat", ana)
            for request in [HouseholdService.NewMember(kind: .child, displayName: "Leo"), .init(kind: .shadow, displayName: "Ivy", age: 4)] {
                let refused = await #expect(throws: ServiceError.self) {
                    try await h.service.addMember(householdID: householdID, request, viewer: ana)
                }
                #expect(refused?.code == .consentRequired)
            }
            let consent = try await h.recordConsent(householdID, .supervised, ana)
            let ivy = try await h.service.addMember(
                householdID: householdID, .init(kind: .shadow, displayName: "Ivy", consentID: consent.id), viewer: ana).member
            #expect(ivy.kind == .shadow && ivy.age == nil && ivy.consentID == consent.id)
        }
    }

    @Test func childrenThirteenAndOlderSkipTheGateWithTheirAgeRecorded() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let householdID = try await h.householdID(named: "Flat", ana)
            let teen = try await h.service.addMember(householdID: householdID, .init(kind: .child, displayName: "Noa", age: 13), viewer: ana).member
            #expect(teen.age == 13 && teen.consentID == nil)
            let grandpa = try await h.service.addMember(householdID: householdID, .init(kind: .shadow, displayName: "Grandpa", age: 130), viewer: ana).member
            #expect(grandpa.age == 130)
            #expect(try h.sqlText("SELECT count(*) FROM parental_consents") == "0")
        }
    }

    @Test func eachConsentServesOneChildEvenAfterThatChildIsRemoved() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let householdID = try await h.householdID(named: "Flat", ana)
            let consent = try await h.recordConsent(householdID, .ownAccount, ana)
            let mia = try await h.service.addMember(
                householdID: householdID, .init(kind: .child, displayName: "Mia", age: 6, consentID: consent.id), viewer: ana).member
            let reused = await #expect(throws: ServiceError.self) {
                try await h.service.addMember(
                    householdID: householdID, .init(kind: .child, displayName: "Zoltan", age: 5, consentID: consent.id), viewer: ana)
            }
            #expect(reused?.code == .badUserInput && reused?.problems.first?.field == "input.consentId")
            #expect(reused?.problems.first?.reason == .notAllowed)
            try await h.pool.write { try $0.execute("DELETE FROM members WHERE id = ?", [mia.id]) }
            let afterRemoval = await #expect(throws: ServiceError.self) {
                try await h.service.addMember(
                    householdID: householdID, .init(kind: .child, displayName: "Zoltan", age: 5, consentID: consent.id), viewer: ana)
            }
            #expect(afterRemoval?.problems.first?.reason == .notAllowed)
            #expect(try h.tablesContaining("Zoltan").isEmpty)
        }
    }

    /// The service keeps a consent to its own household on both paths that give one (a trigger
    /// did until migration 0010).
    @Test func anotherHouseholdsConsentIsRefusedLikeAnUnknownOne() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let flat = try await h.householdID(named: "Flat", ana)
            let cabin = try await h.householdID(named: "Cabin", ana)
            let cabinConsent = try await h.recordConsent(cabin, .ownAccount, ana)
            let teen = try await h.service.addMember(
                householdID: flat, .init(kind: .child, displayName: "Leo", age: 13), viewer: ana).member
            for consentID in [cabinConsent.id, "0190a4c2-0000-7000-8000-000000000000"] {
                let added = await #expect(throws: ServiceError.self) {
                    try await h.service.addMember(
                        householdID: flat, .init(kind: .child, displayName: "Mia", age: 6, consentID: consentID), viewer: ana)
                }
                let updated = await #expect(throws: ServiceError.self) {
                    try await h.service.updateMember(id: teen.id, age: 12, consentID: consentID, viewer: ana)
                }
                for refused in [added, updated] {
                    #expect(refused?.code == .badUserInput && refused?.problems.first?.field == "input.consentId")
                    #expect(refused?.problems.first?.reason == .unknownValue)
                }
            }
            #expect(try h.sqlText("SELECT count(*) FROM parental_consents WHERE id = '\(cabinConsent.id)' AND used_at IS NULL") == "1")
            #expect(try h.sqlText("SELECT count(*) FROM members WHERE consent_id IS NOT NULL") == "0")
        }
    }

    @Test func aConsentIsForTheKindOfProfileItsPathNames() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let householdID = try await h.householdID(named: "Flat", ana)
            let supervised = try await h.recordConsent(householdID, .supervised, ana)
            let refused = await #expect(throws: ServiceError.self) {
                try await h.service.addMember(
                    householdID: householdID, .init(kind: .child, displayName: "Mia", age: 6, consentID: supervised.id), viewer: ana)
            }
            #expect(refused?.problems.first?.reason == .notAllowed && refused?.problems.first?.field == "input.consentId")
            #expect(try h.sqlText("SELECT count(*) FROM members") == "1")
        }
    }

    @Test func adultsAreInvitedAndEveryInputProblemIsReportedAtOnce() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let householdID = try await h.householdID(named: "Flat", ana)
            let refused = await #expect(throws: ServiceError.self) {
                try await h.service.addMember(householdID: householdID, .init(kind: .coParent, displayName: "  ", age: 131), viewer: ana)
            }
            #expect(refused?.code == .badUserInput)
            #expect(refused?.problems.map(\.field) == ["input.kind", "input.displayName", "input.age"])
            #expect(refused?.problems.map(\.reason) == [.notAllowed, .required, .outOfRange])
            let negative = await #expect(throws: ServiceError.self) {
                try await h.service.addMember(householdID: householdID, .init(kind: .child, displayName: "Mia", age: -1), viewer: ana)
            }
            #expect(negative?.problems.first?.reason == .outOfRange)
        }
    }

    @Test func onlyAdminsRecordConsentsAndAddChildrenAndOutsidersSeeNoHousehold() async throws {
        try await HouseholdsHarness.with { h in
            let (householdID, _, ben, eve) = try await h.flatWithMemberAndOutsider()
            for (viewer, code) in [(ben, ServiceError.Code.forbidden), (eve, .notFound)] {
                let consent = await #expect(throws: ServiceError.self) { try await h.recordConsent(householdID, .ownAccount, viewer) }
                #expect(consent?.code == code)
                let add = await #expect(throws: ServiceError.self) {
                    try await h.service.addMember(householdID: householdID, .init(kind: .child, displayName: "Mia", age: 14), viewer: viewer)
                }
                #expect(add?.code == code)
            }
            #expect(try h.sqlText("SELECT count(*) FROM members WHERE user_id IS NULL") == "0")
        }
    }

    @Test func theMemberLimitCountsChildren() async throws {
        try await HouseholdsHarness.with(configure: { $0.maximumMembersPerHousehold = 2 }) { h in
            let ana = try await h.confirmedViewer("ana")
            let householdID = try await h.householdID(named: "Flat", ana)
            _ = try await h.service.addMember(householdID: householdID, .init(kind: .child, displayName: "Noa", age: 15), viewer: ana)
            let full = await #expect(throws: ServiceError.self) {
                try await h.service.addMember(householdID: householdID, .init(kind: .child, displayName: "Eli", age: 14), viewer: ana)
            }
            #expect(full?.code == .conflict && full?.reason == .limitReached)
        }
    }

    @Test func aConsentNeedsAnAttestationAndTheCurrentTerms() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let householdID = try await h.householdID(named: "Flat", ana)
            let refused = await #expect(throws: ServiceError.self) {
                try await h.service.recordParentalConsent(
                    householdID: householdID, method: .card, path: .ownAccount, attestation: " ", termsVersion: "2020-01-01", viewer: ana)
            }
            #expect(refused?.problems.map(\.field) == ["input.attestation", "input.termsVersion"])
            #expect(refused?.problems.map(\.reason) == [.required, .unknownValue])
            let long = await #expect(throws: ServiceError.self) {
                try await h.recordConsent(householdID, .ownAccount, ana, attestation: String(repeating: "é", count: 2001))
            }
            #expect(long?.problems.first?.reason == .tooLong)
            _ = try await h.recordConsent(householdID, .ownAccount, ana, attestation: String(repeating: "é", count: 2000))
        }
    }

    @Test func unusedConsentsAreBoundedByTheMembersAHouseholdCouldHave() async throws {
        try await HouseholdsHarness.with(configure: { $0.maximumMembersPerHousehold = 2 }) { h in
            let ana = try await h.confirmedViewer("ana")
            let householdID = try await h.householdID(named: "Flat", ana)
            _ = try await h.recordConsent(householdID, .ownAccount, ana)
            _ = try await h.recordConsent(householdID, .ownAccount, ana)
            let refused = await #expect(throws: ServiceError.self) { try await h.recordConsent(householdID, .ownAccount, ana) }
            #expect(refused?.code == .conflict && refused?.reason == .limitReached)
        }
    }

    @Test func aReplayedAddReturnsTheFirstMemberAndAddsNoOther() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let householdID = try await h.householdID(named: "Flat", ana)
            let consent = try await h.recordConsent(householdID, .ownAccount, ana)
            let request = HouseholdService.NewMember(kind: .child, displayName: "Mia", age: 6, consentID: consent.id)
            let first = try await h.service.addMember(householdID: householdID, request, viewer: ana, clientMutationID: "m1").member
            let replay = try await h.service.addMember(householdID: householdID, request, viewer: ana, clientMutationID: "m1").member
            #expect(replay == first)
            #expect(try h.sqlText("SELECT count(*) FROM members WHERE kind = 'child'") == "1")
        }
    }

    @Test func adminsEditChildrenAndLoweringAnAgeBelowThirteenNeedsAConsent() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let householdID = try await h.householdID(named: "Flat", ana)
            let noa = try await h.service.addMember(householdID: householdID, .init(kind: .child, displayName: "Noa", age: 14), viewer: ana).member
            let renamed = try await h.service.updateMember(id: noa.id, displayName: " Noah ", age: 15, viewer: ana).member
            #expect(renamed.displayName == "Noah" && renamed.age == 15)
            #expect(try h.sqlText("SELECT kind FROM change_log ORDER BY sequence DESC LIMIT 1") == "member.updated")

            for age in [12, nil] as [Int?] {
                let refused = await #expect(throws: ServiceError.self) { try await h.service.updateMember(id: noa.id, age: .some(age), viewer: ana) }
                #expect(refused?.code == .consentRequired)
            }
            let consent = try await h.recordConsent(householdID, .ownAccount, ana)
            let younger = try await h.service.updateMember(id: noa.id, age: .some(nil), consentID: consent.id, viewer: ana).member
            #expect(younger.age == nil && younger.consentID == consent.id)
            let again = try await h.service.updateMember(id: noa.id, age: 9, viewer: ana).member
            #expect(again.age == 9, "a member with a consent needs no other")
            let second = try await h.recordConsent(householdID, .ownAccount, ana)
            let surplus = await #expect(throws: ServiceError.self) {
                try await h.service.updateMember(id: noa.id, consentID: second.id, viewer: ana)
            }
            #expect(surplus?.problems.first?.reason == .notAllowed)
        }
    }

    @Test func peopleEditTheirOwnNameButNotTheirAgeAndNotOtherAccounts() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let ben = try await h.confirmedViewer("ben")
            let eve = try await h.confirmedViewer("eve")
            let householdID = try await h.householdID(named: "Flat", ana)
            let benMember = try h.addAccountMember(ben, householdID)
            let noa = try await h.service.addMember(householdID: householdID, .init(kind: .child, displayName: "Noa", age: 14), viewer: ana).member

            #expect(try await h.service.updateMember(id: benMember, displayName: "Benji", viewer: ben).member.displayName == "Benji")
            let ownAge = await #expect(throws: ServiceError.self) { try await h.service.updateMember(id: benMember, age: 40, viewer: ben) }
            #expect(ownAge?.problems.first?.field == "input.age" && ownAge?.problems.first?.reason == .notAllowed)
            let otherAccount = await #expect(throws: ServiceError.self) {
                try await h.service.updateMember(id: benMember, displayName: "B", viewer: ana)
            }
            #expect(otherAccount?.code == .forbidden)
            let notAdmin = await #expect(throws: ServiceError.self) { try await h.service.updateMember(id: noa.id, displayName: "N", viewer: ben) }
            #expect(notAdmin?.code == .forbidden)
            let outsider = await #expect(throws: ServiceError.self) { try await h.service.updateMember(id: noa.id, displayName: "N", viewer: eve) }
            #expect(outsider?.code == .notFound)
            #expect(try h.sqlText("SELECT display_name FROM members WHERE id = '\(noa.id)'") == "Noa")
        }
    }
}
