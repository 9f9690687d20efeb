/// A mark of a database's commits: two marks are equal only if nothing committed to the
/// database between the two calls that took them, from this process or any other
/// (``DatabaseReader/changeMark()``).
///
/// It lets a cache of values read from the store skip the read that would tell whether they
/// changed: take a mark, read, keep the value with the mark; later, take a mark again, and while
/// it equals the kept one, nothing the value was read from can have changed. When it differs,
/// something committed somewhere: read whatever says whether the value changed, and keep the
/// new mark with the value if it did not.
///
/// ```swift
/// let mark = try await reader.changeMark()
/// if let mark, mark == kept.mark { return kept.value }
/// let value = try await reader.read { db in … }
/// kept = (mark, value)
/// ```
public struct ChangeMark: Sendable, Hashable {
    @usableFromInline let value: UInt64

    init(_ value: UInt64) {
        self.value = value
    }
}
