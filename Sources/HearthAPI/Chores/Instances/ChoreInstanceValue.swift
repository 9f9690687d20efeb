import FoundationEssentials
import GraphQL
import HearthDomain
import HearthServices

/// A `ChoreInstance` of `schema.graphql`: the record, its chore's value, and the batch its related
/// rows load through.
final class ChoreInstanceValue: Sendable, FieldResolvable, TypeNameResolvable, InstanceBatched {
    let record: ChoreInstanceRecord
    let chore: ChoreValue
    let batch: InstanceBatch

    init(record: ChoreInstanceRecord, chore: ChoreValue, batch: InstanceBatch) {
        self.record = record
        self.chore = chore
        self.batch = batch
    }

    /// The values of `instances` (each with its chore and access), one batch per access, so a
    /// page of any length loads each kind of related row once per household.
    static func values(_ instances: [ChoreInstanceService.AccessibleInstance], services: InstanceServices) -> [ChoreInstanceValue] {
        var batches: [ChoreAccess: InstanceBatch] = [:]
        return instances.map { instance, chore, access in
            let batch = batches[access] ?? InstanceBatch(access: access, services: services)
            batches[access] = batch
            return ChoreInstanceValue(record: instance, chore: batch.chore(chore), batch: batch)
        }
    }

    var graphQLTypeName: String { "ChoreInstance" }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": record.id
        case "chore": chore
        case "isPersonal": record.isPersonal
        case "occurrenceAt": record.occurrenceAt
        case "dueAt": record.dueAt
        case "status": GraphQLEnum.name(of: record.status)
        case "completedAt": record.completedAt
        case "claimedAt": record.claimedAt
        case "pausedAt": record.pausedAt
        case "isMaterialized": record.isMaterialized
        default: nil
        }
    }
}

/// A `ChoreCompletion`: the record (with its chore's title when known) and its batch.
final class ChoreCompletionValue: Sendable, FieldResolvable, TypeNameResolvable, InstanceBatched {
    let record: ChoreCompletionRecord
    let choreTitle: String?
    let batch: InstanceBatch

    init(record: ChoreCompletionRecord, choreTitle: String? = nil, batch: InstanceBatch) {
        self.record = record
        self.choreTitle = choreTitle
        self.batch = batch
    }

    var graphQLTypeName: String { "ChoreCompletion" }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": record.id
        case "completedAt": record.completedAt
        case "isFinal": record.isFinal
        case "status": GraphQLEnum.name(of: record.status)
        case "crossHousehold": record.crossHousehold.map(GraphQLEnum.name(of:))
        case "step": record.step.map(CompletionStepValue.init)
        default: nil
        }
    }
}

/// A `ChoreCompletionStep`.
struct CompletionStepValue: Sendable, FieldResolvable {
    let step: ChoreCompletionRecord.Step

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "stepId": step.id
        case "title": step.title
        case "position": step.position
        default: nil
        }
    }
}

/// A `ChoreInstanceStep`: a step of the chore and where it stands in one instance.
struct InstanceStepValue: Sendable, FieldResolvable {
    let step: ChoreStepValue
    let completion: ChoreCompletionValue?
    let isLocked: Bool

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "step": step
        case "isDone": completion != nil
        case "isLocked": isLocked
        case "completion": completion
        default: nil
        }
    }
}

/// A value whose related rows load through an ``InstanceBatch``.
protocol InstanceBatched: Sendable {
    var batch: InstanceBatch { get }
}
