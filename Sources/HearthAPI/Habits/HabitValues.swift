import GraphQL
import HearthDomain
import HearthServices

/// A `Habit` of `schema.graphql`, with the batch its figures load through (shared by the habits of one list).
struct HabitValue: Sendable, FieldResolvable, TypeNameResolvable {
    let record: HabitRecord
    let batch: HabitBatch

    /// A habit; one not in a list gets a batch of its own.
    init(record: HabitRecord, batch: HabitBatch = HabitBatch()) {
        self.record = record
        self.batch = batch
    }

    var graphQLTypeName: String { "Habit" }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": record.id
        case "title": record.title
        case "reason": record.reason.isEmpty ? nil : record.reason
        case "startsOn": record.startsOn
        case "plan": record.plan.weekdays.map { GraphQLEnum.name(of: $0) }
        case "visibility": GraphQLEnum.name(of: record.visibility)
        case "createdAt": record.createdAt
        case "updatedAt": record.updatedAt
        default: nil
        }
    }
}

/// A `HabitEvent` of `schema.graphql`, with its habit when the list it is in read it already.
struct HabitEventValue: Sendable, FieldResolvable, TypeNameResolvable {
    let record: HabitEventRecord
    let habit: HabitRecord?
    /// Where its photo is served.
    let photoURL: String?

    init(record: HabitEventRecord, habit: HabitRecord? = nil, habits: HabitService) {
        self.record = record
        self.habit = habit
        photoURL = record.photo.map { habits.photoURL(id: $0.id) }
    }

    var graphQLTypeName: String { "HabitEvent" }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": record.id
        case "occurredOn": record.occurredOn
        case "recordedAt": record.recordedAt
        case "updatedAt": record.updatedAt
        case "comment": record.comment.isEmpty ? nil : record.comment
        case "photo":
            record.photo.map { photo -> [String: any Sendable] in
                ["url": photoURL ?? "", "mediaType": photo.mediaType, "width": photo.width, "height": photo.height, "byteCount": photo.byteCount]
            }
        case "location":
            record.location.map { location -> [String: any Sendable] in
                var fields: [String: any Sendable] = ["latitude": location.latitude, "longitude": location.longitude]
                if let accuracy = location.accuracyMeters { fields["accuracyMeters"] = accuracy }
                return fields
            }
        default: nil
        }
    }
}
