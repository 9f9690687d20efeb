import FoundationEssentials
import HearthDomain
@testable import HearthServices
import HearthStore
import TestFixtures
import Testing

/// A parental consent captured offline (onboarding.md, issue 17): the phone makes the consent's
/// id, queues `addMember` naming it, and every retry of either answers the first record, whether
/// its replay record is still there or not; the id follows the rules of every client-made id.
@Suite struct OfflineConsentTests {
    private static let consentID = "cns_0190dddd-0000-7000-8000-000000000001"
    private static let memberID = "mem_0190dddd-0000-7000-8000-000000000001"

    private static func consent(
        _ h: HouseholdsHarness, in householdID: String, id: String?, by viewer: Viewer, clientMutationID: String? = nil,
        attestation: String = "I am the parent and I consent."
    ) async throws -> ParentalConsentRecord {
        try await h.service.recordParentalConsent(
            householdID: householdID, method: .emailPlus, path: .supervised, attestation: attestation,
            termsVersion: h.service.configuration.termsVersion, id: id, viewer: viewer, clientMutationID: clientMutationID)
    }

    private static func count(_ h: HouseholdsHarness, _ sql: String) throws -> Int {
        try h.pool.read { try $0.scalar(Int.self, sql) ?? 0 }
    }

    @Test func aQueuedMemberNamesTheConsentItsPhoneMadeAndRetriesAnswerTheFirstRecord() async throws {
        try await HouseholdsHarness.with { h in
            let (householdID, ana, _, _) = try await h.flatWithMemberAndOutsider()
            // The queue as the phone sends it: the consent first, then the child under it.
            let recorded = try await Self.consent(h, in: householdID, id: Self.consentID, by: ana, clientMutationID: "q-1")
            #expect(recorded.id == Self.consentID && recorded.usedAt == nil)
            let child = HouseholdService.NewMember(kind: .shadow, displayName: "Tom", age: 4, consentID: Self.consentID, id: Self.memberID)
            let added = try await h.service.addMember(householdID: householdID, child, viewer: ana, clientMutationID: "q-2")
            #expect(added.member.id == Self.memberID && added.member.consentID == Self.consentID)

            // The whole queue again: with its replay records, then once they are pruned.
            for pruned in [false, true] {
                if pruned { try await h.pool.write { try $0.execute("DELETE FROM mutation_replays") } }
                let again = try await Self.consent(h, in: householdID, id: Self.consentID, by: ana, clientMutationID: "q-1", attestation: "Other words")
                #expect(again.id == Self.consentID && again.attestation == recorded.attestation && again.usedAt != nil, "pruned: \(pruned)")
                #expect(try await h.service.addMember(householdID: householdID, child, viewer: ana, clientMutationID: "q-2").member.id == Self.memberID)
            }
            #expect(try Self.count(h, "SELECT count(*) FROM parental_consents") == 1)
            #expect(try Self.count(h, "SELECT count(*) FROM members WHERE kind = 'shadow'") == 1)
        }
    }

    @Test func aConsentIDIsRefusedMalformedOfAnotherTypeOrAnotherAdminsAndDeletedWithItsHousehold() async throws {
        try await HouseholdsHarness.with { h in
            let (householdID, ana, ben, _) = try await h.flatWithMemberAndOutsider()
            try await h.pool.write { try $0.execute("UPDATE members SET role = 'admin' WHERE user_id = ?", [ben.userID]) }
            for (id, reason) in [("cns_not-a-uuid", FieldProblem.Reason.invalidFormat), (Self.memberID, .idTaken)] {
                let refusal = await h.refusal { try await Self.consent(h, in: householdID, id: id, by: ana) }
                #expect(refusal?.code == .badUserInput && refusal?.problems.first?.field == "input.id", "\(id)")
                #expect(refusal?.problems.first?.reason == reason, "\(id)")
            }
            _ = try await Self.consent(h, in: householdID, id: Self.consentID, by: ana)
            // Another admin of the same household: taken, whoever made it.
            let taken = await h.refusal { try await Self.consent(h, in: householdID, id: Self.consentID, by: ben) }
            #expect(taken?.code == .badUserInput && taken?.problems.first?.reason == .idTaken)

            _ = try await h.service.deleteHousehold(id: householdID, confirmName: "Flat", viewer: ana)
            #expect(try Self.count(h, "SELECT count(*) FROM tombstones WHERE kind = 'cns'") == 1)
            let retried = await h.refusal { try await Self.consent(h, in: householdID, id: Self.consentID, by: ana, clientMutationID: "late") }
            #expect(retried?.code == .notFound && retried?.reason == .deleted)
            // Recreating the consent in another household: the id is of a deleted consent.
            let other = try await h.householdID(named: "Cabin", ana)
            let elsewhere = await h.refusal { try await Self.consent(h, in: other, id: Self.consentID, by: ana) }
            #expect(elsewhere?.code == .notFound && elsewhere?.reason == .deleted)
            #expect(try Self.count(h, "SELECT count(*) FROM parental_consents") == 0)
        }
    }
}
