import FoundationEssentials
import HearthDomain
import HearthStore

/// Leaderboards and scoreboards (issue 15: FR-56 – FR-58): a household's members ranked by the
/// chores they completed this week, this month or ever, and each user's personal scoreboard.
///
/// - **Counting** happens when completions change, not when boards are read: ``ScoreKeeper`` reacts
///   to the chore instances' completion events in their transaction and keeps per-member daily sums,
///   so a board is two small reads (the household's settings, then its members with their sums over
///   the period's days), whatever the history's length.
/// - **Periods** are calendar periods in the household's time zone (the owner's for personal chores),
///   weeks starting on the household's `firstWeekday` (``ScoreWindow``).
/// - **Who**: a household's board is for its active members (any role, children included); it lists
///   the active members. Others get `NOT_FOUND`, as for any object of a household they are not in. A
///   personal scoreboard is its owner's alone.
/// - **Live**: each change that moves a board records ``EventKind/scoresChanged`` on the household's
///   topic; the API's `leaderboardChanged` recomputes a board once per change and period for all of
///   its subscribers (``leaderboard(_:period:)``). The end of a week or month is recorded too
///   (``EventKind/leaderboardPeriodEnded``, by the scheduled job ``rolloverJob``), so live boards
///   start over at local midnight.
public final class LeaderboardService: Sendable {
    /// The token economy, whose credits the boards' tokens are (and through it chores, households,
    /// the store and the change log).
    public let tokens: TokenService
    /// The job recording the end of a household's week or month (``LeaderboardRollover``); the
    /// scheduler's list of handlers takes it.
    public let rolloverJob: any JobHandler

    /// Creates the service and registers ``ScoreKeeper``'s reactions on the change log, after the
    /// token economy's (made with `tokens`), so a completion's credits exist when it is counted.
    public init(tokens: TokenService) {
        self.tokens = tokens
        let rollover = LeaderboardRollover(jobs: tokens.instances.planner.jobs, changeLog: tokens.households.changeLog)
        rollover.register()
        rolloverJob = rollover
        ScoreKeeper.register(on: tokens.households.changeLog, chores: tokens.instances.chores, rollover: rollover)
    }

    private var pool: any DatabaseWriter { tokens.households.pool }
    private var clock: any ServiceClock { tokens.households.clock }

    /// The leaderboard of household `householdID` for `period` as it stands now, for `viewer`.
    /// - Throws: `NOT_FOUND` when the viewer is not an active member (or there is no such household).
    public func leaderboard(householdID: String, period: ScorePeriod, viewer: Viewer) async throws -> (Leaderboard, HouseholdAccess) {
        guard GlobalID.mayName(.household, householdID) else { throw ServiceError.householdNotFound }
        let now = clock.now
        return try await pool.readPreferringCallingThread { database in
            let scope = try HouseholdScope.check(viewer: viewer, householdID: householdID, in: database)
            return (try Self.board(period, scope, at: now), scope.access)
        }
    }

    /// The leaderboard for `period` of the household `access` was checked for, as it stands now: the
    /// board a live subscription computes once for all its subscribers (the board is the same for
    /// every member), without checking the membership again.
    public func leaderboard(_ access: HouseholdAccess, period: ScorePeriod) async throws -> Leaderboard {
        let now = clock.now
        return try await pool.read { database in try Self.board(period, HouseholdScope(access, database), at: now) }
    }

    /// The accounts of the active members of the household `access` was checked for: whose live
    /// boards may go on after events were missed.
    public func memberAccounts(_ access: HouseholdAccess) async throws -> Set<String> {
        try await pool.read { database in
            Set(try HouseholdScope(access, database).query(
                "SELECT user_id FROM members WHERE household_id = {household} AND status = 'active' AND user_id IS NOT NULL"
            ).map { row -> String in try row["user_id"] })
        }
    }

    /// The viewer's personal scoreboard for `period` as it stands now.
    public func scoreboard(of viewer: Viewer, period: ScorePeriod) async throws -> PersonalScoreboard {
        let now = clock.now
        return try await pool.readPreferringCallingThread { database in
            let owner = OwnerScope(Owner(viewer), database)
            let zoneName = try owner.scalar(String.self, "SELECT time_zone FROM users WHERE id = {owner}") ?? TimeZoneName.utc.name
            let window = ScoreWindow(period, containing: now, in: try RecurrenceZone.timeZone(named: zoneName))
            let (first, end) = Self.bounds(window)
            let completions = try owner.scalar(
                Int.self, "SELECT sum(completions) FROM chore_score_days WHERE user_id = {owner} AND day >= ? AND day < ?", [first, end])
            return PersonalScoreboard(window: window, timeZone: zoneName, completions: completions ?? 0)
        }
    }

    /// The board of the household of `scope` for `period` at `now`.
    static func board(_ period: ScorePeriod, _ scope: HouseholdScope, at now: Date) throws -> Leaderboard {
        let household = try HouseholdRecord.find(scope)
        let window = ScoreWindow(
            period, containing: now, in: try RecurrenceZone.timeZone(named: household.timeZone), firstWeekday: household.firstWeekday)
        let (first, end) = bounds(window)
        let rows = try scope.query(boardSQL, [first, end]).map { row in
            (try row.decode(MemberRecord.self, at: 0), completions: try row[MemberRecord.columns.count] as Int,
             tokens: try row[MemberRecord.columns.count + 1] as Int)
        }
        return Leaderboard(
            householdID: household.id, window: window, timeZone: household.timeZone, firstWeekday: household.firstWeekday, rows: rows)
    }

    /// The first day and the day after the last of `window`, all days for all time.
    private static func bounds(_ window: ScoreWindow) -> (Int, Int) {
        (window.firstDay ?? Int.min, window.endDay ?? Int.max)
    }

    /// The household's active members with their sums over a range of days: one statement, reading
    /// a few rows per member and day from `chore_score_days_household`.
    private static let boardSQL = """
        SELECT \(MemberRecord.columns(of: "m")), coalesce(t.completions, 0), coalesce(t.tokens, 0)
        FROM members m LEFT JOIN (
            SELECT member_id, sum(completions) AS completions, sum(tokens) AS tokens FROM chore_score_days
            WHERE household_id = {household} AND day >= ? AND day < ? GROUP BY member_id
        ) t ON t.member_id = m.id
        WHERE m.household_id = {household} AND m.status = 'active'
        """
}
