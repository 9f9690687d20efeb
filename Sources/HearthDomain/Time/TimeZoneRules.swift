import FoundationEssentials

/// A time zone's offsets from UTC through time, as the system's time zone database (TZif
/// files, RFC 8536) records them, with the two conversions the recurrence engine needs.
///
/// Hearth's release binary links FoundationEssentials without ICU, where `TimeZone` knows no
/// named zones; and a `Calendar` call per candidate date would cost microseconds. These rules
/// come from the same files Python's `zoneinfo` reads and answer exactly as it does, so a
/// local time that does not exist or exists twice reads as RFC 5545 §3.3.5 and zoneinfo's
/// `fold=0` read it: with the offset in force before the transition. Load a zone with
/// ``named(_:)`` (cached) or ``init(identifier:tzif:)``.
public struct TimeZoneRules: Sendable, Hashable, CustomStringConvertible {
    /// The transitions and offsets, shared by every copy.
    final class Storage: Sendable {
        let identifier: String
        /// Transition instants, seconds since 1970-01-01 UTC, ascending.
        let transitions: [Int]
        /// The offset (seconds east of UTC) in force from each transition on.
        let offsets: [Int]
        /// Each transition as a local time: where a wall-clock reading stops taking the earlier
        /// offset (zoneinfo's `_trans_local[0]`: the transition plus the larger of the offsets
        /// either side, so a reading inside a gap or an overlap still takes the earlier one).
        let localLimits: [Int]
        /// The offset before the first transition (the file's first standard-time type).
        let offsetBefore: Int
        /// What holds after the last transition.
        let tail: Tail

        init(identifier: String, transitions: [Int], offsets: [Int], localLimits: [Int], offsetBefore: Int, tail: Tail) {
            self.identifier = identifier
            self.transitions = transitions
            self.offsets = offsets
            self.localLimits = localLimits
            self.offsetBefore = offsetBefore
            self.tail = tail
        }
    }

    /// The offsets after the last transition of the file.
    enum Tail: Sendable, Hashable {
        case fixed(Int)
        case rule(PosixTimeZoneRule)
    }

    let storage: Storage

    /// The zone's name, such as `Europe/Berlin`.
    public var identifier: String { storage.identifier }

    public var description: String { identifier }

    /// UTC, which needs no database.
    public static let utc = TimeZoneRules(
        storage: Storage(identifier: "UTC", transitions: [], offsets: [], localLimits: [], offsetBefore: 0, tail: .fixed(0)))

    init(storage: Storage) {
        self.storage = storage
    }

    /// The offset from UTC, in seconds, in force at `date`.
    public func secondsFromUTC(at date: Date) -> Int {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e15 else { return storage.offsetBefore }
        return offset(atInstant: Int(seconds.rounded(.down)))
    }

    /// The offset in force at `instant` (seconds since 1970-01-01 UTC).
    func offset(atInstant instant: Int) -> Int {
        let transitions = storage.transitions
        guard let last = transitions.last else { return tailOffset(atInstant: instant) }
        if instant < transitions[0] { return storage.offsetBefore }
        if instant > last { return tailOffset(atInstant: instant) }
        return storage.offsets[Self.lastIndex(in: transitions, notAbove: instant)]
    }

    /// The offset that reads local time `local` (seconds since 1970-01-01 on the wall clock):
    /// for a reading in a gap or an overlap, the offset before the transition. `hint` is the
    /// transition index the previous call found: readings that move forward through time
    /// then cost a comparison or two instead of a binary search.
    func offset(atLocal local: Int, hint: inout Int) -> Int {
        let limits = storage.localLimits
        let count = limits.count
        if count > 0 && local < limits[0] { return storage.offsetBefore }
        if count == 0 || local > limits[count - 1] {
            switch storage.tail {
            case .fixed(let offset): return offset
            case .rule(let rule): return rule.offset(atLocal: local)
            }
        }
        if hint < 0 || hint >= count || limits[hint] > local || (hint + 1 < count && local >= limits[hint + 1]) {
            hint = Self.lastIndex(in: limits, notAbove: local)
        }
        return storage.offsets[hint]
    }

    /// The instant local time `local` names (see ``offset(atLocal:hint:)``).
    func instant(forLocal local: Int, hint: inout Int) -> Int {
        local - offset(atLocal: local, hint: &hint)
    }

    private func tailOffset(atInstant instant: Int) -> Int {
        switch storage.tail {
        case .fixed(let offset): offset
        case .rule(let rule): rule.offset(atInstant: instant)
        }
    }

    /// Python's `bisect_right(values, value) - 1`: the last index whose value is at most `value`
    /// (the caller has made sure `values[0] <= value`).
    private static func lastIndex(in values: [Int], notAbove value: Int) -> Int {
        var low = 0
        var high = values.count
        while low < high {
            let middle = (low + high) / 2
            if value < values[middle] { high = middle } else { low = middle + 1 }
        }
        return low - 1
    }

    public static func == (left: TimeZoneRules, right: TimeZoneRules) -> Bool {
        let a = left.storage
        let b = right.storage
        return a === b
            || (a.identifier == b.identifier && a.transitions == b.transitions && a.offsets == b.offsets
                && a.offsetBefore == b.offsetBefore && a.tail == b.tail)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
    }
}
