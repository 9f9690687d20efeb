import GraphQL
import HearthServices

extension HouseholdResolvers {
    static func installChildrenAndEconomy(into resolvers: inout Resolvers, households: HouseholdService) {
    }
}
