import FoundationEssentials

/// When a reminder may reach someone (FR-50, FR-50A, FR-50B): at the first instant, from when it
/// comes due, that is neither in their quiet hours nor in a period they are busy, as long as that
/// is before the deadline (the chore's due time; the end of a habit's day). A reminder at due time
/// has no time left before the deadline, so it is skipped when it falls in quiet or busy time.
public enum ReminderDeferral {
    /// What holds a reminder back.
    public enum Cause: String, Sendable, Hashable, Codable {
        /// The user's quiet hours.
        case quietHours = "quiet_hours"
        /// A busy period of the user's calendars (FR-50A).
        case busy
    }

    /// What to do with a reminder.
    public enum Decision: Sendable, Hashable {
        /// Deliver it now.
        case now
        /// Wait until the instant, which is free and before the deadline; `cause` held it back last.
        case delay(until: Date, cause: Cause)
        /// Skip it: no free instant before the deadline; `cause` held it back last.
        case skip(cause: Cause)
    }

    /// The decision for a reminder due at `start` that must arrive before `deadline`, for someone
    /// with `quietHours` (read in `zone`) and busy in `busy` (sorted, merged: ``BusyPeriod/merging(_:)``).
    public static func decide(
        at start: Date, before deadline: Date, quietHours: QuietHours?, in zone: TimeZoneRules, busy: [BusyPeriod]
    ) -> Decision {
        var instant = start
        var cause: Cause?
        // Each step moves past one quiet span or one busy period: bounded by their number before the deadline.
        while true {
            if let end = quietHours?.end(ofSpanContaining: instant, in: zone) {
                (instant, cause) = (end, .quietHours)
            } else if let end = BusyPeriod.end(ofPeriodContaining: instant, in: busy) {
                (instant, cause) = (end, .busy)
            } else {
                break
            }
            if instant >= deadline { return .skip(cause: cause!) }
        }
        guard let cause else { return .now }
        return .delay(until: instant, cause: cause)
    }
}
