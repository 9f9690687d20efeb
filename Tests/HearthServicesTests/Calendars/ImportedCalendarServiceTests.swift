import Foundation
import HearthDomain
@testable import HearthServices
import HearthStore
import Support
import Testing
import TestFixtures

/// What later features read of a user's imported calendars inside a transaction of their own:
/// the occurrences in the user's time zone, and the busy periods merged.
@Suite struct ImportedCalendarServiceTests {
    static func service(_ harness: HouseholdsHarness) -> ImportedCalendarService {
        ImportedCalendarService(
            households: harness.service, limits: CalendarFileLimits(), workers: WorkerPool(label: "test-calendar-import", concurrency: 1, queueLimit: 4),
            jobs: JobQueue(pool: harness.service.pool, clock: harness.service.clock), notifier: Notifier(channels: NotificationChannels()))
    }

    static let file = Array("""
        BEGIN:VCALENDAR
        BEGIN:VEVENT
        UID:shift
        DTSTART:20260302T090000
        DTEND:20260302T170000
        RRULE:FREQ=DAILY;COUNT=3
        END:VEVENT
        BEGIN:VEVENT
        UID:meeting
        DTSTART:20260303T150000Z
        DURATION:PT3H
        END:VEVENT
        BEGIN:VEVENT
        UID:reading
        DTSTART:20260302T200000Z
        DURATION:PT1H
        TRANSP:TRANSPARENT
        END:VEVENT
        END:VCALENDAR
        """.utf8)

    @Test func busyPeriodsAreTheUsersBusyOccurrencesMergedInTheirTimeZone() async throws {
        try await HouseholdsHarness.with { harness in
            let viewer = try await harness.confirmedViewer("ana")
            _ = try await harness.accounts.service.updateProfile(viewer: viewer, ProfileChange(timeZone: .some("Europe/Berlin")))
            let calendars = Self.service(harness)
            _ = try await calendars.importCalendar(name: "Shifts", file: Self.file, for: viewer, clientMutationID: nil)
            let from = try Date("2026-03-02T00:00:00Z", strategy: .iso8601)
            let to = try Date("2026-03-05T00:00:00Z", strategy: .iso8601)
            let (events, busy) = try await harness.pool.read { database in
                let owner = OwnerScope(Owner(scheduledWorkOf: viewer.userID), database)
                return (try calendars.importedEvents(of: owner, from: from, to: to), try calendars.busyPeriods(of: owner, from: from, to: to))
            }
            #expect(events.count == 5)
            // Floating 09:00-17:00 is Berlin's (08:00-16:00Z); the meeting at 15:00Z overlaps the second shift; reading is free time.
            #expect(busy.map { [$0.start.formatted(.iso8601), $0.end.formatted(.iso8601)] } == [
                ["2026-03-02T08:00:00Z", "2026-03-02T16:00:00Z"], ["2026-03-03T08:00:00Z", "2026-03-03T18:00:00Z"],
                ["2026-03-04T08:00:00Z", "2026-03-04T16:00:00Z"],
            ])
        }
    }
}
