import GraphQL
import HearthServices

extension HouseholdResolvers {
    static func installRealtime(into resolvers: inout Resolvers, households: HouseholdService) {
    }
}
