import GraphQL
import HearthDomain
import HearthServices

/// The resolvers of leaderboards and scoreboards in `schema.graphql` (FR-56 – FR-58) over
/// ``LeaderboardService``: `Query.leaderboard`, `User.scoreboard` and the live
/// `Subscription.leaderboardChanged`, whose boards ``LeaderboardPublisher`` computes once per change
/// for every subscriber of a household.
enum LeaderboardResolvers {
    static func install(into resolvers: inout Resolvers, leaderboards: LeaderboardService, bus: any EventBus) {
        resolvers.resolveAsync("Query", "leaderboard") { _, arguments, context, _ in
            let viewer = try RequestContext.of(context).viewer()
            let (board, access) = try await leaderboards.leaderboard(
                householdID: arguments.string("householdId") ?? "", period: period(arguments), viewer: viewer)
            return LeaderboardValue(board: board, access: access)
        }
        // Yourself only: another user's `User` (none is reachable today) and a signed-out payload get null.
        resolvers.resolveAsync("User", "scoreboard") { source, arguments, context, _ in
            guard let user = source as? UserValue, user.isViewer, let viewer = RequestContext.of(context).optionalViewer,
                  viewer.userID == user.record.id
            else { return nil }
            return PersonalScoreboardValue(scoreboard: try await leaderboards.scoreboard(of: viewer, period: period(arguments)))
        }
        let publisher = LeaderboardPublisher(leaderboards: leaderboards, bus: bus)
        resolvers.subscribe("leaderboardChanged") { _, arguments, context, _ in
            try await publisher.subscribe(
                viewer: try RequestContext.of(context).viewer(), householdID: arguments.string("householdId") ?? "",
                period: period(arguments))
        }
    }

    /// The `period` argument (its default is `WEEK`).
    private static func period(_ arguments: Arguments) -> ScorePeriod {
        GraphQLEnum.value(arguments.string("period")) ?? .week
    }
}
