import HearthDomain
import HearthServices

// The schema's names of a checklist step, its state and a household's earnings split (what
// `GraphQLEnum.name(of:)` makes of the stored values), spelled out, as `MemberEnumNames.swift`
// does for members: the setup checklist names every step and state, and case mapping a string
// cost more than the rest of reading the field.

extension OnboardingStep {
    /// The schema's name of the step.
    var graphQLName: String {
        switch self {
        case .household: "HOUSEHOLD"
        case .admin: "ADMIN"
        case .members: "MEMBERS"
        case .economy: "ECONOMY"
        case .chore: "CHORE"
        }
    }
}

extension OnboardingStepState {
    /// The schema's name of the state.
    var graphQLName: String {
        switch self {
        case .pending: "PENDING"
        case .done: "DONE"
        case .skipped: "SKIPPED"
        }
    }
}

extension EarningsSplit {
    /// The schema's name of the split.
    var graphQLName: String {
        switch self {
        case .fallback: "FALLBACK"
        case .equal: "EQUAL"
        case .completer: "COMPLETER"
        }
    }
}
