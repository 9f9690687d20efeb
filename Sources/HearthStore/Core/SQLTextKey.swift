import Support

/// SQL text as a dictionary key hashed by its length and its first and last bytes, not all of
/// it: statement texts run to a thousand bytes and every statement is looked up (in a
/// connection's statement cache, in a scope's rewritten statements), so hashing the whole text
/// cost more than some statements take to run. The ends are hashed with ``KeyedHash`` (about one
/// instruction a byte, where `Hasher` takes about nine), and `Hasher` mixes only that word.
/// Equality still compares the whole text, byte for byte, so texts alike at both ends only share
/// a bucket.
public struct SQLTextKey: Hashable, Sendable {
    /// The text.
    public let sql: String

    /// The key of `sql`.
    public init(_ sql: String) {
        self.sql = sql
    }

    /// Equal when the bytes are, as the hash reads them (`==` on `String` would also match
    /// canonically equivalent texts of other bytes, whose hashes differ).
    public static func == (lhs: SQLTextKey, rhs: SQLTextKey) -> Bool {
        lhs.sql.hasSameUTF8(as: rhs.sql)
    }

    public func hash(into hasher: inout Hasher) {
        var text = sql
        let ends = text.withUTF8 { bytes in
            let length = UInt64(bytes.count)
            guard bytes.count > 96 else { return KeyedHash.hash(UnsafeRawBufferPointer(bytes), seed: length) }
            let start = KeyedHash.hash(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.prefix(32))), seed: length)
            return KeyedHash.hash(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.suffix(64))), seed: start)
        }
        hasher.combine(ends)
    }
}
