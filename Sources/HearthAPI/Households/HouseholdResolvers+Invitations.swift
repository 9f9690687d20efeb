import GraphQL
import HearthServices

extension HouseholdResolvers {
    static func installInvitations(into resolvers: inout Resolvers, households: HouseholdService) {
    }
}
