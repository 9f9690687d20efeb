import FoundationEssentials
import GraphQL
import HearthServices

/// A `ChoreShare` of `schema.graphql` as `viewer` sees it: what only the owner sees (the address,
/// the tag itself) is null for recipients.
struct ChoreShareValue: Sendable, FieldResolvable, TypeNameResolvable {
    let record: ChoreShareRecord
    let viewer: Viewer

    var graphQLTypeName: String { "ChoreShare" }

    /// Whether the viewer made the share.
    var isOwner: Bool { record.isOwned(by: viewer) }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": record.id
        case "ownerName": record.ownerName
        case "viewerIsOwner": isOwner
        case "tagName": record.tagName
        case "recipientEmail": isOwner ? record.recipientEmail : nil
        case "recipientName": record.recipientName
        case "status": GraphQLEnum.name(of: record.status)
        case "createdAt": record.createdAt
        case "answeredAt": record.answeredAt
        default: nil
        }
    }
}
