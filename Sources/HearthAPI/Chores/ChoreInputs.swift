import FoundationEssentials
import GraphQL
import HearthDomain
import HearthServices
import Support

/// The chore inputs of `schema.graphql` read into the chore service's requests. Shapes the
/// executor already checked (types, `@oneOf`) are trusted; values are checked by the service.
enum ChoreInputs {
    /// A `CreateChoreInput`.
    static func newChore(_ input: MutationInput) throws -> ChoreService.NewChore {
        ChoreService.NewChore(
            id: input.string("id"), householdID: input.string("householdId"), presetID: input.string("presetId"), try fields(input))
    }

    /// The definition's fields of a `CreateChoreInput` or an `UpdateChoreInput`: absent ones are not set,
    /// a `null` description clears it.
    static func fields(_ input: MutationInput) throws -> ChoreFields {
        ChoreFields(
            title: input.string("title"), description: input.change("description"),
            assignmentMode: try input.optionalEnumValue("assignmentMode"), assigneeIDs: input.strings("assigneeIds"),
            schedule: try input.object("schedule").map(schedule), steps: try input.objects("steps")?.map(step),
            tagIDs: input.strings("tagIds"), tokens: input.int("tokens"), requiresApproval: input.bool("requiresApproval"),
            completers: try input.object("completers").map(rule), editors: try input.object("editors").map(rule),
            reminders: try input.objects("reminders")?.map(reminder))
    }

    /// A `ReminderOffsetInput` (its `Duration` the scalar checked).
    static func reminder(_ input: MutationInput) throws -> ReminderOffset {
        guard let offset = ReminderOffset(iso8601: try input.requiredString("before")) else {
            throw input.problem("before", .invalidFormat, "Give an ISO 8601 duration such as PT30M.")
        }
        return offset
    }

    /// A `ChoreScheduleInput` (`@oneOf`: the executor admitted exactly one field).
    static func schedule(_ input: MutationInput) throws -> ChoreService.ScheduleRequest {
        if let text = input.string("once") { return .once(try date(text, input, "once")) }
        if let text = input.string("recurrence") { return .recurrence(text) }
        guard let interval = input.object("afterCompletion") else {
            throw input.problem("once", .required, "Give once, recurrence or afterCompletion.")
        }
        return .afterCompletion(
            every: interval.int("every") ?? 0, unit: try interval.enumValue("unit"),
            firstDueAt: try interval.string("firstDueAt").map { try date($0, interval, "firstDueAt") })
    }

    /// A `ChoreStepInput`.
    static func step(_ input: MutationInput) throws -> ChoreService.StepRequest {
        ChoreService.StepRequest(
            id: input.string("id"), title: try input.requiredString("title"), assigneeID: input.string("assigneeId"),
            completers: try input.object("completers").map(rule))
    }

    /// A `PermissionRuleInput`.
    static func rule(_ input: MutationInput) throws -> PermissionRule {
        PermissionRule(
            roles: try input.enumValues("roles", as: MemberRole.self) ?? [], kinds: try input.enumValues("kinds", as: MemberKind.self) ?? [],
            memberIDs: input.strings("memberIds") ?? [])
    }

    /// A `ChoreFilter` argument.
    static func filter(_ arguments: Arguments) throws -> ChoreFilter {
        guard let fields = arguments.object("filter") else { return ChoreFilter() }
        let filter = MutationInput(fields: fields, path: "filter")
        return ChoreFilter(
            tagIDs: filter.strings("tagIds") ?? [], assignmentModes: try filter.enumValues("assignmentModes", as: AssignmentMode.self) ?? [],
            statuses: try filter.enumValues("statuses", as: ChoreStatus.self) ?? [])
    }

    /// The instant of a `DateTime` the scalar normalised.
    private static func date(_ text: String, _ input: MutationInput, _ field: String) throws -> Date {
        guard let instant = DateTimeScalar.parse(text) else { throw input.problem(field, .invalidFormat, "Give an RFC 3339 date-time.") }
        return Date(timeIntervalSince1970: Double(instant.millisecondsSinceEpoch) / 1000)
    }
}
