import Foundation
import GraphQL
import Testing

/// FR-ONBOARD-1 and the analytics table of onboarding.md through the binary: a whole wizard
/// run records the expected events, content-free, and only for an account that allowed it.
@Suite struct ActivationAnalyticsTests {
    /// The analytics rows as text, oldest first: `name|household_ref|actor_ref|properties|occurred_at`.
    static func rows(_ server: ServerProcess) throws -> [String] {
        try server.databaseColumn(
            """
            SELECT name || '|' || coalesce(household_ref, '') || '|' || coalesce(actor_ref, '') || '|' || properties || '|' || occurred_at
            FROM analytics_events ORDER BY id
            """)
    }

    /// Runs the wizard of the README's tour as `person`, with a child and a co-parent invitation.
    static func runWizard(_ server: ServerProcess, as person: ServerProcess.Person, coParent: String) throws -> [String] {
        _ = try server.graphQL("mutation { recordOnboardingStarted(input: {platform: ANDROID}) { isRecorded } }", token: person.token)
        let (householdID, memberID) = try server.createHousehold("The \(person.username) home", as: person)
        func run(_ document: String) throws -> JSON {
            let response = try server.graphQL(document, token: person.token)
            #expect(response.json["errors"] == nil, "\(document)\n→ \(response.json)")
            return response.data ?? .null
        }
        _ = try run(#"mutation { updateMember(input: {memberId: "\#(memberID)", displayName: "\#(person.username) parent"}) { member { id } } }"#)
        _ = try run(#"mutation { completeOnboardingStep(input: {householdId: "\#(householdID)", step: ADMIN}) { onboarding { isComplete } } }"#)
        let consent = try run(
            #"""
            mutation { recordParentalConsent(input: {householdId: "\#(householdID)", method: CARD, path: SUPERVISED,
              attestation: "I consent.", termsVersion: "2026-11-01"}) { consent { id } } }
            """#)
        let consentID = try #require(consent["recordParentalConsent"]?["consent"]?["id"]?.stringValue)
        let child = try run(
            #"""
            mutation { addMember(input: {householdId: "\#(householdID)", kind: SHADOW, displayName: "Lia Secretname", age: 7,
              consentId: "\#(consentID)"}) { member { id } } }
            """#)
        let childID = try #require(child["addMember"]?["member"]?["id"]?.stringValue)
        _ = try run(#"mutation { inviteCoParent(input: {householdId: "\#(householdID)", email: "\#(coParent)"}) { invitation { id } } }"#)
        _ = try run(#"mutation { completeOnboardingStep(input: {householdId: "\#(householdID)", step: MEMBERS}) { onboarding { isComplete } } }"#)
        _ = try run(#"mutation { updateEconomySettings(input: {householdId: "\#(householdID)", currencyPerToken: "0.25"}) { economy { currencyCode } } }"#)
        _ = try run(#"mutation { skipOnboardingStep(input: {householdId: "\#(householdID)", step: CHORE}) { onboarding { isComplete } } }"#)
        return [person.userID, person.username, person.email, householdID, memberID, consentID, childID, "Lia", "Secretname", coParent]
    }

    @Test func FR_ONBOARD_1_theWizardRecordsItsEventsWithoutIdentityAndOnlyWithConsent() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        // Without consent, a whole wizard run records nothing.
        let bea = try server.person("bea")
        _ = try Self.runWizard(server, as: bea, coParent: "carl@example.com")
        #expect(try Self.rows(server).isEmpty)

        let ana = try server.person("ana")
        let consent = try server.graphQL("mutation { setAnalyticsConsent(input: {isConsented: true}) { user { id } } }", token: ana.token)
        #expect(consent.json["errors"] == nil)
        let secrets = try Self.runWizard(server, as: ana, coParent: "ben@example.com")
        let rows = try Self.rows(server)
        let names = rows.map { $0.prefix { $0 != "|" } }
        #expect(names == [
            "onboarding_started", "household_created", "onboarding_step_completed", "onboarding_step_completed",
            "onboarding_completed", "child_consent_captured", "member_invited", "member_invited", "onboarding_step_completed",
            "onboarding_step_completed", "economy_configured", "onboarding_skipped",
        ], "\(rows.joined(separator: "\n"))")
        #expect(rows.contains { $0.contains(#"{"kind":"shadow"}"#) })
        #expect(rows.contains { $0.contains(#"{"kind":"coParent"}"#) })
        #expect(rows.contains { $0.hasPrefix("onboarding_started|") && $0.contains(#""platform":"android""#) })
        #expect(rows.contains { $0.hasPrefix("onboarding_skipped|") && $0.contains(#""step":"chore""#) })
        for row in rows {
            for secret in secrets {
                #expect(!row.lowercased().contains(secret.lowercased()), "\(row) reveals \(secret)")
            }
            // Minute precision: seconds and milliseconds are zero.
            #expect(row.hasSuffix(":00.000Z"), "\(row)")
        }
        // One household reference across the household's events.
        let householdRefs = Set(rows.map { $0.split(separator: "|", omittingEmptySubsequences: false)[1] }.filter { !$0.isEmpty })
        #expect(householdRefs.count == 1)
    }
}
