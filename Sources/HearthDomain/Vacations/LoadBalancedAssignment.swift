/// Who takes each of a set of open chore instances from an absent member (a vacation's
/// `REDISTRIBUTE`, FR-21; a departure's redistribution, FR-14, FR-15): **round-robin by current
/// load**, deterministic.
///
/// The instances are taken in the order given (the caller orders them by due time, then id). Each
/// goes to the candidate with the fewest open instances at that moment (`loads`, counted by the
/// caller, plus what this assignment gave them so far); a tie goes to the candidate listed first
/// (the caller lists them by member id). An instance without candidates gets none (it is paused).
/// The same inputs always give the same result, so a retry or a second server decides alike.
public struct LoadBalancedAssignment: Sendable {
    /// The open instances each candidate holds, updated as instances are handed out.
    public private(set) var loads: [String: Int]

    /// An assignment starting from each member's current open load (absent: none).
    public init(loads: [String: Int]) {
        self.loads = loads
    }

    /// Hands one instance to the least loaded of `candidates` (ties: the first listed) and counts
    /// it; `nil` when there is no candidate.
    public mutating func assign(among candidates: [String]) -> String? {
        guard var chosen = candidates.first else { return nil }
        for candidate in candidates.dropFirst() where loads[candidate, default: 0] < loads[chosen, default: 0] {
            chosen = candidate
        }
        loads[chosen, default: 0] += 1
        return chosen
    }
}
