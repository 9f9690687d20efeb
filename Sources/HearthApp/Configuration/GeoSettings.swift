import HearthDomain
import HearthServices

/// The options of the "within 5 km" query (`habitEventsNear`): its largest radius and the grid
/// cover's range limit.
enum GeoSettings {
    /// The options that set ``GeoConfiguration``.
    static let options: [OptionSpec] = [
        .value("--max-nearby-radius", "METRES", environment: "HEARTH_MAX_NEARBY_RADIUS", default: "50000",
               help: "The largest radiusMeters habitEventsNear and habitHistory's filter.near accept (1 to 50000)."),
        .value("--max-nearby-cover-ranges", "N", environment: "HEARTH_MAX_NEARBY_COVER_RANGES", default: "8",
               help: "The most geohash index ranges one habitEventsNear reads (8 to 256): more reads less area outside the circle but seeks more."),
    ]

    /// The configuration the options give.
    /// - Throws: `UsageError` for a value out of range.
    static func configuration(_ options: ParsedOptions) throws -> GeoConfiguration {
        var configuration = GeoConfiguration()
        if let radius = try options.integer("--max-nearby-radius", in: 1...GeoConfiguration.largestProvedRadius) {
            configuration.maximumRadius = Double(radius)
        }
        configuration.maximumCoverRanges =
            try options.integer("--max-nearby-cover-ranges", in: GeohashCover.minimumRangeLimit...256) ?? configuration.maximumCoverRanges
        return configuration
    }
}
