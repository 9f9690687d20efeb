import Foundation
import GraphQL
import Testing

/// Terms of service and their gate (FR-ONBOARD-2), the setup checklist (FR-ONBOARD-7) and the
/// activation report, through the binary.
@Suite struct OnboardingTests {
    static let checklist = "onboarding { nextStep isComplete completedAt isDismissed steps { step index isRequired state completedAt skippedAt visitCount } }"

    /// Calls one of the checklist mutations (`completeOnboardingStep`, `skipOnboardingStep`, `visitOnboardingStep`).
    static func step(
        _ mutation: String, _ step: String, householdID: String, as person: ServerProcess.Person, on server: ServerProcess
    ) throws -> ServerProcess.GraphQLResponse {
        try server.graphQL(
            "mutation($input: OnboardingStepInput!) { \(mutation)(input: $input) { \(checklist) } }",
            variables: ["input": ["householdId": .string(householdID), "step": .string(step)]], token: person.token)
    }

    /// The household's checklist as `person` reads it.
    static func checklist(of householdID: String, as person: ServerProcess.Person, on server: ServerProcess) throws -> JSON {
        let read = try server.graphQL(
            "query($id: ID!) { household(id: $id) { \(checklist) } }", variables: ["id": .string(householdID)], token: person.token)
        return try #require(read.data?["household"]?["onboarding"], "\(read.json)")
    }

    /// Operations each answering `TERMS_ACCEPTANCE_REQUIRED` for an account behind on the terms.
    static func gatedOperations(householdID: String) -> [(String, [String: JSON])] {
        [
            ("{ households { id } }", [:]),
            ("{ activeHousehold { id } }", [:]),
            ("query($id: ID!) { household(id: $id) { id } }", ["id": .string(householdID)]),
            ("{ myInvitations { id } }", [:]),
            ("query($id: ID!) { node(id: $id) { id } }", ["id": .string(householdID)]),
            ("mutation { createHousehold(input: {name: \"Second\"}) { household { id } } }", [:]),
            ("mutation { updateProfile(input: {displayName: \"Ana\"}) { user { id } } }", [:]),
            ("mutation { setAnalyticsConsent(input: {isConsented: true}) { user { id } } }", [:]),
            ("mutation { recordOnboardingStarted(input: {platform: IOS}) { isRecorded } }", [:]),
            ("mutation($h: ID!) { completeOnboardingStep(input: {householdId: $h, step: MEMBERS}) { onboarding { isComplete } } }",
             ["h": .string(householdID)]),
        ]
    }

    @Test func FR_ONBOARD_2_aNewTermsVersionGatesEveryOperationUntilItIsAccepted() throws {
        let first = try ServerProcess(ServerProcess.householdArguments + ["--terms-version", "v1"])
        defer { first.remove() }
        let ana = try first.person("ana")
        let (householdID, _) = try first.createHousehold("Flat", as: ana)
        #expect(first.stop() == 0)
        let server = try ServerProcess(directory: first.directory, arguments: ServerProcess.householdArguments + ["--terms-version", "v2"])
        defer { server.remove() }

        for (operation, variables) in Self.gatedOperations(householdID: householdID) {
            let refused = try server.graphQL(operation, variables: variables, token: ana.token)
            #expect(refused.errorCode == "TERMS_ACCEPTANCE_REQUIRED", "\(operation): \(refused.json)")
            #expect(refused.json["errors"]?[0]?["message"]?.stringValue?.contains("acceptTerms") == true)
        }
        let terms = try server.graphQL(
            "{ terms { currentVersion acceptedVersion isAcceptanceRequired } me { username } serverInfo { version } sessions { id } }",
            token: ana.token)
        #expect(terms.json["errors"] == nil, "\(terms.json)")
        #expect(terms.data?["terms"] == ["currentVersion": "v2", "acceptedVersion": "v1", "isAcceptanceRequired": true])
        #expect(terms.data?["me"]?["username"] == "ana")
        let signedOut = try server.graphQL("{ terms { isAcceptanceRequired } }")
        #expect(signedOut.data?["terms"]?["isAcceptanceRequired"] == false)

        let stale = try server.graphQL("mutation { acceptTerms(input: {version: \"v1\"}) { terms { acceptedVersion } } }", token: ana.token)
        #expect(stale.errorCode == "BAD_USER_INPUT", "\(stale.json)")
        try server.acceptCurrentTerms(ana)
        for (operation, variables) in Self.gatedOperations(householdID: householdID) {
            let answered = try server.graphQL(operation, variables: variables, token: ana.token)
            #expect(answered.errorCode != "TERMS_ACCEPTANCE_REQUIRED", "\(operation): \(answered.json)")
        }
        #expect(try server.databaseColumn("SELECT version FROM terms_acceptances ORDER BY version") == ["v1", "v2"])
    }

