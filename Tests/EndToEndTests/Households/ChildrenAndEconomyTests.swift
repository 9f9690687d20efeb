import Foundation
import GraphQL
import HearthStore
import Testing

/// FR-ONBOARD-3 (children behind the parental consent gate) and FR-ONBOARD-5 (the token
/// economy) through the binary, with their error paths.
@Suite struct ChildrenAndEconomyTests {
    static let recordConsent = """
        mutation($input: RecordParentalConsentInput!) {
          recordParentalConsent(input: $input) { consent { id method path termsVersion consentedAt } }
        }
        """
    static let addMember = """
        mutation($input: AddMemberInput!) {
          addMember(input: $input) { member { id kind role status displayName age isViewer } clientMutationId }
        }
        """
    static let updateMember = """
        mutation($input: UpdateMemberInput!) { updateMember(input: $input) { member { id displayName age } clientMutationId } }
        """
    static let updateEconomy = """
        mutation($input: UpdateEconomySettingsInput!) {
          updateEconomySettings(input: $input) {
            economy { currencyPerToken currencyCode earningsSplit minimumCurrencyPerToken maximumCurrencyPerToken }
            household { id economy { currencyPerToken } }
            clientMutationId
          }
        }
        """
    static let readEconomy = """
        query($id: ID!) {
          household(id: $id) { economy { currencyPerToken currencyCode earningsSplit minimumCurrencyPerToken maximumCurrencyPerToken } }
        }
        """


    /// Records an email-plus consent on `path` in `householdID` as `person`; returns its id.
    static func consent(_ server: ServerProcess, _ householdID: String, path: String = "OWN_ACCOUNT", as person: ServerProcess.Person) throws -> String {
        let recorded = try server.graphQL(recordConsent, variables: ServerProcess.input([
            "householdId": .string(householdID), "method": "EMAIL_PLUS", "path": .string(path),
            "attestation": "I am the parent and I consent.", "termsVersion": "2026-11-01",
        ]), token: person.token)
        return try #require(recorded.data?["recordParentalConsent"]?["consent"]?["id"]?.stringValue, "\(recorded.json)")
    }

    /// Makes `person` a member (role member) of `householdID` in the database, as an accepted invitation does.
    static func join(_ server: ServerProcess, _ person: ServerProcess.Person, _ householdID: String) throws {
        let now = try #require(String.fromDatabaseValue(Date().databaseValue))
        try server.databaseWrite(
            """
            INSERT INTO members (id, household_id, user_id, kind, role, status, display_name, joined_at, updated_at)
            VALUES ('member-\(person.username)', '\(householdID)', '\(person.userID)', 'parent', 'member', 'active', '\(person.username)',
                    '\(now)', '\(now)')
            """)
        // A first household becomes the active one, as the service does (ActiveHousehold).
        try server.databaseWrite(
            """
            INSERT INTO active_households (user_id, household_id, activated_at)
            VALUES ('\(person.userID)', '\(householdID)', '\(now)') ON CONFLICT (user_id) DO NOTHING
            """)
    }

    /// Household "Flat" of its admin `ana`, with `ben` a member of it and `eve` in no household.
    static func flatWithMemberAndOutsider(
        on server: ServerProcess
    ) throws -> (householdID: String, admin: ServerProcess.Person, member: ServerProcess.Person, outsider: ServerProcess.Person) {
        let ana = try server.person("ana")
        let ben = try server.person("ben")
        let eve = try server.person("eve")
        let (householdID, _) = try server.createHousehold("Flat", as: ana)
        try join(server, ben, householdID)
        return (householdID, ana, ben, eve)
    }

    // MARK: - FR-ONBOARD-3

