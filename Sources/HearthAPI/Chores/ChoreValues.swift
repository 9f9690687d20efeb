import FoundationEssentials
import GraphQL
import HearthDomain
import HearthServices

/// A `Chore` of `schema.graphql`: its record, and the batch its related rows load through.
final class ChoreValue: Sendable, FieldResolvable, TypeNameResolvable {
    let record: ChoreRecord
    let batch: ChoreBatch

    init(record: ChoreRecord, batch: ChoreBatch) {
        self.record = record
        self.batch = batch
    }

    /// The chores of `chores`, read with `access`, sharing one batch.
    static func values(_ chores: [ChoreRecord], access: ChoreAccess, service: ChoreService) -> [ChoreValue] {
        let batch = ChoreBatch(access: access, chores: service)
        return chores.map { ChoreValue(record: $0, batch: batch) }
    }

    var graphQLTypeName: String { "Chore" }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": record.id
        case "isPersonal": record.isPersonal
        case "title": record.title
        case "description": record.description
        case "assignmentMode": GraphQLEnum.name(of: record.assignmentMode)
        case "schedule": ScheduleValue(schedule: record.schedule)
        case "tokens": record.tokens
        case "requiresApproval": record.requiresApproval
        case "presetId": record.presetID
        case "createdAt": record.createdAt
        case "updatedAt": record.updatedAt
        case "status": GraphQLEnum.name(of: record.status)
        case "archivedAt": record.archivedAt
        case "reminders": record.reminders.map(ChoreReminderValue.init)
        default: nil
        }
    }
}

/// One of the `ChoreSchedule` union's members.
struct ScheduleValue: Sendable, FieldResolvable, TypeNameResolvable {
    let schedule: ChoreSchedule

    var graphQLTypeName: String {
        switch schedule {
        case .once: "OnceSchedule"
        case .recurrence: "RecurringSchedule"
        case .afterCompletion: "AfterCompletionSchedule"
        }
    }

    func fieldValue(named name: String) -> Any? {
        switch (schedule, name) {
        case (.once(let dueAt), "dueAt"): dueAt
        case (.recurrence(let text), "recurrence"): text
        case (.afterCompletion(let every, _, _), "every"): every
        case (.afterCompletion(_, let unit, _), "unit"): GraphQLEnum.name(of: unit)
        case (.afterCompletion(_, _, let firstDueAt), "firstDueAt"): firstDueAt
        default: nil
        }
    }
}

/// A `ChoreAssignee`: the member, with their picture's URL.
struct ChoreAssigneeValue: Sendable, FieldResolvable {
    let assignee: ChoreAssignee
    let access: HouseholdAccess
    let avatarURL: String?

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "member": MemberValue(record: assignee.member, access: access)
        case "displayName": assignee.member.displayName
        case "avatarUrl": avatarURL
        default: nil
        }
    }
}

/// A `ChoreStep`, with its completion rule when it has its own.
struct ChoreStepValue: Sendable, FieldResolvable {
    let step: ChoreStepRecord
    let assignee: ChoreAssigneeValue?
    let completers: PermissionRuleValue?

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": step.id
        case "position": step.position
        case "title": step.title
        case "assignee": assignee
        case "completers": completers
        default: nil
        }
    }
}

/// A `PermissionRule`; its members are shown as the viewer's access allows.
struct PermissionRuleValue: Sendable, FieldResolvable {
    let granted: GrantedRule
    let access: HouseholdAccess?

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "roles": granted.rule.roles.map(GraphQLEnum.name(of:))
        case "kinds": granted.rule.kinds.map(GraphQLEnum.name(of:))
        case "members": access.map { access in granted.members.map { MemberValue(record: $0, access: access) } } ?? []
        case "isEmpty": granted.rule.isEmpty
        default: nil
        }
    }
}

/// A `Tag`.
final class TagValue: Sendable, FieldResolvable, TypeNameResolvable {
    let record: TagRecord
    let access: ChoreAccess

    init(record: TagRecord, access: ChoreAccess) {
        self.record = record
        self.access = access
    }

    var graphQLTypeName: String { "Tag" }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": record.id
        case "name": record.name
        case "color": record.color
        case "createdAt": record.createdAt
        case "updatedAt": record.updatedAt
        default: nil
        }
    }
}

/// A `ChorePreset`.
struct ChorePresetValue: Sendable, FieldResolvable, TypeNameResolvable {
    let preset: ChorePreset

    var graphQLTypeName: String { "ChorePreset" }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": preset.id
        case "isBuiltIn": preset.isBuiltIn
        case "title": preset.title
        case "description": preset.description
        case "schedule": preset.schedule.map(PresetScheduleValue.init)
        case "steps": preset.steps
        case "tagNames": preset.tagNames
        case "tokens": preset.tokens
        case "assignmentMode": GraphQLEnum.name(of: preset.assignmentMode)
        case "ageBand": GraphQLEnum.name(of: preset.ageBand)
        case "quickStartAudience": preset.quickStart.map(GraphQLEnum.name(of:))
        default: nil
        }
    }
}

/// A `PresetSchedule`.
struct PresetScheduleValue: Sendable, FieldResolvable {
    let schedule: PresetSchedule

    func fieldValue(named name: String) -> Any? {
        switch (schedule, name) {
        case (.recurrence(let rule, _), "rule"): rule
        case (.recurrence(_, let time), "time"): time
        case (.afterCompletion(let every, _), "every"): every
        case (.afterCompletion(_, let unit), "unit"): GraphQLEnum.name(of: unit)
        default: nil
        }
    }
}