    @Test func FR_ONBOARD_2_aNewAccountCreatesItsHouseholdFirstAndAcceptsTheTermsInTheAdminStep() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana", acceptingTerms: false)
        let (householdID, _) = try server.createHousehold("Flat", as: ana)
        let profile = try server.graphQL("mutation { updateProfile(input: {displayName: \"Ana L\"}) { user { displayName } } }", token: ana.token)
        #expect(profile.data?["updateProfile"]?["user"]?["displayName"] == "Ana L", "\(profile.json)")
        #expect(try Self.checklist(of: householdID, as: ana, on: server)["nextStep"] == "ADMIN")

        let early = try Self.step("completeOnboardingStep", "ADMIN", householdID: householdID, as: ana, on: server)
        #expect(early.errorCode == "TERMS_ACCEPTANCE_REQUIRED", "\(early.json)")
        #expect(try server.graphQL("{ myInvitations { id } }", token: ana.token).errorCode == "TERMS_ACCEPTANCE_REQUIRED")

        try server.acceptCurrentTerms(ana)
        let completed = try Self.step("completeOnboardingStep", "ADMIN", householdID: householdID, as: ana, on: server)
        let onboarding = try #require(completed.data?["completeOnboardingStep"]?["onboarding"], "\(completed.json)")
        #expect(onboarding["isComplete"] == true)
        #expect(onboarding["completedAt"]?.stringValue != nil)
        #expect(onboarding["nextStep"] == "MEMBERS")
    }

    @Test func FR_ONBOARD_7_aSecondDeviceResumesAtTheFirstIncompleteRequiredStep() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let (householdID, _) = try server.createHousehold("Flat", as: ana)
        _ = try Self.step("visitOnboardingStep", "ADMIN", householdID: householdID, as: ana, on: server)

        let login = try server.graphQL(
            "mutation { login(input: {email: \"ana@example.com\", password: \"correct horse battery\"}) { tokens { accessToken } } }")
        let tablet = ServerProcess.Person(
            username: "ana", userID: ana.userID, token: try #require(login.data?["login"]?["tokens"]?["accessToken"]?.stringValue, "\(login.json)"))
        let resumed = try Self.checklist(of: householdID, as: tablet, on: server)
        #expect(resumed["nextStep"] == "ADMIN")
        #expect(resumed["isComplete"] == false)
        #expect(resumed["steps"]?[0] == [
            "step": "HOUSEHOLD", "index": 0, "isRequired": true, "state": "DONE",
            "completedAt": try #require(resumed["steps"]?[0]?["completedAt"]), "skippedAt": nil, "visitCount": 0,
        ])
        #expect(resumed["steps"]?[1]?["visitCount"] == 1)
        #expect(resumed["steps"]?[4]?["isRequired"] == false)

        _ = try Self.step("completeOnboardingStep", "ADMIN", householdID: householdID, as: tablet, on: server)
        let phone = try Self.checklist(of: householdID, as: ana, on: server)
        #expect(phone["nextStep"] == "MEMBERS")
        #expect(phone["isComplete"] == true)
        #expect(phone["isDismissed"] == false)
    }

    @Test func FR_ONBOARD_7_skippedStepsStayListedAndRevisitsAreCounted() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let (householdID, _) = try server.createHousehold("Flat", as: ana)
        _ = try Self.step("completeOnboardingStep", "ADMIN", householdID: householdID, as: ana, on: server)

        let skipped = try Self.step("skipOnboardingStep", "ECONOMY", householdID: householdID, as: ana, on: server)
        let afterSkip = try #require(skipped.data?["skipOnboardingStep"]?["onboarding"], "\(skipped.json)")
        #expect(afterSkip["steps"]?[3]?["state"] == "SKIPPED")
        #expect(afterSkip["steps"]?[3]?["skippedAt"]?.stringValue != nil)
        #expect(afterSkip["nextStep"] == "MEMBERS")
        _ = try Self.step("visitOnboardingStep", "ECONOMY", householdID: householdID, as: ana, on: server)
        _ = try Self.step("visitOnboardingStep", "ECONOMY", householdID: householdID, as: ana, on: server)
        let revisited = try Self.step("completeOnboardingStep", "ECONOMY", householdID: householdID, as: ana, on: server)
        let economy = try #require(revisited.data?["completeOnboardingStep"]?["onboarding"]?["steps"]?[3], "\(revisited.json)")
        #expect(economy["state"] == "DONE")
        #expect(economy["visitCount"] == 2)

        let required = try Self.step("skipOnboardingStep", "ADMIN", householdID: householdID, as: ana, on: server)
        #expect(required.errorCode == "BAD_USER_INPUT")
        #expect(required.errorReason == "NOT_ALLOWED", "\(required.json)")
        let chore = try Self.step("completeOnboardingStep", "CHORE", householdID: householdID, as: ana, on: server)
        #expect(chore.errorReason == "NOT_ALLOWED", "\(chore.json)")

        let bea = try server.person("bea")
        let stranger = try Self.step("skipOnboardingStep", "MEMBERS", householdID: householdID, as: bea, on: server)
        #expect(stranger.errorCode == "NOT_FOUND")
    }

    @Test func FR_ONBOARD_7_theActivationReportReadsTheServersAnalytics() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let consent = try server.graphQL(
            "mutation { setAnalyticsConsent(input: {isConsented: true}) { user { hasAnalyticsConsent } } }", token: ana.token)
        #expect(consent.data?["setAnalyticsConsent"]?["user"]?["hasAnalyticsConsent"] == true, "\(consent.json)")
        let started = try server.graphQL("mutation { recordOnboardingStarted(input: {platform: IOS}) { isRecorded } }", token: ana.token)
        #expect(started.data?["recordOnboardingStarted"]?["isRecorded"] == true, "\(started.json)")
        let (householdID, _) = try server.createHousehold("Flat", as: ana)
        _ = try Self.step("completeOnboardingStep", "ADMIN", householdID: householdID, as: ana, on: server)
        _ = try Self.step("skipOnboardingStep", "ECONOMY", householdID: householdID, as: ana, on: server)
        // Without consent nothing is recorded, so this household is not in the report.
        let bea = try server.person("bea")
        let unrecorded = try server.graphQL("mutation { recordOnboardingStarted(input: {platform: WEB}) { isRecorded } }", token: bea.token)
        #expect(unrecorded.data?["recordOnboardingStarted"]?["isRecorded"] == false)
        try server.createHousehold("Other", as: bea)

        let json = try HearthCommand.run(["report", "activation", "--json", "--database", server.database])
        #expect(json.status == 0, "\(json.standardError)")
        let report = try JSON(parsing: Array(json.standardOutput.utf8))
        #expect(report["cohort"] == 1)
        #expect(report["activated"] == 0)
        #expect(report["activationRate"] == 0)  // JSON writes integral numbers without a fraction
        #expect(report["completedWizard"] == 1)
        #expect(report["steps"]?[1] == ["step": "admin", "households": 1, "rate": 1])
        #expect(report["steps"]?[2] == ["step": "members", "households": 0, "rate": 0])
        #expect(report["skippedEconomy"] == 1)
        #expect(report["isEconomySkipRateFlagged"] == true)

        let text = try HearthCommand.run(["report", "activation"], environment: ["HEARTH_DATABASE": server.database])
        #expect(text.standardOutput.contains("Cohort: 1 household "), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("Activated within 72 h: 0 = 0.0 %"))
        #expect(text.standardOutput.contains("FLAGGED"))
        let empty = try HearthCommand.run(["report", "activation", "--since", "2999-01-01", "--database", server.database])
        #expect(empty.standardOutput.contains("No data"), "\(empty.standardOutput)")
        #expect(try HearthCommand.run(["report", "activation", "--since", "yesterday", "--database", server.database]).status == 64)
        #expect(try HearthCommand.run(["report", "retention", "--database", server.database]).status == 64)
    }
}