    @Test func FR_ONBOARD_3_aConsentRecordedFirstAdmitsAChildUnderThirteen() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let (householdID, _) = try server.createHousehold("Flat", as: ana)
        let recorded = try server.graphQL(Self.recordConsent, variables: ServerProcess.input([
            "householdId": .string(householdID), "method": "CARD", "path": "OWN_ACCOUNT",
            "attestation": "  I am the parent and I consent.  ", "termsVersion": "2026-11-01",
        ]), token: ana.token)
        let consent = try #require(recorded.data?["recordParentalConsent"]?["consent"], "\(recorded.json)")
        #expect(consent["method"] == "CARD" && consent["path"] == "OWN_ACCOUNT" && consent["termsVersion"] == "2026-11-01")
        #expect(consent["consentedAt"]?.stringValue?.hasSuffix("Z") == true)
        let consentID = try #require(consent["id"]?.stringValue)

        let added = try server.graphQL(Self.addMember, variables: ServerProcess.input([
            "householdId": .string(householdID), "kind": "CHILD", "displayName": " Mia ", "age": 8, "consentId": .string(consentID),
            "clientMutationId": "add-mia",
        ]), token: ana.token)
        let mia = try #require(added.data?["addMember"]?["member"], "\(added.json)")
        #expect(mia["kind"] == "CHILD" && mia["role"] == "MEMBER" && mia["status"] == "ACTIVE")
        #expect(mia["displayName"] == "Mia" && mia["age"] == 8 && mia["isViewer"] == false)
        #expect(added.data?["addMember"]?["clientMutationId"] == "add-mia")
        let miaID = try #require(mia["id"]?.stringValue)
        #expect(try server.databaseText("SELECT consent_id FROM members WHERE id = '\(miaID)'") == consentID)
        #expect(try server.databaseText("SELECT attestation FROM parental_consents") == "I am the parent and I consent.")
    }

    @Test func FR_ONBOARD_3_withoutAConsentTheChildIsRefusedAndTheDatabaseHasNoTraceOfThem() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let (householdID, _) = try server.createHousehold("Flat", as: ana)
        let before = try server.rowCounts()
        let refused = try server.graphQL(Self.addMember, variables: ServerProcess.input([
            "householdId": .string(householdID), "kind": "CHILD", "displayName": "Zephyrine Quill", "age": 7,
            "clientMutationId": "add-zephyrine",
        ]), token: ana.token)
        #expect(refused.errorCode == "CONSENT_REQUIRED", "\(refused.json)")
        #expect(refused.data?["addMember"] == nil)
        #expect(try server.rowCounts() == before)
        #expect(try server.tablesContaining("Zephyrine").isEmpty)

        let consentID = try Self.consent(server, householdID, as: ana)
        let admitted = try server.graphQL(Self.addMember, variables: ServerProcess.input([
            "householdId": .string(householdID), "kind": "CHILD", "displayName": "Zephyrine Quill", "age": 7, "consentId": .string(consentID),
        ]), token: ana.token)
        #expect(admitted.data?["addMember"]?["member"]?["displayName"] == "Zephyrine Quill", "\(admitted.json)")
        #expect(try server.tablesContaining("Zephyrine") == ["members"], "the probe finds the child once admitted")
    }

    @Test func FR_ONBOARD_3_aChildWhoseAgeIsNotGivenIsTreatedAsUnderThirteen() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let (householdID, _) = try server.createHousehold("Flat", as: ana)
        let refused = try server.graphQL(Self.addMember, variables: ServerProcess.input([
            "householdId": .string(householdID), "kind": "SHADOW", "displayName": "Ivy",
        ]), token: ana.token)
        #expect(refused.errorCode == "CONSENT_REQUIRED", "\(refused.json)")
        let consentID = try Self.consent(server, householdID, path: "SUPERVISED", as: ana)
        let added = try server.graphQL(Self.addMember, variables: ServerProcess.input([
            "householdId": .string(householdID), "kind": "SHADOW", "displayName": "Ivy", "consentId": .string(consentID),
        ]), token: ana.token)
        #expect(added.data?["addMember"]?["member"]?["kind"] == "SHADOW", "\(added.json)")
        #expect(added.data?["addMember"]?["member"]?["age"] == .null)
    }

    @Test func FR_ONBOARD_3_childrenThirteenAndOlderSkipTheGateWithTheirAgeRecorded() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let (householdID, _) = try server.createHousehold("Flat", as: ana)
        let added = try server.graphQL(Self.addMember, variables: ServerProcess.input([
            "householdId": .string(householdID), "kind": "CHILD", "displayName": "Noa", "age": 13,
        ]), token: ana.token)
        #expect(added.data?["addMember"]?["member"]?["age"] == 13, "\(added.json)")
        #expect(try server.databaseText("SELECT CAST(age AS TEXT) || ',' || coalesce(consent_id, 'none') FROM members WHERE kind = 'child'") == "13,none")
        let tooOld = try server.graphQL(Self.addMember, variables: ServerProcess.input([
            "householdId": .string(householdID), "kind": "CHILD", "displayName": "Eli", "age": 131,
        ]), token: ana.token)
        #expect(tooOld.errorCode == "BAD_USER_INPUT" && tooOld.errorExtensions?["field"] == "input.age", "\(tooOld.json)")
        #expect(tooOld.errorExtensions?["reason"] == "OUT_OF_RANGE")
        let adult = try server.graphQL(Self.addMember, variables: ServerProcess.input([
            "householdId": .string(householdID), "kind": "CO_PARENT", "displayName": "Ben",
        ]), token: ana.token)
        #expect(adult.errorCode == "BAD_USER_INPUT" && adult.errorExtensions?["field"] == "input.kind", "\(adult.json)")
    }

    @Test func FR_ONBOARD_3_aConsentServesOneChildOnly() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let (householdID, _) = try server.createHousehold("Flat", as: ana)
        let consentID = try Self.consent(server, householdID, as: ana)
        for (name, expectedCode) in [("Mia", nil), ("Leo", "BAD_USER_INPUT")] as [(String, String?)] {
            let added = try server.graphQL(Self.addMember, variables: ServerProcess.input([
                "householdId": .string(householdID), "kind": "CHILD", "displayName": .string(name), "age": 6, "consentId": .string(consentID),
            ]), token: ana.token)
            #expect(added.errorCode == expectedCode, "\(added.json)")
            if expectedCode != nil {
                #expect(added.errorExtensions?["field"] == "input.consentId" && added.errorExtensions?["reason"] == "NOT_ALLOWED")
            }
        }
        #expect(try server.databaseColumn("SELECT display_name FROM members WHERE kind = 'child'") == ["Mia"])
        let wrongPath = try server.graphQL(Self.addMember, variables: ServerProcess.input([
            "householdId": .string(householdID), "kind": "SHADOW", "displayName": "Ivy", "age": 3,
            "consentId": .string(try Self.consent(server, householdID, path: "OWN_ACCOUNT", as: ana)),
        ]), token: ana.token)
        #expect(wrongPath.errorExtensions?["reason"] == "NOT_ALLOWED", "\(wrongPath.json)")
    }

    @Test func FR_ONBOARD_3_anotherHouseholdsConsentIsRefusedLikeAnUnknownOne() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let ben = try server.person("ben")
        let (anaHousehold, _) = try server.createHousehold("Flat", as: ana)
        let (benHousehold, _) = try server.createHousehold("Cabin", as: ben)
        let bensConsent = try Self.consent(server, benHousehold, as: ben)
        var answers: [JSON] = []
        for consentID in [bensConsent, "01900000-0000-7000-8000-000000000000"] {
            let refused = try server.graphQL(Self.addMember, variables: ServerProcess.input([
                "householdId": .string(anaHousehold), "kind": "CHILD", "displayName": "Mia", "age": 6, "consentId": .string(consentID),
            ]), token: ana.token)
            #expect(refused.errorCode == "BAD_USER_INPUT" && refused.errorExtensions?["reason"] == "UNKNOWN_VALUE", "\(refused.json)")
            answers.append(refused.json["errors"]?[0]?["message"] ?? .null)
        }
        #expect(answers[0] == answers[1], "the same answer, so another household's consent ids reveal nothing")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM members WHERE kind = 'child'") == "0")
    }

    @Test func FR_ONBOARD_3_membersGetForbiddenAndOutsidersNotFound() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let (householdID, ana, ben, eve) = try Self.flatWithMemberAndOutsider(on: server)
        let noa = try server.graphQL(Self.addMember, variables: ServerProcess.input([
            "householdId": .string(householdID), "kind": "CHILD", "displayName": "Noa", "age": 14,
        ]), token: ana.token)
        let noaID = try #require(noa.data?["addMember"]?["member"]?["id"]?.stringValue, "\(noa.json)")
        for (person, code) in [(ben, "FORBIDDEN"), (eve, "NOT_FOUND")] {
            let consent = try server.graphQL(Self.recordConsent, variables: ServerProcess.input([
                "householdId": .string(householdID), "method": "EMAIL_PLUS", "path": "OWN_ACCOUNT",
                "attestation": "I consent.", "termsVersion": "2026-11-01",
            ]), token: person.token)
            #expect(consent.errorCode == code, "\(consent.json)")
            let add = try server.graphQL(Self.addMember, variables: ServerProcess.input([
                "householdId": .string(householdID), "kind": "CHILD", "displayName": "Eli", "age": 15,
            ]), token: person.token)
            #expect(add.errorCode == code, "\(add.json)")
            let update = try server.graphQL(Self.updateMember, variables: ServerProcess.input([
                "memberId": .string(noaID), "displayName": "Noah",
            ]), token: person.token)
            #expect(update.errorCode == code, "\(update.json)")
        }
        #expect(try server.databaseColumn("SELECT display_name FROM members WHERE user_id IS NULL") == ["Noa"])
    }

    @Test func FR_ONBOARD_3_makingAChildYoungerThanThirteenNeedsAConsent() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let (householdID, _) = try server.createHousehold("Flat", as: ana)
        let noa = try server.graphQL(Self.addMember, variables: ServerProcess.input([
            "householdId": .string(householdID), "kind": "CHILD", "displayName": "Noa", "age": 14,
        ]), token: ana.token)
        let noaID = try #require(noa.data?["addMember"]?["member"]?["id"]?.stringValue, "\(noa.json)")
        for age in [JSON.int(12), .null] {
            let refused = try server.graphQL(Self.updateMember, variables: ServerProcess.input(["memberId": .string(noaID), "age": age]), token: ana.token)
            #expect(refused.errorCode == "CONSENT_REQUIRED", "\(refused.json)")
        }
        let consentID = try Self.consent(server, householdID, as: ana)
        let updated = try server.graphQL(Self.updateMember, variables: ServerProcess.input([
            "memberId": .string(noaID), "age": 12, "displayName": "Noah", "consentId": .string(consentID), "clientMutationId": "u1",
        ]), token: ana.token)
        #expect(updated.data?["updateMember"]?["member"]?["age"] == 12, "\(updated.json)")
        #expect(updated.data?["updateMember"]?["member"]?["displayName"] == "Noah")
        #expect(updated.data?["updateMember"]?["clientMutationId"] == "u1")
        let renamedOnly = try server.graphQL(Self.updateMember, variables: ServerProcess.input(["memberId": .string(noaID), "displayName": "Noa"]), token: ana.token)
        #expect(renamedOnly.data?["updateMember"]?["member"]?["age"] == 12, "an absent age stays as it is: \(renamedOnly.json)")
    }

    // MARK: - FR-ONBOARD-5

    @Test func FR_ONBOARD_5_aNewHouseholdReadsTheDefaultOfTenCentsAndTheAllowedRange() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let (householdID, _) = try server.createHousehold("Flat", as: ana)
        let read = try server.graphQL(Self.readEconomy, variables: ["id": .string(householdID)], token: ana.token)
        let economy = try #require(read.data?["household"]?["economy"], "\(read.json)")
        #expect(economy["currencyPerToken"] == "0.10" && economy["currencyCode"] == "USD" && economy["earningsSplit"] == "FALLBACK")
        #expect(economy["minimumCurrencyPerToken"] == "0.01" && economy["maximumCurrencyPerToken"] == "100.00")
    }

    @Test func FR_ONBOARD_5_anAdminSetsTheEconomyAndTheChecklistStepIsDone() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let (householdID, _) = try server.createHousehold("Flat", as: ana)
        let updated = try server.graphQL(Self.updateEconomy, variables: ServerProcess.input([
            "householdId": .string(householdID), "currencyPerToken": "0.5", "currencyCode": "EUR", "earningsSplit": "EQUAL",
            "clientMutationId": "economy-1",
        ]), token: ana.token)
        let payload = try #require(updated.data?["updateEconomySettings"], "\(updated.json)")
        #expect(payload["economy"]?["currencyPerToken"] == "0.50" && payload["economy"]?["currencyCode"] == "EUR")
        #expect(payload["economy"]?["earningsSplit"] == "EQUAL" && payload["household"]?["economy"]?["currencyPerToken"] == "0.50")
        #expect(payload["clientMutationId"] == "economy-1")
        #expect(try server.databaseText("SELECT currency_per_token FROM households") == "0.50")
        #expect(try server.databaseText("SELECT state FROM onboarding_steps WHERE step = 'economy'") == "done")
        let read = try server.graphQL(Self.readEconomy, variables: ["id": .string(householdID)], token: ana.token)
        #expect(read.data?["household"]?["economy"]?["currencyCode"] == "EUR", "\(read.json)")
    }

    @Test func FR_ONBOARD_5_theRangeEdgesAreIncludedAndValuesBeyondThemRefused() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let (householdID, _) = try server.createHousehold("Flat", as: ana)
        for (amount, canonical) in [("0.01", "0.01"), ("100", "100.00"), ("100.0000", "100.00")] {
            let set = try server.graphQL(Self.updateEconomy, variables: ServerProcess.input([
                "householdId": .string(householdID), "currencyPerToken": .string(amount),
            ]), token: ana.token)
            #expect(set.data?["updateEconomySettings"]?["economy"]?["currencyPerToken"]?.stringValue == canonical, "\(set.json)")
        }
        for amount in ["0.0099", "100.0001", "0"] {
            let refused = try server.graphQL(Self.updateEconomy, variables: ServerProcess.input([
                "householdId": .string(householdID), "currencyPerToken": .string(amount), "currencyCode": "usd",
            ]), token: ana.token)
            #expect(refused.errorCode == "BAD_USER_INPUT", "\(refused.json)")
            #expect(refused.errorExtensions?["fieldErrors"]?[0]?["field"] == "input.currencyPerToken")
            #expect(refused.errorExtensions?["fieldErrors"]?[0]?["reason"] == "OUT_OF_RANGE")
            #expect(refused.errorExtensions?["fieldErrors"]?[1]?["field"] == "input.currencyCode")
            #expect(refused.errorExtensions?["fieldErrors"]?[1]?["reason"] == "UNKNOWN_VALUE")
        }
        #expect(try server.databaseText("SELECT currency_per_token || currency_code FROM households") == "100.00USD")
    }

    @Test func FR_ONBOARD_5_theServerOperatorSetsTheRange() throws {
        let server = try ServerProcess(
            ServerProcess.householdArguments + ["--min-currency-per-token", "0.5", "--max-currency-per-token", "5"])
        defer { server.remove() }
        let ana = try server.person("ana")
        let (householdID, _) = try server.createHousehold("Flat", as: ana)
        let read = try server.graphQL(Self.readEconomy, variables: ["id": .string(householdID)], token: ana.token)
        #expect(read.data?["household"]?["economy"]?["minimumCurrencyPerToken"] == "0.50", "\(read.json)")
        #expect(read.data?["household"]?["economy"]?["maximumCurrencyPerToken"] == "5.00")
        let refused = try server.graphQL(Self.updateEconomy, variables: ServerProcess.input([
            "householdId": .string(householdID), "currencyPerToken": "5.01",
        ]), token: ana.token)
        #expect(refused.errorExtensions?["reason"] == "OUT_OF_RANGE", "\(refused.json)")
    }

    @Test func FR_ONBOARD_5_malformedDecimalsAreRefusedByTheScalarBeforeAnythingRuns() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let (householdID, _) = try server.createHousehold("Flat", as: ana)
        let malformed: [JSON] = ["1e2", "-1", "0.12345", "abc", "", " 1", "1,5", "+1", .double(0.5), .int(1)]
        for amount in malformed {
            let refused = try server.graphQL(Self.updateEconomy, variables: ServerProcess.input([
                "householdId": .string(householdID), "currencyPerToken": amount,
            ]), token: ana.token)
            #expect(refused.errorCode == "BAD_USER_INPUT" && refused.data?["updateEconomySettings"] == nil, "\(amount): \(refused.json)")
        }
        let literal = try server.graphQL(
            "mutation { updateEconomySettings(input: { householdId: \"\(householdID)\", currencyPerToken: \"1e2\" }) { clientMutationId } }",
            token: ana.token)
        #expect(literal.errorCode == "GRAPHQL_VALIDATION_FAILED", "\(literal.json)")
        #expect(try server.databaseText("SELECT currency_per_token FROM households") == "0.10")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM onboarding_steps WHERE step = 'economy'") == "0")
    }

    @Test func FR_ONBOARD_5_membersGetForbiddenAndOutsidersNotFound() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let (householdID, _, ben, eve) = try Self.flatWithMemberAndOutsider(on: server)
        let read = try server.graphQL(Self.readEconomy, variables: ["id": .string(householdID)], token: ben.token)
        #expect(read.data?["household"]?["economy"]?["currencyPerToken"] == "0.10", "members read the economy: \(read.json)")
        for (person, code) in [(ben, "FORBIDDEN"), (eve, "NOT_FOUND")] {
            let refused = try server.graphQL(Self.updateEconomy, variables: ServerProcess.input([
                "householdId": .string(householdID), "earningsSplit": "COMPLETER",
            ]), token: person.token)
            #expect(refused.errorCode == code, "\(refused.json)")
        }
        #expect(try server.databaseText("SELECT earnings_split FROM households") == "fallback")
    }
}

