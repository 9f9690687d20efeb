import GraphQL
import HearthServices

/// An `Invitation` of `schema.graphql`: a pending invitation as an admin of its household sees
/// it (the viewer whose membership `access` proves).
final class InvitationValue: Sendable, FieldResolvable, TypeNameResolvable {
    let record: InvitationRecord
    let access: HouseholdAccess

    init(record: InvitationRecord, access: HouseholdAccess) {
        self.record = record
        self.access = access
    }

    var graphQLTypeName: String { "Invitation" }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": record.id
        case "email": record.email
        case "member": MemberValue(record: record.member, access: access)
        case "role": GraphQLEnum.name(of: record.member.role)
        case "kind": GraphQLEnum.name(of: record.member.kind)
        case "invitedBy": record.invitedBy.map { MemberValue(record: $0, access: access) }
        case "createdAt": record.createdAt
        case "sentAt": record.sentAt
        case "expiresAt": record.expiresAt
        case "isExpired": record.isExpired
        default: nil
        }
    }
}

/// A `ReceivedInvitation` of `schema.graphql`: an invitation as its invitee sees it.
final class ReceivedInvitationValue: Sendable, FieldResolvable, TypeNameResolvable {
    let record: ReceivedInvitation

    init(record: ReceivedInvitation) {
        self.record = record
    }

    var graphQLTypeName: String { "ReceivedInvitation" }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": record.id
        case "householdName": record.householdName
        case "householdEmoji": record.householdEmoji
        case "invitedByName": record.invitedByName
        case "email": record.email
        case "role": GraphQLEnum.name(of: record.role)
        case "kind": GraphQLEnum.name(of: record.kind)
        case "expiresAt": record.expiresAt
        case "isExpired": record.isExpired
        default: nil
        }
    }
}
