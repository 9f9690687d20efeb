import FoundationEssentials
import Support

/// Formatting and parsing shared by the commands that print tables and records (`mail`, `jobs`).
enum CommandOutput {
    /// `date` as RFC 3339 UTC with milliseconds.
    static func timestamp(_ date: Date) -> String {
        WallClock.Instant(date).iso8601
    }

    /// `text` followed by spaces up to `width` columns (at least one).
    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }

    /// The header of a listing whose rows ``row(_:_:_:_:_:)`` writes.
    static func header(state: String, time: String, rest: String) -> String {
        pad("ID", 8) + pad(state, 9) + pad("TRIES", 7) + pad(time, 26) + rest + "\n"
    }

    /// One line of a listing: an id, a state, attempts and a time in fixed columns, then `rest`.
    static func row(_ id: Int64, _ state: String, _ attempts: Int, _ time: Date, _ rest: String) -> String {
        pad(String(id), 8) + pad(state, 9) + pad(String(attempts), 7) + pad(timestamp(time), 26) + rest + "\n"
    }
}

extension ParsedOptions {
    /// The positional argument at `index` as the numeric id of a `thing` (`hearth mail show ID`).
    /// - Throws: `UsageError` when it is not a number.
    func id(at index: Int, of thing: String) throws -> Int64 {
        guard let id = Int64(positional[index]) else {
            throw UsageError(message: "expected \(thing) id (a number), got '\(positional[index])'")
        }
        return id
    }
}
