import FoundationEssentials
import GraphQL
import HearthDomain
import HearthServices
import Synchronization

/// A `Household` of `schema.graphql`, as seen by the viewer whose membership `access` proves.
final class HouseholdValue: Sendable, FieldResolvable, TypeNameResolvable {
    /// What a root field read for the household: the inputs its kept text is made of
    /// (``HouseholdTextCache``), compared with what the next read returns.
    struct Inputs: Equatable, Sendable {
        let record: HouseholdRecord
        let access: HouseholdAccess
        let isActive: Bool?
        let members: MemberPage?
        let onboarding: OnboardingChecklist?
    }

    let record: HouseholdRecord
    let access: HouseholdAccess

    /// Whether it is the viewer's active household, when the query that found it already knew.
    let knownIsActive: Bool?
    /// The page of its members the query selects, when it was read with the household.
    let knownMembers: MemberPage?
    /// Its setup checklist, when the query selects it and it was read with the household.
    let knownOnboarding: OnboardingChecklist?
    /// The mark the household and ``knownMembers`` were served under, when reads are kept.
    let readMark: HouseholdReadMark?
    /// Whether a field of it read more than ``inputs`` (``noteReadBeyondInputs()``).
    private let readBeyondInputs = Atomic<Bool>(false)

    init(
        record: HouseholdRecord, access: HouseholdAccess, isActive: Bool? = nil, members: MemberPage? = nil,
        onboarding: OnboardingChecklist? = nil, readMark: HouseholdReadMark? = nil
    ) {
        self.record = record
        self.access = access
        knownIsActive = isActive
        knownMembers = members
        knownOnboarding = onboarding
        self.readMark = readMark
    }

    /// What the root field read for it; `nil` once a field read more (its value is not made of
    /// these alone).
    var inputs: Inputs? {
        readBeyondInputs.load(ordering: .acquiring) ? nil : Inputs(
            record: record, access: access, isActive: knownIsActive, members: knownMembers, onboarding: knownOnboarding)
    }

    /// Tells that a field read the store beyond what the root field read (a page of members, the
    /// checklist or whether it is active, unknown to the root): its text is made of more than
    /// ``inputs``.
    func noteReadBeyondInputs() {
        readBeyondInputs.store(true, ordering: .releasing)
    }

    var graphQLTypeName: String { "Household" }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": record.id
        case "name": record.name
        case "emoji": record.emoji
        case "locationLabel": record.locationLabel
        case "timeZone": record.timeZone
        case "firstWeekday": GraphQLEnum.name(of: record.firstWeekday)
        case "createdAt": record.createdAt
        case "updatedAt": record.updatedAt
        default: nil
        }
    }
}

/// A `Member` of `schema.graphql`, as seen by a viewer with `access` to its household.
final class MemberValue: Sendable, FieldResolvable, TypeNameResolvable {
    let record: MemberRecord
    let access: HouseholdAccess
    /// Loads the accounts of the members of the list this member came in, together (`Member.user`).
    let users: DataLoader<String, UserRecord?>?

    init(record: MemberRecord, access: HouseholdAccess, users: DataLoader<String, UserRecord?>? = nil) {
        self.record = record
        self.access = access
        self.users = users
    }

    var graphQLTypeName: String { "Member" }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": record.id
        case "kind": record.kind.graphQLName
        case "role": record.role.graphQLName
        case "status": record.status.graphQLName
        case "displayName": record.displayName
        case "age": access.isAdmin ? record.age : nil
        case "isViewer": record.id == access.memberID
        case "joinedAt": record.joinedAt
        case "departedAt": record.departedAt
        default: nil
        }
    }
}

/// The schema's enum value names of stored enums: `co_parent` is `CO_PARENT`.
enum GraphQLEnum {
    /// The `SCREAMING_SNAKE_CASE` name of a stored raw value.
    static func name<Value: RawRepresentable<String>>(of value: Value) -> String {
        value.rawValue.uppercased()
    }

    /// The stored value named `name` (`CO_PARENT` is `co_parent`), `nil` for an unknown one.
    static func value<Value: RawRepresentable<String>>(_ name: String?, as type: Value.Type = Value.self) -> Value? {
        name.flatMap { Value(rawValue: $0.lowercased()) }
    }
}
