import FoundationEssentials
import GraphQL
import HearthServices
import Support

/// A `User` of `schema.graphql`. The fields marked "yourself only" are filled only when the
/// viewer is this user.
///
/// A class: the executor holds parents as `Any`, where a struct this large (a record of
/// six strings and three dates) would be boxed on the heap and every copy would retain each
/// string; a reference is stored inline and copied with one retain.
final class UserValue: Sendable, FieldResolvable, TypeNameResolvable {
    let record: UserRecord
    let isViewer: Bool

    init(record: UserRecord, isViewer: Bool) {
        self.record = record
        self.isViewer = isViewer
    }

    var graphQLTypeName: String { "User" }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": record.id
        case "username": record.username
        case "displayName": record.displayName
        case "email": isViewer ? record.email : nil
        case "isEmailConfirmed": isViewer ? record.isEmailConfirmed : nil
        case "createdAt": record.createdAt
        case "hasAnalyticsConsent": isViewer ? record.analyticsConsentedAt != nil : nil
        case "timeZone": isViewer ? record.timeZone : nil
        default: nil
        }
    }
}

/// A `Session` of `schema.graphql`.
struct SessionValue: Sendable, FieldResolvable, TypeNameResolvable {
    let record: SessionRecord
    let isCurrent: Bool

    var graphQLTypeName: String { "Session" }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": record.id
        case "deviceLabel": record.deviceLabel
        case "createdAt": record.createdAt
        case "lastUsedAt": record.lastUsedAt
        case "expiresAt": record.expiresAt
        case "isCurrent": isCurrent
        default: nil
        }
    }
}

/// An `AuthTokens` of `schema.graphql`: the tokens of a sign-in or refresh.
struct AuthTokensValue: Sendable, FieldResolvable {
    let issued: IssuedSession

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "accessToken": issued.accessToken
        case "accessTokenExpiresAt": issued.accessTokenExpiresAt
        case "refreshToken": issued.refreshToken
        case "refreshTokenExpiresAt": issued.session.refreshExpiresAt
        case "session": SessionValue(record: issued.session, isCurrent: true)
        default: nil
        }
    }
}
