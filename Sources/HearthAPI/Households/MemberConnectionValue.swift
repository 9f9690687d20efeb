import GraphQL
import HearthServices

/// A `MemberConnection` of `schema.graphql`: one ``MemberPage`` as seen by a viewer with
/// `access` to the household.
///
/// Objects rather than dictionaries, so that the executor reads each field through one switch
/// and a cursor is made only when the query selects it (most screens show members without
/// their cursors). The page's members share one loader of their accounts, so `user` on every
/// member costs one read for the page, not one per member; it lives as long as this result, so
/// nothing it loaded outlives the request.
final class MemberConnectionValue: Sendable, FieldResolvable {
    let page: MemberPage
    let access: HouseholdAccess
    let users: DataLoader<String, UserRecord?>

    init(page: MemberPage, access: HouseholdAccess, accounts: AccountService) {
        self.page = page
        self.access = access
        users = DataLoader(maxBatchSize: MemberPage.maximumSize) { ids in try await accounts.users(ids: ids) }
    }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "edges": page.edges.indices.map { MemberEdgeValue(page: page, index: $0, access: access, users: users) }
        case "pageInfo": MemberPageInfoValue(page: page)
        case "totalCount": page.totalCount
        default: nil
        }
    }
}

/// A `MemberEdge` of `schema.graphql`: a member and its cursor.
///
/// It reads its edge from the page in place rather than holding a copy: copying an edge retained
/// every field of the member's record, and `node` copies the record into its `MemberValue` anyway.
final class MemberEdgeValue: Sendable, FieldResolvable {
    /// The page the edge is in, and where.
    let page: MemberPage
    let index: Int
    let access: HouseholdAccess
    let users: DataLoader<String, UserRecord?>

    init(page: MemberPage, index: Int, access: HouseholdAccess, users: DataLoader<String, UserRecord?>) {
        self.page = page
        self.index = index
        self.access = access
        self.users = users
    }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "node": MemberValue(record: page.edges[index].member, access: access, users: users)
        case "cursor": page.edges[index].cursor
        default: nil
        }
    }
}

/// The `PageInfo` of a ``MemberPage``.
final class MemberPageInfoValue: Sendable, FieldResolvable {
    let page: MemberPage

    init(page: MemberPage) {
        self.page = page
    }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "hasNextPage": page.hasNextPage
        case "hasPreviousPage": page.hasPreviousPage
        case "startCursor": page.startCursor
        case "endCursor": page.endCursor
        default: nil
        }
    }
}
