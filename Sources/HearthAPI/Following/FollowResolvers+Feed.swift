import FoundationEssentials
import GraphQL
import HearthDomain
import HearthServices

extension FollowResolvers {
    /// `Query.followingFeed` (a `HabitEventConnection`, each event's habit read for the whole page
    /// at once) and `Query.followingFeedGeoJSON`.
    static func installFeed(into resolvers: inout Resolvers, follows: FollowService, habits: HabitService) {
        resolvers.resolveAsync("Query", "followingFeed") { _, arguments, context, _ in
            let viewer = try RequestContext.of(context).viewer()
            let page = try await follows.feed(
                viewer: viewer, since: try since(arguments.string("since")), first: arguments.int("first"), after: arguments.string("after"))
            let shown = try await habits.habits(ids: page.edges.map(\.node.event.habitID), viewer: viewer)
            return InstanceResolvers.connection(
                page.edges.map(\.cursor),
                page.edges.map { HabitEventValue(record: $0.node.event, habit: shown[$0.node.event.habitID], habits: habits) }, page)
        }
        resolvers.resolveAsync("Query", "followingFeedGeoJSON") { _, arguments, context, _ in
            try await follows.feedGeoJSON(viewer: try RequestContext.of(context).viewer(), since: try since(arguments.string("since")))
        }
    }

    /// The feed's `since` (a `DateTime` the scalar checked, or the HTTP endpoint's parameter).
    /// - Throws: `BAD_USER_INPUT` (`INVALID_FORMAT` on `since`) for text that is not a date-time.
    static func since(_ text: String?) throws -> Date? {
        guard let text else { return nil }
        guard let date = DateTimeScalar.date(text) else {
            throw ServiceError.invalid(InputProblems([FieldProblem(
                field: "since", reason: .invalidFormat, message: "Give an RFC 3339 date-time, e.g. 2026-03-01T08:30:00Z.")]))
        }
        return date
    }
}
