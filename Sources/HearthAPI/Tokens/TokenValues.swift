import GraphQL
import HearthDomain
import HearthServices

/// A `TokenLedgerEntry` of `schema.graphql`.
final class LedgerEntryValue: Sendable, FieldResolvable, TypeNameResolvable {
    let record: LedgerEntryRecord
    let batch: TokenBatch

    init(_ record: LedgerEntryRecord, batch: TokenBatch) {
        self.record = record
        self.batch = batch
    }

    var graphQLTypeName: String { "TokenLedgerEntry" }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": record.id
        case "kind": GraphQLEnum.name(of: record.kind)
        case "amount": record.amount
        case "balanceAfter": record.balanceAfter
        case "note": record.note
        case "completionId": record.completionID
        case "choreId": record.choreID
        // Written by the service from `DecimalAmount`s within `DecimalAmount.largest`.
        case "currencyPerToken": record.currencyPerToken.flatMap { DecimalAmount($0) }
        case "moneyAmount": record.moneyAmount.flatMap { DecimalAmount($0) }
        case "currencyCode": record.currencyCode
        case "createdAt": record.createdAt
        default: nil
        }
    }
}

/// A `Reward` of `schema.graphql`, as seen by the viewer of its batch's access.
final class RewardValue: Sendable, FieldResolvable, TypeNameResolvable {
    let record: RewardRecord
    let batch: TokenBatch

    init(_ record: RewardRecord, batch: TokenBatch) {
        self.record = record
        self.batch = batch
    }

    var graphQLTypeName: String { "Reward" }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": record.id
        case "name": record.name
        case "description": record.description
        case "tokenCost": record.tokenCost
        case "stock": record.stock
        case "viewerTokenCost": record.price(for: batch.access.memberID)
        case "createdAt": record.createdAt
        case "updatedAt": record.updatedAt
        case "deletedAt": record.deletedAt
        default: nil
        }
    }
}

/// A `RewardRedemption` of `schema.graphql`.
final class RedemptionValue: Sendable, FieldResolvable, TypeNameResolvable {
    let record: RedemptionRecord
    let batch: TokenBatch

    init(_ record: RedemptionRecord, batch: TokenBatch) {
        self.record = record
        self.batch = batch
    }

    var graphQLTypeName: String { "RewardRedemption" }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": record.id
        case "tokenCost": record.tokenCost
        case "status": GraphQLEnum.name(of: record.status)
        case "rejectionReason": record.reason
        case "requestedAt": record.requestedAt
        case "reviewedAt": record.reviewedAt
        default: nil
        }
    }
}
