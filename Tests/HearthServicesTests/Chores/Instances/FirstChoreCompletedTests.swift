import FoundationEssentials
import HearthDomain
@testable import HearthServices
import Testing
import TestFixtures

/// `first_chore_completed` (onboarding.md's KPI numerator) fires once per household, through the
/// consent-gated analytics, at the first completion that counts; the checklist is dismissed then
/// (D-ONBOARD-3).
@Suite struct FirstChoreCompletedTests {
    private static func events(_ harness: InstancesHarness) throws -> [String] {
        try harness.pool.read { database in
            try database.query("SELECT properties FROM analytics_events WHERE name = 'first_chore_completed' ORDER BY id").map { try $0["properties"] as String }
        }
    }

    @Test func itFiresOnceAtTheFirstCompletionAndDismissesTheChecklist() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            try harness.households.allowAnalytics(for: family.member)
            let access = try await harness.households.service.access(viewer: family.admin, householdID: family.householdID)
            #expect(try await harness.households.service.onboarding(access).isDismissed == false)
            for title in ["One", "Two"] {
                try await harness.complete(try await harness.oneOffChore(family, title).instanceID, as: family.member)
            }
            let events = try Self.events(harness)
            #expect(events.count == 1)
            #expect(events.first?.contains("\"hoursFromInstall\":\"lt_24h\"") == true && events.first?.contains("choreRef") == true)
            let checklist = try await harness.households.service.onboarding(access)
            #expect(checklist.isDismissed && checklist.firstChoreCompletedAt != nil)
            #expect(checklist.steps.contains { $0.state == .pending }, "dismissed by the chore, not by the steps")
        }
    }

    @Test func withoutConsentNothingIsRecordedButTheChecklistIsStillDismissed() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let due = harness.clock.now.addingTimeInterval(3600)
            let chore = try await harness.households.chore("Quiet", in: family.householdID, by: family.admin) { $0.schedule = .once(due) }
            try await harness.complete(harness.instanceID(chore, at: due), as: family.member)
            #expect(try Self.events(harness).isEmpty)
            let access = try await harness.households.service.access(viewer: family.admin, householdID: family.householdID)
            #expect(try await harness.households.service.onboarding(access).isDismissed)
        }
    }

    @Test func aCompletionWaitingForApprovalCountsOnlyOnceApprovedWithTheApproverAsActor() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            try harness.households.allowAnalytics(for: family.admin)
            let due = harness.clock.now.addingTimeInterval(3600)
            let chore = try await harness.households.chore("Room", in: family.householdID, by: family.admin) {
                $0.assignmentMode = .individual
                $0.assigneeIDs = [family.childMemberID]
                $0.requiresApproval = true
                $0.schedule = .once(due)
            }
            let done = try await harness.complete(harness.instanceID(chore, at: due), as: family.child)
            let completionID = try #require(done.completion?.id)
            let access = try await harness.households.service.access(viewer: family.admin, householdID: family.householdID)
            #expect(try await harness.households.service.onboarding(access).isDismissed == false)
            try await harness.pool.write { database in
                _ = try harness.instances.settleApproval(completionID: completionID, approve: true, by: access, in: database, at: harness.clock.storedNow)
            }
            #expect(try Self.events(harness).count == 1)
            #expect(try await harness.households.service.onboarding(access).isDismissed)
        }
    }
}
