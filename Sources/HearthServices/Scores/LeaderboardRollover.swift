import FoundationEssentials
import HearthDomain
import HearthStore

extension JobKind {
    /// A household's week or month ended: its live boards start over (``LeaderboardRollover``).
    public static let leaderboardPeriodEnd: JobKind = "leaderboard.period_end"
}

extension EventKind {
    /// A household's week or month ended, so its boards of that period start over
    /// (``LeaderboardRollover``); on the household's topic.
    public static let leaderboardPeriodEnded: EventKind = "leaderboard.period_ended"
}

/// The payload of ``EventKind/leaderboardPeriodEnded``.
public struct LeaderboardPeriodEnd: Codable, Sendable, Equatable {
    /// The household.
    public var householdID: String
    /// The instant the period ended (local midnight in the household's time zone).
    public var endedAt: Date
}

/// Live boards start over when their period does (FR-58): a phone showing "this week" at 23:59 on
/// the week's last day shows the new, empty week at midnight without anyone completing anything.
///
/// Nothing else happens at that instant, so it is scheduled work: whenever a household's scores
/// change, and when its time zone or first weekday may have moved its calendar, one job per period
/// end (week and month; all time never ends) is enqueued for the end of the period then current,
/// keyed by household and instant so a thousand completions in a week enqueue it once. The job
/// records ``EventKind/leaderboardPeriodEnded`` on the household's topic; whatever serves live boards
/// (on any server process sharing the database) recomputes each board whose period is over.
///
/// A board with nothing on it in its period is not scheduled for: no score changed in it, so its
/// end moves nothing a subscriber was shown but the dates (which a client knows to roll itself).
/// A job left from a calendar that changed since fires at the old instant and moves nothing.
struct LeaderboardRollover: JobHandler {
    /// The job's input.
    struct Payload: Codable {
        var householdID: String
        var endsAt: Date
    }

    let jobs: JobQueue
    let changeLog: ChangeLog

    var kind: JobKind { .leaderboardPeriodEnd }

    /// Registers the reaction rescheduling after a change of the household's settings (its time
    /// zone or first weekday may have moved its periods' ends), when it has scores at all.
    func register() {
        changeLog.reactions.register([.householdUpdated]) { [self] event, database in
            let change = try event.payload.decode(HouseholdChange.self)
            guard let access = try HouseholdAccess.scheduled(householdID: change.householdID, in: database) else { return }
            let household = HouseholdScope(access, database)
            guard try household.scalar(Int.self, "SELECT 1 FROM chore_score_days WHERE household_id = {household} LIMIT 1") != nil else { return }
            try schedule(try HouseholdRecord.find(household), in: database)
        }
    }

    /// Enqueues, in the caller's transaction, the ends of the household's current week and month.
    func schedule(_ household: HouseholdRecord, in database: Database) throws {
        let now = jobs.clock.now
        let zone = try RecurrenceZone.timeZone(named: household.timeZone)
        for period in [ScorePeriod.week, .month] {
            guard let end = ScoreWindow(period, containing: now, in: zone, firstWeekday: household.firstWeekday).end else { continue }
            try jobs.enqueue(
                kind: kind, payload: Payload(householdID: household.id, endsAt: end), dueAt: end,
                dedupeKey: "\(household.id) \(Int64(end.timeIntervalSince1970))", in: database)
        }
    }

    /// Records the period's end on the household's topic; nothing for a household deleted since.
    /// Idempotent in effect: a second event makes subscribers recompute boards that are already current.
    func run(_ job: Job) throws {
        let payload = try job.decodePayload(Payload.self)
        try jobs.pool.write { database in
            guard let access = try HouseholdAccess.scheduled(householdID: payload.householdID, in: database) else { return }
            try changeLog.record(
                topic: .household(access.householdID), kind: .leaderboardPeriodEnded,
                payload: LeaderboardPeriodEnd(householdID: payload.householdID, endedAt: payload.endsAt), in: database)
        }
    }
}
