import FoundationEssentials
import HearthDomain
import HearthStore
import Support

/// "What to do today" and how closely each habit's plan is followed (issue 16: US 01.07, US 01.08),
/// read from the habits and habit events of migration 0022.
///
/// - **Days** are the habit owner's local calendar days (`users.time_zone`, UTC when unset): an
///   event's `occurred_on` is one, and "today" is the day the owner's clock shows now (the injected
///   ``ServiceClock``), so an event recorded at 00:05 counts for the new day, and a daylight-saving
///   change makes a day 23 or 25 hours long but still one day. A follower sees the owner's today.
/// - **Who** sees adherence: whoever may see the habit (``HabitAudience``); anything else is
///   answered as absent.
/// - **Reads** are few whatever the number of habits: the habits (with their owners' zones) in one
///   statement, then every day with an event of all of them in one more (the index
///   `habit_events_habit`), never one query per habit.
///
/// The figures themselves are ``HabitAdherence``'s, which documents the today rule, streaks and
/// what events on unplanned days count for.
public final class HabitAdherenceService: Sendable {
    /// Where habits and events are read.
    public let pool: any DatabaseReader
    /// What "now" is, hence "today".
    public let clock: any ServiceClock
    /// The limits.
    public let configuration: HabitAdherenceConfiguration
    /// The server's public address, for the sparkline's URL.
    public let baseURL: PublicBaseURL

    /// Creates the service.
    public init(pool: any DatabaseReader, clock: any ServiceClock, configuration: HabitAdherenceConfiguration, baseURL: PublicBaseURL) {
        self.pool = pool
        self.clock = clock
        self.configuration = configuration
        self.baseURL = baseURL
    }

    /// The viewer's habits planned for today in their time zone that have started (`startsOn` on or
    /// before today), oldest first, each with whether an event counts for today. Two statements:
    /// the viewer's zone, then the habits with their "done" flags.
    public func todayHabits(viewer: Viewer) async throws -> TodayHabits {
        let now = clock.now
        return try await pool.readPreferringCallingThread { database in
            let owner = OwnerScope(Owner(viewer), database)
            let zoneName = try owner.scalar(String.self, "SELECT time_zone FROM users WHERE id = {owner}") ?? TimeZoneName.utc.name
            let today = ScoreWindow.day(of: now, in: try RecurrenceZone.timeZone(named: zoneName))
            let todayText = CalendarDayText.text(today)
            let weekdayBit = 1 << CivilCalendar.weekday(ofDayNumber: today)
            let entries = try owner.query(
                """
                SELECT h.id, EXISTS (SELECT 1 FROM habit_events e WHERE e.habit_id = h.id AND e.occurred_on = ?)
                FROM habits h WHERE h.user_id = {owner} AND h.starts_on <= ? AND (h.plan & ?) <> 0
                ORDER BY h.created_at, h.id
                """,
                [todayText, todayText, weekdayBit]
            ).map { row in TodayHabit(habitID: try row[0], isDoneToday: try row[1]) }
            return TodayHabits(day: today, timeZoneName: zoneName, entries: entries)
        }
    }

    /// The adherence today of each habit of `habitIDs` the viewer may see, by id (others are
    /// absent), with the habit it is of. Two statements for any number of habits.
    public func adherence(of habitIDs: [String], viewer: Viewer) async throws -> [String: (AdherenceHabit, HabitAdherence)] {
        let ids = Array(Set(habitIDs.filter { GlobalID.mayName(.habit, $0) }))
        guard !ids.isEmpty else { return [:] }
        let now = clock.now
        return try await pool.readPreferringCallingThread { database in
            let habits = try database.query(
                """
                SELECT \(AdherenceHabit.columns) FROM habits JOIN users u ON u.id = habits.user_id
                WHERE habits.id IN (\(Self.placeholders(ids.count))) AND \(HabitAudience.habitVisibleToViewer)
                """,
                StatementArguments(ids.map { $0 as (any DatabaseValueConvertible)? } + [viewer.userID, viewer.userID])
            ).map(AdherenceHabit.init(row:))
            guard !habits.isEmpty else { return [:] }
            var doneDays: [String: [Int]] = [:]
            for row in try database.query(
                "SELECT habit_id, occurred_on FROM habit_events WHERE habit_id IN (\(Self.placeholders(habits.count))) GROUP BY habit_id, occurred_on",
                StatementArguments(habits.map { $0.id as (any DatabaseValueConvertible)? }))
            {
                if let day = CalendarDayText.dayNumber(try row[1] as String) { doneDays[try row[0], default: []].append(day) }
            }
            var zones: [String: TimeZoneRules] = [:]
            var result: [String: (AdherenceHabit, HabitAdherence)] = [:]
            for habit in habits {
                let zone = try zones[habit.timeZoneName] ?? RecurrenceZone.timeZone(named: habit.timeZoneName)
                zones[habit.timeZoneName] = zone
                let today = ScoreWindow.day(of: now, in: zone)
                result[habit.id] = (habit, HabitAdherence(schedule: habit.schedule, today: today, doneDays: doneDays[habit.id] ?? []))
            }
            return result
        }
    }

    /// `?, ?, …`: `count` placeholders for an `IN` list.
    private static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// Checks the `weeks` of a weekly series against `--max-adherence-weeks`.
    /// - Throws: `BAD_USER_INPUT` (`OUT_OF_RANGE` on `field`) outside 1…the maximum.
    public func checkWeeks(_ weeks: Int, field: String = "weeks") throws {
        let maximum = configuration.maximumWeeks
        guard (1...maximum).contains(weeks) else {
            throw ServiceError.invalid(InputProblems([FieldProblem(
                field: field, reason: .outOfRange, message: "Ask for 1 to \(maximum) weeks.")]))
        }
    }

    /// The SVG sparkline of the last ``AdherenceSparkline/weekCount`` weeks of habit `habitID`, or
    /// nil when the viewer may not see it (or there is no such habit).
    public func sparkline(habitID: String, viewer: Viewer) async throws -> HabitSparkline? {
        guard let (habit, adherence) = try await adherence(of: [habitID], viewer: viewer)[habitID] else { return nil }
        return HabitSparkline(svg: AdherenceSparkline.svg(title: habit.title, weeks: adherence.weeks(AdherenceSparkline.weekCount)))
    }

    /// The URL of habit `habitID`'s sparkline (`GET /habits/<id>/sparkline.svg`).
    public func sparklineURL(habitID: String) -> String {
        baseURL.url(for: "/habits/\(habitID)/sparkline.svg")
    }
}
