/// How long before a chore's due time a reminder fires (FR-49), in whole minutes; zero is the
/// reminder "at due time". Written as an ISO 8601 duration of weeks, days, hours and minutes
/// (`PT30M`, `P1D`, `P1DT12H`, `P2W`, `PT0S`); months and years (whose length varies) and
/// fractions are refused.
public struct ReminderOffset: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds before the due time, a multiple of 60.
    public let seconds: Int

    /// An offset of `seconds` before the due time (rounded down to a whole minute).
    public init(seconds: Int) {
        self.seconds = seconds / 60 * 60
    }

    /// Whether it is the reminder at due time.
    public var isAtDueTime: Bool { seconds == 0 }

    /// The reminders of a chore created without any given: the one at due time. FR-49 makes the
    /// offsets before the due time a per-chore choice, while FR-50 notifies the eligible members
    /// "when a configured reminder threshold is reached or when the chore becomes due": the due
    /// moment needs no configuring, so it is on unless the chore is created with an empty list
    /// (or edited to one), which turns every reminder off.
    public static let newChoreDefault = [ReminderOffset(seconds: 0)]

    /// Parses an ISO 8601 duration (`P[nW][nD][T[nH][nM][nS]]`); seconds must make whole minutes.
    /// - Returns: `nil` for any other text.
    public init?(iso8601 text: String) {
        var rest = Substring(text)
        guard rest.first == "P", rest.count > 1 else { return nil }
        rest = rest.dropFirst()
        var total = 0
        var inTime = false
        var sawComponent = false
        var digits = ""
        for character in rest {
            if character == "T" {
                guard !inTime, digits.isEmpty else { return nil }
                inTime = true
                sawComponent = false
                continue
            }
            if character.isASCII, character.isNumber {
                digits.append(character)
                guard digits.count <= 6 else { return nil }
                continue
            }
            guard let value = Int(digits) else { return nil }
            digits = ""
            switch (character, inTime) {
            case ("W", false): total += value * 604_800
            case ("D", false): total += value * 86_400
            case ("H", true): total += value * 3_600
            case ("M", true): total += value * 60
            case ("S", true): total += value
            default: return nil
            }
            sawComponent = true
        }
        // A component after P, and after T when there is one.
        guard digits.isEmpty, sawComponent, total % 60 == 0 else { return nil }
        self.seconds = total
    }

    /// The canonical ISO 8601 form: days, hours and minutes (`P1DT2H30M`), `PT0S` at due time.
    public var iso8601: String {
        if seconds == 0 { return "PT0S" }
        let days = seconds / 86_400, hours = seconds % 86_400 / 3_600, minutes = seconds % 3_600 / 60
        var text = "P"
        if days > 0 { text += "\(days)D" }
        if hours > 0 || minutes > 0 { text += "T" }
        if hours > 0 { text += "\(hours)H" }
        if minutes > 0 { text += "\(minutes)M" }
        return text
    }

    public var description: String { iso8601 }

    public static func < (lhs: ReminderOffset, rhs: ReminderOffset) -> Bool { lhs.seconds < rhs.seconds }

    /// The stored form of `offsets` (`chores.reminder_offsets`): seconds, ascending, comma-separated.
    public static func stored(_ offsets: [ReminderOffset]) -> String {
        offsets.sorted().map { String($0.seconds) }.joined(separator: ",")
    }

    /// The offsets of a stored list (``stored(_:)``); unreadable entries are left out.
    public static func offsets(stored text: String) -> [ReminderOffset] {
        text.split(separator: ",").compactMap { Int($0).map(ReminderOffset.init(seconds:)) }
    }
}

extension ReminderOffset {
    /// The offset in words, largest units first: "30 minutes", "1 day", "1 day 2 hours".
    public var spoken: String {
        let parts = [(seconds / 86_400, "day"), (seconds % 86_400 / 3_600, "hour"), (seconds % 3_600 / 60, "minute")]
        let words = parts.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" + ($0.0 == 1 ? "" : "s") }
        return words.isEmpty ? "0 minutes" : words.joined(separator: " ")
    }
}
