import FoundationEssentials
import Support

/// Formatting shared by the commands that print tables and records (`mail`, `jobs`).
enum CommandOutput {
    /// `date` as RFC 3339 UTC with milliseconds.
    static func timestamp(_ date: Date) -> String {
        WallClock.Instant(date).iso8601
    }

    /// `text` followed by spaces up to `width` columns (at least one).
    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }
}