extension ServerProcess {
    /// How many rows the tables a refused `addMember` could touch hold (of the change log, the
    /// households' events: the server's heartbeats come and go on their own).
    fileprivate func rowCounts() throws -> [String: String] {
        var counts: [String: String] = [:]
        for table in ["members", "parental_consents", "analytics_events", "mutation_replays"] {
            counts[table] = try databaseText("SELECT CAST(count(*) AS TEXT) FROM \(table)")
        }
        counts["change_log"] = try databaseText("SELECT CAST(count(*) AS TEXT) FROM change_log WHERE topic LIKE 'household:%'")
        return counts
    }

    /// The tables of the database (its ``SchemaCatalog``, either store's) with a value containing
    /// `text` in any column, by name.
    fileprivate func tablesContaining(_ text: String) throws -> [String] {
        let catalog = try TemporaryDatabase.withExisting(database) { try $0.read { try SchemaCatalog.read($0) } }
        return try catalog.tables.keys.sorted().filter { table in
            // `replace` leaves a value without `text` unchanged (case-sensitive in both dialects).
            let matches = try #require(catalog.tables[table]).columns
                .map { "replace(CAST(\"\($0.name)\" AS TEXT), '\(text)', '') <> CAST(\"\($0.name)\" AS TEXT)" }.joined(separator: " OR ")
            return try databaseText("SELECT CAST(count(*) AS TEXT) FROM \"\(table)\" WHERE \(matches)") != "0"
        }
    }
}
