import GraphQL
import HearthServices

extension HouseholdResolvers {
    static func installOnboarding(into resolvers: inout Resolvers, households: HouseholdService) {
    }
}
