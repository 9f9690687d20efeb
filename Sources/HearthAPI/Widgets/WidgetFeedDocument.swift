import GraphQL
import HearthServices
import Support

/// A ``WidgetFeed`` as its one JSON document: the body of `GET /widget/feed`, and the source the
/// GraphQL `WidgetFeed` reads its fields from, so both say the same thing. Its `ETag` is the
/// SHA-256 of the document's bytes (quoted): the feed is deterministic (action links carry no
/// nonce), so the tag changes exactly when the content does.
///
/// ```json
/// { "day": "2027-03-01", "timeZone": "Europe/Berlin", "household": { "id": "hh_…", "name": "Flat" },
///   "entries": [ { "instanceId": "chi_…", "choreId": "chr_…", "title": "Dishes", "dueAt": "2027-03-01T17:00:00.000Z",
///                  "status": "PENDING", "householdId": "hh_…", "householdName": "Flat", "hasSteps": false,
///                  "completeUrl": "https://…/widget/actions/v1.complete.…", "appUrl": "hearth://chore/chr_…",
///                  "webUrl": "https://…/chore/chr_…" } ],
///   "hasMore": false }
/// ```
struct WidgetFeedDocument: Sendable, FieldResolvable {
    /// The document.
    let json: JSON
    /// Its bytes, as served.
    let body: [UInt8]
    /// Its strong entity tag, quoted.
    let etag: String

    /// The document of `feed`.
    init(_ feed: WidgetFeed) {
        json = [
            "day": .string(feed.day.description), "timeZone": .string(feed.timeZone),
            "household": feed.household.map { household -> JSON in ["id": .string(household.id), "name": .string(household.name)] } ?? .null,
            "entries": .array(feed.entries.map(Self.json(of:))), "hasMore": .bool(feed.hasMore),
        ]
        body = json.serialized()
        etag = "\"" + SHA256.hexDigest(of: body) + "\""
    }

    /// An entry's object.
    private static func json(of entry: WidgetFeedEntry) -> JSON {
        [
            "instanceId": .string(entry.instanceID), "choreId": .string(entry.choreID), "title": .string(entry.title),
            "dueAt": .string(WallClock.Instant(entry.dueAt).iso8601), "status": .string(GraphQLEnum.name(of: entry.status)),
            "householdId": entry.householdID.map(JSON.string) ?? .null, "householdName": entry.householdName.map(JSON.string) ?? .null,
            "hasSteps": .bool(entry.hasSteps), "completeUrl": entry.completeURL.map(JSON.string) ?? .null,
            "appUrl": .string(entry.appURL), "webUrl": .string(entry.webURL),
        ]
    }

    func fieldValue(named name: String) -> Any? {
        name == "etag" ? etag : JSONFields.value(json[name])
    }
}

/// A JSON object whose members are a GraphQL object's fields.
struct JSONFields: Sendable, FieldResolvable {
    /// The object.
    let object: JSON

    func fieldValue(named name: String) -> Any? { Self.value(object[name]) }

    /// `json` as the executor takes a field's value: scalars as Swift values, objects as
    /// ``JSONFields``, arrays element by element (the feed's arrays hold no null); `nil` for null
    /// or absent.
    static func value(_ json: JSON?) -> Any? {
        switch json {
        case nil, .null?: nil
        case .bool(let value)?: value
        case .int(let value)?: value
        case .double(let value)?: value
        case .string(let value)?: value
        case .array(let elements)?: elements.compactMap { value($0) }
        case .object?: JSONFields(object: json!)
        }
    }
}
