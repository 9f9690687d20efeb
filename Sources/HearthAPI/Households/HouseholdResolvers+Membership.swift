import GraphQL
import HearthServices

extension HouseholdResolvers {
    static func installMembership(into resolvers: inout Resolvers, households: HouseholdService) {
    }
}
