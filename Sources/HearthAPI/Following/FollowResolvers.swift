import GraphQL
import HearthServices

/// The resolvers of following (US 05) over ``FollowService``: `requestFollow`,
/// `acceptFollowRequest`, `declineFollowRequest`, `unfollow`, `removeFollower`, the four lists,
/// `node` lookups of follows, the `followEvents` subscription (`+Events`), and the following feed
/// and its map (US 06.03, `+Feed`), whose events are `HabitEvent`s read through `habits`.
enum FollowResolvers {
    static func install(into resolvers: inout Resolvers, follows: FollowService, habits: HabitService) {
        installMutations(into: &resolvers, follows: follows)
        let lists: [(String, FollowService.FollowList)] = [
            ("followers", .followers), ("following", .following), ("followRequests", .incomingRequests), ("sentFollowRequests", .sentRequests),
        ]
        for (field, list) in lists {
            resolvers.resolveAsync("Query", field) { _, arguments, context, _ in
                let viewer = try RequestContext.of(context).viewer()
                let page = try await follows.follows(list, viewer: viewer, first: arguments.int("first"), after: arguments.string("after"))
                return InstanceResolvers.connection(page.edges.map(\.cursor), page.edges.map { FollowValue(record: $0.node) }, page)
            }
        }
        installEvents(into: &resolvers, follows: follows)
        installFeed(into: &resolvers, follows: follows, habits: habits)
    }

    private static func installMutations(into resolvers: inout Resolvers, follows: FollowService) {
        resolvers.resolveMutation("requestFollow") { input, context in
            let follow = try await follows.requestFollow(
                username: try input.requiredString("username"), id: input.string("id"), viewer: try context.viewer(),
                clientMutationID: input.clientMutationID)
            return ["follow": FollowValue(record: follow)]
        }
        resolvers.resolveMutation("acceptFollowRequest") { input, context in
            let follow = try await follows.acceptFollowRequest(
                id: try input.requiredString("followId"), viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["follow": FollowValue(record: follow)]
        }
        resolvers.resolveMutation("declineFollowRequest") { input, context in
            ["declinedFollowId": try await follows.declineFollowRequest(
                id: try input.requiredString("followId"), viewer: try context.viewer(), clientMutationID: input.clientMutationID)]
        }
        resolvers.resolveMutation("unfollow") { input, context in
            ["unfollowedFollowId": try await follows.unfollow(
                id: try input.requiredString("followId"), viewer: try context.viewer(), clientMutationID: input.clientMutationID)]
        }
        resolvers.resolveMutation("removeFollower") { input, context in
            ["removedFollowId": try await follows.removeFollower(
                id: try input.requiredString("followId"), viewer: try context.viewer(), clientMutationID: input.clientMutationID)]
        }
    }

    /// The follows among `ids` the viewer is one of the two users of, by id (for `node`/`nodes`).
    static func nodes(ids: [String], follows: FollowService, context: RequestContext) async throws -> [String: any Sendable] {
        guard let viewer = context.optionalViewer else { return [:] }
        var found: [String: any Sendable] = [:]
        for follow in try await follows.follows(ids: ids, viewer: viewer) { found[follow.id] = FollowValue(record: follow) }
        return found
    }
}
