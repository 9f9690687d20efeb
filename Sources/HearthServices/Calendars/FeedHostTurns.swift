import FoundationEssentials

/// Per-host politeness for scheduled feed refreshes: however many users subscribe to feeds on one
/// host, fetches from it are at least ``interval`` apart (`--calendar-feed-host-interval`).
///
/// A state machine, the time passed in: a refresh asks for its host's turn; when the host's last
/// fetch was less than ``interval`` ago it gets the next free turn, reserved for its feed, and
/// comes back then (its job rescheduled on the durable scheduler, never a sleep). Turns are handed
/// out one ``interval`` apart, so a hundred feeds of one host due at once are fetched over a
/// hundred intervals, each rescheduled once. Fetches a user waits for (subscribing, a refresh by
/// hand) never wait, but count as the host's last fetch.
///
/// Kept in memory: after a restart the first refresh of each host goes at once, and the rest
/// take turns again. Entries no longer of use are dropped as turns are taken, so the state
/// holds only hosts fetched within the last interval and turns not yet taken.
struct FeedHostTurns: Sendable {
    /// The shortest time between two fetches from one host; zero turns the pacing off.
    let interval: Duration
    /// The first instant each host may be fetched again (absent: now).
    private var nextFree: [String: Date] = [:]
    /// The turns reserved for feeds (by calendar id) that came too early.
    private var reserved: [String: Date] = [:]

    /// Turns for fetches at least `interval` apart per host.
    init(interval: Duration) {
        self.interval = interval
    }

    /// The turn of feed `calendarID` on `host` at `now`: `nil` when it may fetch now (taking the
    /// host's turn), else the instant of the turn reserved for it, when it is to come back.
    mutating func take(host: String, calendarID: String, at now: Date) -> Date? {
        guard interval > .zero else { return nil }
        let host = host.lowercased()
        forgetPast(now)
        if let turn = reserved[calendarID] {
            // Its job comes back at the turn stored to the millisecond: a fraction early is on time.
            guard turn.timeIntervalSince(now) >= 0.001 else {
                reserved[calendarID] = nil
                return nil
            }
            return turn
        }
        let free = nextFree[host] ?? now
        nextFree[host] = max(free, now).adding(interval)
        if free <= now { return nil }
        reserved[calendarID] = free
        return free
    }

    /// Records a fetch from `host` at `now` that did not wait for its turn.
    mutating func record(host: String, at now: Date) {
        guard interval > .zero else { return }
        let host = host.lowercased()
        nextFree[host] = max(nextFree[host] ?? now, now.adding(interval))
    }

    /// Drops hosts free again and turns left unused for a day (the feed was deleted meanwhile).
    private mutating func forgetPast(_ now: Date) {
        nextFree = nextFree.filter { $0.value > now }
        reserved = reserved.filter { $0.value > now.addingTimeInterval(-86_400) }
    }
}
