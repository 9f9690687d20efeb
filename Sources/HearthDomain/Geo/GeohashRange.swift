/// A half-open range `[lowerBound, upperBound)` of stored geohashes, in byte order: the stored
/// hashes of one run of cells that are consecutive in hash order. `upperBound` is `nil` when the
/// run reaches the end of the grid (no hash is greater). The SQL reading it is
/// `geohash >= lowerBound AND geohash < upperBound`.
public struct GeohashRange: Sendable, Hashable {
    /// The first cell's hash: every stored hash in its cell (it is their prefix) is at least this.
    public let lowerBound: String
    /// The hash of the cell after the last one at the last one's length, or `nil` at the end.
    public let upperBound: String?

    /// The range of stored hashes from `lowerBound`, before `upperBound`.
    public init(lowerBound: String, upperBound: String?) {
        self.lowerBound = lowerBound
        self.upperBound = upperBound
    }

    /// The upper bound to compare stored hashes with: ``upperBound``, or at the end of the grid a
    /// text greater than every stored hash in any collation (one `z` more than they have), so the
    /// SQL needs no second form for the last range.
    public var storedUpperBound: String {
        upperBound ?? String(repeating: "z", count: Geohash.storedPrecision + 1)
    }

    /// Whether a stored hash lies in the range (byte order, as SQL compares text).
    public func contains(_ hash: String) -> Bool {
        guard !hash.utf8.lexicographicallyPrecedes(lowerBound.utf8) else { return false }
        guard let upperBound else { return true }
        return hash.utf8.lexicographicallyPrecedes(upperBound.utf8)
    }
}
