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
    /// On one million events (100 per user), a viewer following 100 users, 400 queries, in process
    /// (p50, p99, CPU per query): limit 8 0.66 ms, 13.2 ms, 770 µs; 16: 0.83 ms, 17.1 ms, 934 µs;
    /// 24 (the first choice): 2.38 ms, 23.1 ms, 2,045 µs; 64: 4.54 ms, 23.3 ms, 2,466 µs; the
    /// R*Tree 11.2 ms, 89.4 ms, 7,088 µs. With 1,000 events per user the limits converge (3.3–3.5 ms
    /// CPU per query each; 64 best at p99 by a fifth, 8 best at p50).
    public var maximumCoverRanges = 8

    /// The largest radius the exactness proof covers, the most `maximumRadius` may be.
    public static let largestProvedRadius = 50_000

    /// The defaults.
    public init() {}
}
