import FoundationEssentials
import HearthDomain
import HearthStore
import Support

/// Where an instance or completion is in a list ordered by a time, then by id: the base64url
/// text of the time's Unix milliseconds and the id. Opaque to clients.
struct InstanceCursor: Equatable {
    var time: Date
    var id: String

    init(time: Date, id: String) {
        self.time = time
        self.id = id
    }

    /// The cursor `text` names, of an id of `kind`; `nil` when it is not one of ours.
    init?(_ text: String, kind: GlobalID.Kind) {
        guard text.utf8.count <= 200, let bytes = Base64URL.decode(text) else { return nil }
        let parts = String(decoding: bytes, as: UTF8.self).split(separator: "|", maxSplits: 1).map(String.init)
        guard parts.count == 2, let milliseconds = Int64(parts[0]), GlobalID.mayName(kind, parts[1]) else { return nil }
        time = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        id = parts[1]
    }

    /// The opaque text.
    var text: String { Base64URL.encode(Array("\(ChoreInstanceID.unixMilliseconds(time))|\(id)".utf8)) }

    /// `first` and `after` of a list checked: the page size (`maximum` when absent) and the cursor.
    /// - Throws: `BAD_USER_INPUT` on `first` (outside 0…`maximum`) and `after` (not a cursor of this list).
    static func page(first: Int?, after: String?, kind: GlobalID.Kind, maximum: Int) throws -> (size: Int, cursor: InstanceCursor?) {
        var problems = ProblemCollector()
        if let first, !(0...maximum).contains(first) {
            problems.add(FieldProblem(field: "first", reason: .outOfRange, message: "Ask for 0 to \(maximum) at a time."))
        }
        let cursor = after.flatMap { text -> InstanceCursor? in
            guard let cursor = InstanceCursor(text, kind: kind) else {
                problems.add(FieldProblem(field: "after", reason: .invalidFormat, message: "This cursor is not one this list gave out."))
                return nil
            }
            return cursor
        }
        try problems.throwIfAny()
        return (first ?? maximum, cursor)
    }
}

/// One page of a list of instances or completions (a Relay cursor connection, forward).
public struct InstancePage<Node: Sendable>: Sendable {
    /// The most one page holds, and the page size when `first` is not given.
    public static var maximumSize: Int { 100 }

    /// The nodes of the page, in order, each with its cursor.
    public var edges: [(cursor: String, node: Node)]
    /// Whether more follow.
    public var hasNextPage: Bool
    /// Whether the page started after a cursor (approximate, as the Relay specification allows).
    public var hasPreviousPage: Bool
    /// When the page changes by time alone, with nothing written (``MyChoresFilter/dueBefore``'s
    /// default moves with the clock); `nil` when it does not. What a cache of the page may rely
    /// on, beside ``ChoreViewStamp``.
    public var changesAt: Date? = nil

    /// The first node's cursor.
    public var startCursor: String? { edges.first?.cursor }
    /// The last node's cursor.
    public var endCursor: String? { edges.last?.cursor }
}

extension InstancePage {
    /// The page of `nodes`, read newest first with a limit of `size + 1` (the one more says
    /// whether more follow) after `cursor`; `cursorOf` gives each node's cursor.
    init(reading nodes: [Node], size: Int, after cursor: InstanceCursor?, cursorOf: (Node) -> InstanceCursor) {
        edges = nodes.prefix(size).map { (cursor: cursorOf($0).text, node: $0) }
        hasNextPage = nodes.count > size
        hasPreviousPage = cursor != nil
    }
}

extension InstanceCursor {
    /// The condition (starting with ` AND `) and arguments that keep, in a list ordered by
    /// `columns` (a time and an id) descending, what comes after `cursor`; none without one.
    static func older(than cursor: InstanceCursor?, columns: String) -> (condition: String, arguments: [(any DatabaseValueConvertible)?]) {
        guard let cursor else { return ("", []) }
        return (" AND (\(columns)) < (?, ?)", [cursor.time, cursor.id])
    }
}
