import FoundationEssentials
import GraphQL
import HearthDomain
import HearthServices

/// The instance inputs of `schema.graphql` read into the instance service's requests.
enum InstanceInputs {
    /// A `MyChoresFilter` argument.
    static func myChoresFilter(_ arguments: Arguments) throws -> MyChoresFilter {
        guard let fields = arguments.object("filter") else { return MyChoresFilter() }
        let filter = MutationInput(fields: fields, path: "filter")
        return MyChoresFilter(
            tagIDs: filter.strings("tagIds") ?? [], statuses: try filter.enumValues("statuses", as: ChoreInstanceStatus.self) ?? [],
            householdID: filter.string("householdId"), isPersonal: filter.bool("isPersonal"),
            dueAfter: try date(filter, "dueAfter"), dueBefore: try date(filter, "dueBefore"))
    }

    /// The `DateTime` field `field` of `input`; `nil` when absent.
    static func date(_ input: MutationInput, _ field: String) throws -> Date? {
        guard let text = input.string(field) else { return nil }
        guard let date = DateTimeScalar.date(text) else { throw input.problem(field, .invalidFormat, "Give an RFC 3339 date-time.") }
        return date
    }
}
