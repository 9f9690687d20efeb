extension StringProtocol {
    /// The text without leading and trailing characters from `set` (Foundation's
    /// `trimmingCharacters(in:)` without Foundation).
    public func trimmingCharacters(in set: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice.removeFirst() }
        while let last = slice.last, set.contains(last) { slice.removeLast() }
        return String(slice)
    }

    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace).
    public func trimmingSpaces() -> String {
        trimmingCharacters(in: " \t")
    }

    /// The text without leading and trailing whitespace of any kind, newlines included.
    public func trimmingWhitespace() -> String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }
}
