/// Limits of the "within 5 km" query (`habitEventsNear`). Read once at start from flags and
/// environment (HearthApp's `GeoSettings`) and passed down.
public struct GeoConfiguration: Sendable {
    /// The largest radius a query may ask for, in metres; one more is `BAD_USER_INPUT`
    /// (`OUT_OF_RANGE` on `radiusMeters`). The grid's cover is proved exact up to 50,000 m.
    public var maximumRadius: Double = 50_000
    /// The most geohash ranges one query reads: the cover takes the finest cells that need no
    /// more (``GeohashCover``), at least ``GeohashCover/minimumRangeLimit``.
    ///
    /// 8 by measurement (tools/bench/geo/run.py, docs/benchmarks.md "Within 5 km"): the statement
    /// seeks once per range and owner in scope, so a 5 km circle is cheapest at precision 5 (2–8
    /// ranges, 1.6–3.3 times its area read) rather than precision 6 (13–64 ranges, 1.1–1.3 times).
    /// On one million events, a viewer following 100 users, 400 queries: limit 8 p50 0.54 ms, p99
    /// 8.8 ms, 609 µs CPU per query; 16: 0.67 ms, 9.4 ms, 738 µs; 24 (the first choice): 1.61 ms,
    /// 10.6 ms, 1,410 µs; 64: 1.90 ms, 11.0 ms, 1,799 µs.
    public var maximumCoverRanges = 8

    /// The largest radius the exactness proof covers, the most `maximumRadius` may be.
    public static let largestProvedRadius = 50_000

    /// The defaults.
    public init() {}
}
