import FoundationEssentials
import HearthDomain
import HearthStore

/// Keeps the scores boards read (`chore_scores` and its daily sums `chore_score_days`, migration
/// 0019) in step with completions, inside the transaction that records each completion's change,
/// as the token ledger does (``TokenCredits``), so a board is one small query and never out of step.
///
/// The rules (FR-56 – FR-58):
/// - A completion counts once it finishes its instance and counts for tokens: a final completion
///   recorded without needing approval, or approved. A multi-step chore thus counts once, for whoever
///   completed its last step, like its tokens; a step on its own, a completion waiting for approval
///   and a rejected one count nothing.
/// - It counts on the calendar day it was done on (`completed_at`, not the approval's time) in the
///   household's time zone (the owner's, for a personal chore) as it is when counted.
/// - Its tokens are what the ledger credited for it, to each member the household's earnings split
///   gave a share: a member may get tokens for a completion that counts for someone else.
/// - Undoing it takes back exactly what it added, on the day it was added to.
/// - A personal chore's completion counts on its owner's scoreboard only; it never touches a
///   household's board.
///
/// Counting is idempotent by completion (its rows in `chore_scores` are the proof it was counted),
/// and so is undoing. Each change that moved a sum records ``EventKind/scoresChanged``.
enum ScoreKeeper {
    /// Registers the reactions on `changeLog`. Register after the token economy's
    /// (``TokenCredits/register(on:)``, which ``TokenService`` does when made), so a completion's
    /// credits are in the ledger when it is counted: ``LeaderboardService`` is made from the
    /// ``TokenService`` for that reason.
    /// A household whose scores changed gets its live boards' period ends scheduled (`rollover`).
    static func register(on changeLog: ChangeLog, chores: ChoreService, rollover: LeaderboardRollover) {
        changeLog.reactions.register([.choreCompleted, .choreCompletionApproved]) { event, database in
            let change = try event.payload.decode(ChoreCompletionChange.self)
            guard change.isFinal, change.status == .completed,
                  let access = try ChoreAccess.scheduled(householdID: change.householdID, userID: change.userID, in: database)
            else { return }
            let scope = access.scope(database)
            let household = try scope.household.map(HouseholdRecord.find)
            let zone = try RecurrenceZone.timeZone(named: try household?.timeZone ?? chores.timeZoneName(scope))
            let scores = try count(change, scope, zone: zone)
            try record(scores, of: change, scope, on: changeLog)
            if let household, !scores.isEmpty { try rollover.schedule(household, in: database) }
        }
        changeLog.reactions.register([.choreCompletionUndone]) { event, database in
            let change = try event.payload.decode(ChoreCompletionChange.self)
            guard let access = try ChoreAccess.scheduled(householdID: change.householdID, userID: change.userID, in: database) else { return }
            let scope = access.scope(database)
            try record(try uncount(completion: change.completionID, scope), of: change, scope, on: changeLog)
        }
    }

    /// One member's (or a personal owner's) part of one completion.
    struct Score {
        var memberID: String?
        var day: Int
        var completions: Int
        var tokens: Int
    }

    /// Counts the completion of `change` on the day it was done in `zone`: one completion for its
    /// member (the owner, for a personal chore), and each member's credited tokens. Nothing when it
    /// was counted already or names no member.
    static func count(_ change: ChoreCompletionChange, _ scope: ChoreScope, zone: TimeZoneRules) throws -> [Score] {
        guard try scope.scalar(Int.self, "SELECT 1 FROM chore_scores WHERE completion_id = ? AND {scope}", [change.completionID]) == nil,
              let completedAt = try scope.scalar(
                Date.self, "SELECT completed_at FROM chore_completions WHERE id = ? AND {scope}", [change.completionID])
        else { return [] }
        let day = ScoreWindow.day(of: completedAt, in: zone)
        let scores: [Score]
        if let household = scope.household {
            guard let completer = change.memberID else { return [] }
            var tokens: [String: Int] = [:]
            for credit in try TokenCredits.entries(of: change.completionID, kind: .credit, household) {
                tokens[credit.memberID, default: 0] += credit.amount
            }
            let others = tokens.keys.filter { $0 != completer }.sorted()
            scores = [Score(memberID: completer, day: day, completions: 1, tokens: tokens[completer] ?? 0)]
                + others.map { Score(memberID: $0, day: day, completions: 0, tokens: tokens[$0]!) }
        } else {
            scores = [Score(memberID: nil, day: day, completions: 1, tokens: 0)]
        }
        for score in scores {
            try scope.execute(
                "INSERT INTO chore_scores (completion_id, household_id, user_id, member_id, day, completions, tokens) VALUES (?, {scope_ids}, ?, ?, ?, ?)",
                [change.completionID, score.memberID, score.day, score.completions, score.tokens])
            try add(score, sign: 1, scope)
        }
        return scores
    }

    /// Takes back what the completion `completionID` counted; nothing when it counted nothing (it
    /// never finished its instance, waited for approval, or was undone already).
    static func uncount(completion completionID: String, _ scope: ChoreScope) throws -> [Score] {
        let scores = try scope.query(
            "DELETE FROM chore_scores WHERE completion_id = ? AND {scope} RETURNING member_id, day, completions, tokens", [completionID]
        ).map { row in
            Score(memberID: try row["member_id"], day: try row["day"], completions: try row["completions"], tokens: try row["tokens"])
        }
        for score in scores { try add(score, sign: -1, scope) }
        return scores
    }

    /// Adds `score` (`sign` 1) to its member's day, or subtracts it (`sign` -1).
    private static func add(_ score: Score, sign: Int, _ scope: ChoreScope) throws {
        try scope.execute(
            """
            UPDATE chore_score_days SET completions = completions + ?, tokens = tokens + ?
            WHERE {scope} AND member_id IS NOT DISTINCT FROM ? AND day = ?
            """,
            [sign * score.completions, sign * score.tokens, score.memberID, score.day])
        guard scope.database.changedRowCount == 0 else { return }
        try scope.execute(
            "INSERT INTO chore_score_days (household_id, user_id, member_id, day, completions, tokens) VALUES ({scope_ids}, ?, ?, ?, ?)",
            [score.memberID, score.day, sign * score.completions, sign * score.tokens])
    }

    /// Records ``EventKind/scoresChanged`` for `scores` of the completion of `change`, when there are any.
    private static func record(_ scores: [Score], of change: ChoreCompletionChange, _ scope: ChoreScope, on changeLog: ChangeLog) throws {
        guard !scores.isEmpty else { return }
        let payload = ScoreChange(
            householdID: change.householdID, userID: change.userID, completionID: change.completionID,
            memberIDs: scores.compactMap(\.memberID), days: Array(Set(scores.map(\.day))).sorted())
        try changeLog.record(topic: scope.access.topic, kind: .scoresChanged, payload: payload, in: scope.database)
    }
}
