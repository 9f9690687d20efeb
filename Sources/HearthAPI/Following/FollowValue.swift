import GraphQL
import HearthServices

/// A `Follow` of `schema.graphql`: its two users as `User`s seen by someone else, so only their
/// public profile shows (username, display name, avatar; never the email address), even to one of
/// the two (the viewer's own profile is `me`).
struct FollowValue: Sendable, FieldResolvable, TypeNameResolvable {
    let record: FollowRecord

    var graphQLTypeName: String { "Follow" }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": record.id
        case "follower": UserValue(record: record.follower, isViewer: false)
        case "followed": UserValue(record: record.followed, isViewer: false)
        case "status": GraphQLEnum.name(of: record.status)
        case "requestedAt": record.requestedAt
        case "acceptedAt": record.acceptedAt
        default: nil
        }
    }
}
