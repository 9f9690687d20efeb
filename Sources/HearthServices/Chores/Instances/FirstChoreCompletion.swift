import FoundationEssentials
import HearthStore

/// A household's first completed chore (onboarding.md): the activation KPI's numerator and
/// D-ONBOARD-3's end of the setup checklist. Recorded once per household
/// (`household_first_completions`), at the first completion that counts: one needing no
/// approval when it is recorded, or one approved later (`+Approval`); never undone.
///
/// The analytics event `first_chore_completed` goes through ``ActivationAnalytics``, so it is
/// recorded only with the consent of the account that caused it (the recorder, or the approving
/// admin), with the chore as a reference and the time since the household's creation as a
/// coarse bucket (``hoursFromInstallBucket(seconds:)``); the checklist's dismissal does not
/// depend on consent.
enum FirstChoreCompletion {
    /// Records `completion` as its household's first completed chore unless one was, and then
    /// `first_chore_completed` as `actorID` (the recorder when nil).
    static func record(
        _ completion: ChoreCompletionRecord, actorID: String? = nil, analytics: ActivationAnalytics, _ household: HouseholdScope, at now: Date
    ) throws {
        try household.execute(
            """
            INSERT INTO household_first_completions (household_id, completion_id, completed_at) VALUES ({household}, ?, ?)
            ON CONFLICT (household_id) DO NOTHING
            """,
            [completion.id, now])
        guard household.changedRowCount == 1, let actor = actorID ?? completion.recordedBy else { return }
        let createdAt = try household.scalar(Date.self, "SELECT created_at FROM households WHERE id = {household}") ?? now
        try analytics.record(
            .firstChoreCompleted, actorID: actor, householdID: household.access.householdID,
            properties: [
                "choreRef": analytics.reference(completion.choreID),
                "hoursFromInstall": hoursFromInstallBucket(seconds: now.timeIntervalSince(createdAt)),
            ],
            at: now, in: household.database)
    }

    /// The time from the household's creation to its first completed chore, coarsely: `lt_24h`,
    /// `24_72h` or `gte_72h` (each bucket includes its lower bound; 72 hours is the KPI's window).
    static func hoursFromInstallBucket(seconds: Double) -> String {
        switch seconds {
        case ..<(24 * 3600): "lt_24h"
        case ..<(72 * 3600): "24_72h"
        default: "gte_72h"
        }
    }
}
