import FoundationEssentials
import HearthDomain
@testable import HearthServices
import Support
import Testing
import TestFixtures

/// Issue 14: a DTSTART without TZID is local time in the household's zone (the owner's for a
/// personal chore), so changing that zone replans what has not started, as editing a schedule
/// does; completed instances never change.
@Suite struct TimeZoneReplanTests {
    /// The clock starts at 2026-09-21T14:13:20Z; daily at 09:00 from the 22nd.
    private static let floating = ChoreService.ScheduleRequest.recurrence("DTSTART:20260922T090000\nRRULE:FREQ=DAILY")

    @Test func changingTheHouseholdsZoneMovesInstancesNotStartedAndNeverCompletedOnes() async throws {
        try await InstancesHarness.with { harness in
            let ana = try await harness.households.confirmedViewer("ana")
            let householdID = try await harness.households.service.createHousehold(
                .init(name: "Home", timeZone: "Europe/Berlin"), viewer: ana).household.id
            let chore = try await harness.households.chore("Plants", in: householdID, by: ana) {
                $0.requiresApproval = false
                $0.schedule = Self.floating
            }
            let fixed = try await harness.households.chore("Bins", in: householdID, by: ana) {
                $0.schedule = .recurrence("DTSTART;TZID=Europe/Berlin:20260922T090000\nRRULE:FREQ=DAILY")
            }
            let fixedBefore = try harness.storedInstances(of: fixed.id)
            // 09:00 in Berlin (CEST) is 07:00 UTC; the first one is done.
            let first = harness.instanceID(chore, at: Date(timeIntervalSince1970: 1_790_060_400))  // 2026-09-22T07:00:00Z
            try await harness.complete(first, as: ana)
            _ = try await harness.households.service.updateHousehold(
                id: householdID, .init(timeZone: "America/New_York"), viewer: ana)
            let stored = try harness.storedInstances(of: chore.id)
            #expect(stored.first == "2026-09-22T07:00:00.000Z - completed", "the completed one stays: \(stored)")
            let pending = stored.filter { $0.hasSuffix("pending") }
            #expect(pending.count == 14 && pending.allSatisfy { $0.contains("T13:00:00.000Z") }, "09:00 in New York (EDT): \(pending)")
            #expect(try harness.storedInstances(of: fixed.id) == fixedBefore, "a DTSTART with TZID does not move")
            let occurrences = try await harness.instances.occurrences(
                of: try await harness.chores.chore(id: chore.id, viewer: ana).record,
                access: ChoreAccess(try await harness.households.service.access(viewer: ana, householdID: householdID)),
                after: harness.clock.now, first: 1)
            #expect(occurrences == [Date(timeIntervalSince1970: 1_790_082_000)], "2026-09-22T13:00:00Z")
        }
    }

    @Test func changingAUsersZoneMovesTheirPersonalChores() async throws {
        try await InstancesHarness.with { harness in
            let ana = try await harness.households.confirmedViewer("ana")
            let chore = try await harness.households.chore("Stretch", in: nil, by: ana) { $0.schedule = Self.floating }
            #expect(try harness.storedInstances(of: chore.id).first == "2026-09-22T09:00:00.000Z - pending", "UTC while ana has no zone")
            _ = try await harness.households.accounts.service.updateProfile(viewer: ana, ProfileChange(timeZone: "Asia/Kathmandu"))
            let stored = try harness.storedInstances(of: chore.id)
            #expect(stored.count == 14 && stored.allSatisfy { $0.contains("T03:15:00.000Z") }, "09:00 in Kathmandu (+05:45): \(stored)")
        }
    }

    @Test func aStoredZoneTheSystemNoLongerHasIsRefusedByNameNotReadAsUTC() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let chore = try await harness.households.chore("Bins", in: family.householdID, by: family.admin) {
                $0.schedule = .recurrence("DTSTART;TZID=Europe/Berlin:20260922T090000\nRRULE:FREQ=DAILY")
            }
            let daily = try await harness.households.chore("Plants", in: family.householdID, by: family.admin) { $0.schedule = Self.floating }
            let access = ChoreAccess(try await harness.households.service.access(viewer: family.admin, householdID: family.householdID))
            try await harness.pool.write { database in
                try database.execute("UPDATE chores SET recurrence = replace(recurrence, 'Europe/Berlin', 'Atlantis/Poseidonia') WHERE id = ?", [chore.id])
            }
            let stored = try await harness.chores.chore(id: chore.id, viewer: family.admin).record
            let tzid = await harness.households.refusal {
                try await harness.instances.occurrences(of: stored, access: access, after: harness.clock.now, first: 1)
            }
            #expect(tzid?.code == .badUserInput && tzid?.problems.first?.reason == .unknownValue)
            #expect(tzid?.message.contains("Atlantis/Poseidonia") == true, "\(String(describing: tzid))")
            try await harness.pool.write { database in
                try database.execute("UPDATE households SET time_zone = 'Atlantis/Poseidonia' WHERE id = ?", [family.householdID])
            }
            let household = await harness.households.refusal {
                try await harness.instances.occurrences(of: daily, access: access, after: harness.clock.now, first: 1)
            }
            #expect(household?.code == .badUserInput && household?.message.contains("Atlantis/Poseidonia") == true)
        }
    }
}
