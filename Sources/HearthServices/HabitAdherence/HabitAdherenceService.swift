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
            let today = CalendarDay(containing: now, in: try RecurrenceZone.timeZone(named: zoneName))
            let entries = try owner.query(
                """
                SELECT \(HabitRecord.selection),
                    EXISTS (SELECT 1 FROM habit_events e WHERE e.habit_id = habits.id AND e.occurred_on = ?) AS is_done_today
                FROM habits WHERE habits.user_id = {owner} AND habits.starts_on <= ? AND (habits.plan & ?) <> 0
                ORDER BY habits.created_at, habits.id
                """,
                [today.description, today.description, 1 << today.weekday.isoIndex]
            ).map { row in TodayHabit(habit: try HabitRecord(row: row), isDoneToday: try row["is_done_today"]) }
            return TodayHabits(day: today.dayNumber, timeZoneName: zoneName, entries: entries)
        }
    }

    /// The adherence today of each habit of `habitIDs` the viewer may see (``HabitAudience``), by
    /// id (others are absent), with the habit it is of. Two statements for any number of habits:
    /// the habits with their owners' zones, then their events' days.
    public func adherence(of habitIDs: [String], viewer: Viewer) async throws -> [String: (HabitRecord, HabitAdherence)] {
        let ids = Array(Set(habitIDs.filter { GlobalID.mayName(.habit, $0) }))
        guard !ids.isEmpty else { return [:] }
        let now = clock.now
        return try await pool.readPreferringCallingThread { database in
            let habits = try OwnerScope(Owner(viewer), database).query(
                """
                SELECT \(HabitRecord.selection), coalesce(u.time_zone, 'UTC') AS time_zone FROM habits JOIN users u ON u.id = habits.user_id
                WHERE habits.id IN (\(Self.placeholders(ids.count))) AND (habits.user_id = {owner} OR \(HabitAudience.followedByScopeOwner))
                """,
                StatementArguments(ids.map { $0 as (any DatabaseValueConvertible)? })
            ).map { row in (try HabitRecord(row: row), try row["time_zone"] as String) }
            return try Self.figures(of: habits, at: now, in: database)
        }
    }

    /// The adherence today of each of `habits`, which the caller read through ``HabitAudience``
    /// (the `Habit`s of a list the API resolved; one habit is a list of one), by habit id. Two
    /// statements for any number of habits: their owners' zones, then their events' days.
    public func adherence(of habits: [HabitRecord]) async throws -> [String: HabitAdherence] {
        guard !habits.isEmpty else { return [:] }
        let owners = Array(Set(habits.map(\.userID)))
        let now = clock.now
        return try await pool.readPreferringCallingThread { database in
            var zones: [String: String] = [:]
            for row in try database.query(
                "SELECT id, time_zone FROM users WHERE id IN (\(Self.placeholders(owners.count)))",
                StatementArguments(owners.map { $0 as (any DatabaseValueConvertible)? }))
            {
                zones[try row[0]] = try row[1] as String?
            }
            let zoned = habits.map { habit in (habit, zones[habit.userID] ?? TimeZoneName.utc.name) }
            return try Self.figures(of: zoned, at: now, in: database).mapValues(\.1)
        }
    }

    /// The adherence at `now` of `habits`, each with its owner's zone name: one statement reads the
    /// days with an event of all of them (the index `habit_events_habit`).
    private static func figures(
        of habits: [(HabitRecord, String)], at now: Date, in database: Database
    ) throws -> [String: (HabitRecord, HabitAdherence)] {
        guard !habits.isEmpty else { return [:] }
        var doneDays: [String: [Int]] = [:]
        for row in try database.query(
            "SELECT habit_id, occurred_on FROM habit_events WHERE habit_id IN (\(placeholders(habits.count))) GROUP BY habit_id, occurred_on",
            StatementArguments(habits.map { $0.0.id as (any DatabaseValueConvertible)? }))
        {
            if let day = CalendarDay(try row[1] as String) { doneDays[try row[0], default: []].append(day.dayNumber) }
        }
        var zones: [String: TimeZoneRules] = [:]
        var result: [String: (HabitRecord, HabitAdherence)] = [:]
        for (habit, zoneName) in habits {
            let zone = try zones[zoneName] ?? RecurrenceZone.timeZone(named: zoneName)
            zones[zoneName] = zone
            let today = CalendarDay(containing: now, in: zone)
            result[habit.id] = (habit, HabitAdherence(
                schedule: HabitSchedule(habit.plan, startsOn: habit.startsOn), today: today.dayNumber, doneDays: doneDays[habit.id] ?? []))
        }
        return result
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
