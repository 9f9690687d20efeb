@testable import HearthAPI
import HearthDomain
import HearthServices
import Testing

struct GraphQLEnumTests {
    struct Stored: RawRepresentable {
        var rawValue: String
    }

    @Test func namesAStoredValueInCapitalsAndReadsItBack() {
        #expect(GraphQLEnum.name(of: MemberKind.coParent) == "CO_PARENT")
        #expect(GraphQLEnum.name(of: MemberRole.admin) == "ADMIN")
        #expect(GraphQLEnum.value("CO_PARENT", as: MemberKind.self) == .coParent)
        // Digits, underscores and capitals stay; a long value as well as a short one.
        #expect(GraphQLEnum.name(of: Stored(rawValue: "a_z_0_9_AZ_{}_and_a_longer_tail")) == "A_Z_0_9_AZ_{}_AND_A_LONGER_TAIL")
        #expect(GraphQLEnum.name(of: Stored(rawValue: "")) == "")
    }

    @Test func capitalizesNonASCIIValuesByUnicodeRules() {
        #expect(GraphQLEnum.name(of: Stored(rawValue: "straße_é")) == "STRASSE_É")
    }

    @Test func aMembersKindRoleAndStatusHaveTheirGeneralNames() {
        for kind in MemberKind.allCases { #expect(kind.graphQLName == GraphQLEnum.name(of: kind)) }
        for role in MemberRole.allCases { #expect(role.graphQLName == GraphQLEnum.name(of: role)) }
        for status in MemberStatus.allCases { #expect(status.graphQLName == GraphQLEnum.name(of: status)) }
    }

    @Test func aChecklistsStepsAndStatesAndAnEarningsSplitHaveTheirGeneralNames() {
        for step in OnboardingStep.allCases { #expect(step.graphQLName == GraphQLEnum.name(of: step)) }
        for state in OnboardingStepState.allCases { #expect(state.graphQLName == GraphQLEnum.name(of: state)) }
        for split in EarningsSplit.allCases { #expect(split.graphQLName == GraphQLEnum.name(of: split)) }
    }
}
