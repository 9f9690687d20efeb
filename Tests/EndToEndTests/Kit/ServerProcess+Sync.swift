import Foundation
import GraphQL
import Testing

/// Offline sync's reading side for end-to-end tests: pages of `changes` and a device's copy.
extension ServerProcess {
    /// One change of a `changes` page.
    struct SyncChange: Equatable {
        /// `UPSERT` or `DELETE`.
        let operation: String
        let id: String
        let typename: String?
        /// The node's id: the id itself for an upsert, nil for a tombstone.
        let nodeID: String?
        /// The node as read with the request's node selection (`null` for a tombstone).
        var node: JSON? = nil

        /// The change `entry` of a `changes` page or a `syncDeltas` delivery describes.
        init(_ entry: JSON) throws {
            operation = try #require(entry["operation"]?.stringValue, "\(entry)")
            id = try #require(entry["id"]?.stringValue, "\(entry)")
            typename = entry["typename"]?.stringValue
            nodeID = entry["node"]?["id"]?.stringValue
            node = entry["node"]
        }

        /// The changes of `list`, a `changes` array.
        static func list(_ list: JSON?) throws -> [SyncChange] {
            guard case .array(let entries)? = list else { throw SyncFeedError(description: "no changes: \(list ?? .null)") }
            return try entries.map(SyncChange.init)
        }
    }

    /// A `changes` page or a `syncDeltas` delivery without a list of changes.
    struct SyncFeedError: Error, CustomStringConvertible {
        let description: String
    }

    /// One page of `changes`.
    struct SyncPage {
        let changes: [SyncChange]
        let endCursor: String
        let hasMore: Bool
    }

    /// `changes(since:first:)` as `person`, the raw response; `node` is the selection read of each node.
    func changesResponse(since: String?, first: Int? = nil, node: String = "id", as person: Person) throws -> GraphQLResponse {
        var variables: [String: JSON] = [:]
        if let since { variables["since"] = .string(since) }
        if let first { variables["first"] = .int(first) }
        return try graphQL(
            """
            query($since: String, $first: Int) { changes(since: $since, first: $first) {
              changes { cursor operation id typename node { \(node) } } endCursor hasMore } }
            """, variables: variables, token: person.token)
    }

    /// One page of `changes` as `person` (asserting it answered), each node read with the selection `node`.
    func changes(since: String?, first: Int? = nil, node: String = "id", as person: Person) throws -> SyncPage {
        let response = try changesResponse(since: since, first: first, node: node, as: person)
        let page = try #require(response.data?["changes"], "\(response.json)")
        return SyncPage(
            changes: try SyncChange.list(page["changes"]), endCursor: try #require(page["endCursor"]?.stringValue), hasMore: page["hasMore"] == true)
    }

    /// Every change after `since` as `person`, page after page of `first` until `hasMore` is false,
    /// and the cursor to continue from; each node read with the selection `node`.
    func allChanges(since: String?, first: Int? = nil, node: String = "id", as person: Person) throws -> (changes: [SyncChange], cursor: String) {
        var changes: [SyncChange] = []
        var page = try self.changes(since: since, first: first, node: node, as: person)
        changes += page.changes
        while page.hasMore {
            page = try self.changes(since: page.endCursor, first: first, node: node, as: person)
            changes += page.changes
        }
        return (changes, page.endCursor)
    }

    /// The newest cursor of `person`'s stream: a full resync read to its end.
    func syncCursor(as person: Person) throws -> String {
        try allChanges(since: nil, as: person).cursor
    }
}
