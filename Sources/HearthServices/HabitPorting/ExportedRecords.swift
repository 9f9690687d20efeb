import FoundationEssentials
import HearthDomain

/// A habit as an export writes it (columns of `habits`).
struct ExportedHabit: Decodable {
    let id: String
    let title: String
    let reason: String
    let startsOn: String
    let plan: Int
    let visibility: String
    let createdAt: String
    let updatedAt: String

    static let select = """
        SELECT id, title, reason, starts_on AS startsOn, plan, visibility, created_at AS createdAt, updated_at AS updatedAt
        FROM habits WHERE user_id = {owner} ORDER BY created_at, id
        """

    /// ISO 8601 weekday names, Monday first, as plans are exported (bit 0 is Monday).
    static let weekdays = ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"]

    var planDays: [String] { Self.weekdays.indices.filter { plan & 1 << $0 != 0 }.map { Self.weekdays[$0] } }

    static let csvHeader = ["id", "title", "reason", "starts_on", "plan", "visibility", "created_at", "updated_at"]

    var csvFields: [String] {
        [id, title, reason, startsOn, planDays.joined(separator: " "), visibility.uppercased(), createdAt, updatedAt]
    }

    var json: String {
        JSONText.object([
            "id": JSONText.string(id), "title": JSONText.string(title), "reason": JSONText.string(reason),
            "startsOn": JSONText.string(startsOn), "plan": "[" + planDays.map(JSONText.string).joined(separator: ",") + "]",
            "visibility": JSONText.string(visibility.uppercased()), "createdAt": JSONText.string(createdAt),
            "updatedAt": JSONText.string(updatedAt),
        ])
    }
}

/// A habit event as an export writes it, with its habit's title and its photo's metadata.
struct ExportedEvent: Decodable {
    let id: String
    let habitId: String
    let habitTitle: String
    let occurredOn: String
    let recordedAt: String
    let comment: String
    let photoId: String?
    let photoMediaType: String?
    let photoWidth: Int?
    let photoHeight: Int?
    let photoSha256: String?
    let latitude: Double?
    let longitude: Double?
    let accuracyMeters: Double?
    let createdAt: String
    let updatedAt: String

    static let select = """
        SELECT e.id, e.habit_id AS habitId, h.title AS habitTitle, e.occurred_on AS occurredOn, e.recorded_at AS recordedAt,
            e.comment, e.photo_id AS photoId, p.media_type AS photoMediaType, p.width AS photoWidth, p.height AS photoHeight,
            p.sha256 AS photoSha256, e.latitude, e.longitude, e.accuracy_meters AS accuracyMeters,
            e.created_at AS createdAt, e.updated_at AS updatedAt
        FROM habit_events e JOIN habits h ON h.id = e.habit_id LEFT JOIN habit_photos p ON p.id = e.photo_id
        WHERE e.user_id = {owner} ORDER BY e.occurred_on, e.recorded_at, e.id
        """

    /// The photo's path inside the export's zip archive.
    var photoFile: String? {
        guard let photoId, let photoMediaType else { return nil }
        return ExportedPhoto.path(id: photoId, mediaType: photoMediaType)
    }

    static let csvHeader = [
        "id", "habit_id", "habit_title", "occurred_on", "recorded_at", "comment", "photo_file", "latitude", "longitude",
        "accuracy_meters", "created_at", "updated_at",
    ]

    var csvFields: [String] {
        [
            id, habitId, habitTitle, occurredOn, recordedAt, comment, photoFile ?? "", latitude.map { "\($0)" } ?? "",
            longitude.map { "\($0)" } ?? "", accuracyMeters.map { "\($0)" } ?? "", createdAt, updatedAt,
        ]
    }

    var json: String {
        let photo = photoId.map { id in
            JSONText.object([
                "id": JSONText.string(id), "mediaType": JSONText.optionalString(photoMediaType),
                "width": photoWidth.map(String.init) ?? "null", "height": photoHeight.map(String.init) ?? "null",
                "sha256": JSONText.optionalString(photoSha256), "file": JSONText.optionalString(photoFile),
            ])
        }
        let location = latitude.map { latitude in
            JSONText.object([
                "latitude": JSONText.number(latitude), "longitude": JSONText.number(longitude),
                "accuracyMeters": JSONText.number(accuracyMeters),
            ])
        }
        return JSONText.object([
            "id": JSONText.string(id), "habitId": JSONText.string(habitId), "occurredOn": JSONText.string(occurredOn),
            "recordedAt": JSONText.string(recordedAt), "comment": JSONText.string(comment), "photo": photo ?? "null",
            "location": location ?? "null", "createdAt": JSONText.string(createdAt), "updatedAt": JSONText.string(updatedAt),
        ])
    }
}

/// A follow of or by the user, as an export writes it: the other account by username only.
struct ExportedFollow: Decodable {
    let id: String
    let direction: String
    let username: String
    let status: String
    let requestedAt: String
    let acceptedAt: String?

    static let select = """
        SELECT f.id AS id, 'FOLLOWING' AS direction, u.username, f.status, f.requested_at AS requestedAt, f.accepted_at AS acceptedAt
        FROM follows f JOIN users u ON u.id = f.followed_id WHERE f.follower_id = {owner}
        UNION ALL
        SELECT f.id AS id, 'FOLLOWER' AS direction, u.username, f.status, f.requested_at AS requestedAt, f.accepted_at AS acceptedAt
        FROM follows f JOIN users u ON u.id = f.follower_id WHERE f.followed_id = {owner}
        ORDER BY requestedAt, id
        """

    static let csvHeader = ["id", "direction", "username", "status", "requested_at", "accepted_at"]

    var csvFields: [String] { [id, direction, username, status.uppercased(), requestedAt, acceptedAt ?? ""] }

    var json: String {
        JSONText.object([
            "id": JSONText.string(id), "direction": JSONText.string(direction), "username": JSONText.string(username),
            "status": JSONText.string(status.uppercased()), "requestedAt": JSONText.string(requestedAt),
            "acceptedAt": JSONText.optionalString(acceptedAt),
        ])
    }
}

/// A photo of one of the user's events, bytes included, for the zip archive.
struct ExportedPhoto: Decodable {
    let id: String
    let mediaType: String
    let bytes: [UInt8]

    static let select = """
        SELECT p.id, p.media_type AS mediaType, p.bytes FROM habit_photos p
        WHERE p.user_id = {owner} AND EXISTS (SELECT 1 FROM habit_events e WHERE e.photo_id = p.id AND e.user_id = {owner})
        ORDER BY p.id
        """

    /// `photos/<id>.<extension of its media type>`.
    static func path(id: String, mediaType: String) -> String {
        let fileExtension = switch mediaType {
        case "image/png": "png"
        case "image/webp": "webp"
        default: "jpg"
        }
        return "photos/\(id).\(fileExtension)"
    }
}
