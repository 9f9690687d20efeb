import FoundationEssentials
import HearthDomain
import Support

/// GeoJSON (RFC 7946) of located habit events, the one place it is written: the history's map
/// (US 06.02, `habitHistoryGeoJSON` and `GET /habits/history.geojson`) uses it, and so should any
/// other map of events (the following feed's, US 06.03).
///
/// A `FeatureCollection` with one `Point` feature per located event, in the order given:
/// coordinates `[longitude, latitude]` (RFC 7946 §3.1.1), the feature's `id` the event's id, and
/// properties `eventId`, `habitId`, `habitTitle`, `occurredOn` (`YYYY-MM-DD`), `recordedAt`
/// (RFC 3339), `comment` (`""` for none) and `accuracyMeters` (`null` when not reported); on a
/// map of other people's events (the following feed's) also whose it is: `userId`, `username`,
/// `displayName` (never anything else of the account). Events without a place are left out.
public struct HabitGeoJSON: Sendable {
    /// The media type of a GeoJSON document (RFC 7946 §12).
    public static let mediaType = "application/geo+json"

    /// One located event and the title of its habit.
    public struct Feature: Sendable {
        /// The event.
        public var event: HabitEventRecord
        /// Its habit's title.
        public var habitTitle: String
        /// Whose it is, on a map of other people's events; `nil` on a map of one's own.
        public var owner: UserRecord?

        /// Creates a feature.
        public init(event: HabitEventRecord, habitTitle: String, owner: UserRecord? = nil) {
            self.event = event
            self.habitTitle = habitTitle
            self.owner = owner
        }
    }

    /// The document of `features`, as UTF-8 JSON text.
    public static func document(of features: [Feature]) throws -> String {
        let collection = Collection(features: features.compactMap { feature in
            guard let location = feature.event.location else { return nil }
            return Collection.Point(
                id: feature.event.id, geometry: .init(coordinates: [location.longitude, location.latitude]),
                properties: .init(
                    eventId: feature.event.id, habitId: feature.event.habitID, habitTitle: feature.habitTitle,
                    occurredOn: feature.event.occurredOn.description, recordedAt: WallClock.Instant(feature.event.recordedAt).iso8601,
                    comment: feature.event.comment, accuracyMeters: location.accuracyMeters,
                    owner: feature.owner.map { .init(userId: $0.id, username: $0.username, displayName: $0.displayName) }))
        })
        let encoder = JSONEncoder()
        // The same events give the same bytes.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(collection), as: UTF8.self)
    }

    /// The document's shape, encoded as is.
    private struct Collection: Encodable {
        struct Point: Encodable {
            struct Geometry: Encodable {
                var type = "Point"
                var coordinates: [Double]
            }

            struct Properties: Encodable {
                var eventId: String
                var habitId: String
                var habitTitle: String
                var occurredOn: String
                var recordedAt: String
                var comment: String
                var accuracyMeters: Double?
                /// Whose it is, on a map of other people's events.
                var owner: Owner?

                /// The public profile of an event's owner.
                struct Owner {
                    var userId: String
                    var username: String
                    var displayName: String
                }

                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: CodingKeys.self)
                    try container.encode(eventId, forKey: .eventId)
                    try container.encode(habitId, forKey: .habitId)
                    try container.encode(habitTitle, forKey: .habitTitle)
                    try container.encode(occurredOn, forKey: .occurredOn)
                    try container.encode(recordedAt, forKey: .recordedAt)
                    try container.encode(comment, forKey: .comment)
                    // `null` rather than absent: every feature has the same properties.
                    try container.encode(accuracyMeters, forKey: .accuracyMeters)
                    if let owner {
                        try container.encode(owner.userId, forKey: .userId)
                        try container.encode(owner.username, forKey: .username)
                        try container.encode(owner.displayName, forKey: .displayName)
                    }
                }

                enum CodingKeys: String, CodingKey {
                    case eventId, habitId, habitTitle, occurredOn, recordedAt, comment, accuracyMeters, userId, username, displayName
                }
            }

            var type = "Feature"
            var id: String
            var geometry: Geometry
            var properties: Properties
        }

        var type = "FeatureCollection"
        var features: [Point]
    }
}
