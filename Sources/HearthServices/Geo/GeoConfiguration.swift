/// Limits of the "within 5 km" query (`habitEventsNear`). Read once at start from flags and
/// environment (HearthApp's `GeoSettings`) and passed down.
public struct GeoConfiguration: Sendable {
    /// The largest radius a query may ask for, in metres; one more is `BAD_USER_INPUT`
    /// (`OUT_OF_RANGE` on `radiusMeters`). The grid's cover is proved exact up to 50,000 m.
    public var maximumRadius: Double = 50_000
    /// The most geohash ranges (index seeks) one query reads: the cover takes the finest cells
    /// that need no more (``GeohashCover``), at least ``GeohashCover/minimumRangeLimit``.
    /// Measured with tools/bench/geo (docs/benchmarks.md).
    public var maximumCoverRanges = 24

    /// The largest radius the exactness proof covers, the most `maximumRadius` may be.
    public static let largestProvedRadius = 50_000

    /// The defaults.
    public init() {}
}
