import GraphQL
import HearthDomain
import HearthServices

/// The resolvers of offline sync's reading side (issue 17) over ``SyncService``: `changes` and
/// `syncDeltas` (`+Deltas`), each
/// changed object looked up for the caller by the same code as `node(id:)` (`findNodes`): found, an
/// `UPSERT` with it; not found (deleted, or no longer visible), a `DELETE`.
enum SyncResolvers {
    /// Looks objects up by id for the caller, as `nodes(ids:)` does; absent ids are not visible.
    typealias NodeFinder = @Sendable ([String], RequestContext) async throws -> [String: any Sendable]

    /// The page size when `first` is not given.
    static let defaultPageSize = 100

    static func install(into resolvers: inout Resolvers, sync: SyncService, findNodes: @escaping NodeFinder) {
        resolvers.resolveAsync("Query", "changes") { _, arguments, context, _ in
            let context = RequestContext.of(context)
            let page = try await sync.changes(
                since: arguments.string("since"), first: arguments.int("first") ?? defaultPageSize, viewer: try context.viewer())
            return try await pageValue(page, context: context, findNodes: findNodes)
        }
        installDeltas(into: &resolvers, sync: sync, findNodes: findNodes)
    }

    /// The `SyncChangePage` (or `SyncDelta`) fields of `page`, each object looked up for the caller.
    static func pageValue(_ page: SyncPage, context: RequestContext, findNodes: NodeFinder) async throws -> [String: any Sendable] {
        let found = try await findNodes(page.entries.map(\.objectID), context)
        return [
            "changes": page.entries.map { entry in change(id: entry.objectID, cursor: entry.cursor.description, node: found[entry.objectID]) },
            "endCursor": page.endCursor.description,
            "hasMore": page.hasMore,
        ]
    }

    /// The `SyncChange` of object `id` at `cursor`: an upsert of `node` when the caller sees it, a
    /// tombstone otherwise.
    static func change(id: String, cursor: String, node: (any Sendable)?) -> [String: any Sendable] {
        var change: [String: any Sendable] = ["cursor": cursor, "id": id, "operation": node == nil ? "DELETE" : "UPSERT"]
        if let node {
            change["node"] = node
            change["typename"] = (node as? any TypeNameResolvable)?.graphQLTypeName
        } else if let typename = typeName(of: id) {
            change["typename"] = typename
        }
        return change
    }

    /// The GraphQL type an id names by its prefix (``GlobalID/Kind``), for tombstones; `nil` for a
    /// legacy bare-UUID id or a kind that is no node.
    static func typeName(of id: String) -> String? {
        guard case .typed(let id) = GlobalID.form(of: id) else { return nil }
        return switch id.kind {
        case .user: "User"
        case .session: "Session"
        case .household: "Household"
        case .member: "Member"
        case .invitation: "Invitation"
        case .parentalConsent: "ParentalConsent"
        case .chore: "Chore"
        case .tag: "Tag"
        case .chorePreset: "ChorePreset"
        case .choreInstance: "ChoreInstance"
        case .choreCompletion: "ChoreCompletion"
        case .reward: "Reward"
        case .redemption: "RewardRedemption"
        case .ledgerEntry: "TokenLedgerEntry"
        case .choreShare: "ChoreShare"
        case .habit: "Habit"
        case .habitEvent: "HabitEvent"
        case .follow: "Follow"
        case .availabilityEvent: "AvailabilityEvent"
        case .importedCalendar: "ImportedCalendar"
        default: nil
        }
    }
}
