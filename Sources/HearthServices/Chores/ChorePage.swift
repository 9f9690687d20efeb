import HearthDomain
import HearthStore
import Support

/// Which chores a list shows (FR-48, FR-55): all the given tags (a chore carrying every one of
/// them), and any of the given assignment modes. Empty lists filter nothing.
public struct ChoreFilter: Sendable, Hashable {
    /// Chores carrying all of these tags.
    public var tagIDs: [String]
    /// Chores of one of these modes.
    public var assignmentModes: [AssignmentMode]
    /// Chores in one of these states (FR-37); never empty: active ones when none are given.
    public var statuses: [ChoreStatus]

    /// Creates the filter.
    public init(tagIDs: [String] = [], assignmentModes: [AssignmentMode] = [], statuses: [ChoreStatus] = []) {
        self.tagIDs = Array(Set(tagIDs)).sorted()
        self.assignmentModes = AssignmentMode.allCases.filter(assignmentModes.contains)
        self.statuses = statuses.isEmpty ? [.active] : ChoreStatus.allCases.filter(statuses.contains)
    }
}

/// One page of a chore list (a Relay cursor connection, forward): by title (case-insensitively),
/// then by id, so the order is total and stable.
public struct ChorePage: Sendable {
    /// The most chores one page holds, and the page size when `first` is not given.
    public static let maximumSize = 100

    /// The chores of the page, in order, each with the cursor that points at it.
    public var edges: [(cursor: String, chore: ChoreRecord)]
    /// Whether chores follow the page.
    public var hasNextPage: Bool
    /// Whether chores precede the page (those before `after`).
    public var hasPreviousPage: Bool
    /// How many chores the filtered list has in all.
    public var totalCount: Int
    /// What the chores' related rows are read through.
    public var access: ChoreAccess

    /// The first chore's cursor.
    public var startCursor: String? { edges.first?.cursor }
    /// The last chore's cursor.
    public var endCursor: String? { edges.last?.cursor }
}

/// Where a chore is in the order of ``ChorePage``: the base64url text of its title key and id.
struct ChoreCursor: Equatable {
    var titleKey: String
    var id: String

    init(titleKey: String, id: String) {
        self.titleKey = titleKey
        self.id = id
    }

    /// The cursor `text` names, `nil` when it is not one of ours.
    init?(_ text: String) {
        guard text.utf8.count <= 400, let bytes = Base64URL.decode(text) else { return nil }
        let decoded = String(decoding: bytes, as: UTF8.self)
        guard let separator = decoded.lastIndex(of: "|"), GlobalID.mayName(.chore, String(decoded[decoded.index(after: separator)...]))
        else { return nil }
        titleKey = String(decoded[..<separator])
        id = String(decoded[decoded.index(after: separator)...])
    }

    /// The opaque text.
    var text: String { Base64URL.encode(Array("\(titleKey)|\(id)".utf8)) }
}
