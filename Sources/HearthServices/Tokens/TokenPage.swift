import HearthDomain
import Support

/// One page of a newest-first list of the token economy (`Member.tokenLedger`,
/// `Household.redemptions`), a Relay cursor connection paged forward with `first` and `after`.
public struct TokenPage<Item: Sendable>: Sendable {
    /// The most items one page holds, and the page size when `first` is not given.
    public static var maximumSize: Int { 100 }

    /// The items of the page, newest first, each with the cursor that points at it.
    public var edges: [(cursor: String, item: Item)]
    /// Whether older items follow the page.
    public var hasNextPage: Bool
    /// Whether newer items precede `after`.
    public var hasPreviousPage: Bool
    /// How many items the whole list holds.
    public var totalCount: Int

    /// The first item's cursor.
    public var startCursor: String? { edges.first?.cursor }
    /// The last item's cursor.
    public var endCursor: String? { edges.last?.cursor }

    /// `first`, checked: 0 to ``maximumSize``, the maximum when absent.
    /// - Throws: ``FieldProblem`` `OUT_OF_RANGE` on `first`.
    static func size(_ first: Int?) throws(FieldProblem) -> Int {
        guard let first else { return maximumSize }
        guard (0...maximumSize).contains(first) else {
            throw FieldProblem(field: "first", reason: .outOfRange, message: "Ask for 0 to \(maximumSize) items at a time.")
        }
        return first
    }

    /// The opaque cursor of a position given by `parts` (stored values without `|`).
    static func cursor(_ parts: [String]) -> String {
        Base64URL.encode(Array(parts.joined(separator: "|").utf8))
    }

    /// The `count` parts of the cursor `text`; `nil` when `text` is `nil`.
    /// - Throws: ``FieldProblem`` `INVALID_FORMAT` on `after` for a cursor this list did not give out.
    static func parts(of text: String?, count: Int) throws(FieldProblem) -> [String]? {
        guard let text else { return nil }
        guard text.utf8.count <= 200, let bytes = Base64URL.decode(text) else { throw invalidCursor }
        let parts = String(decoding: bytes, as: UTF8.self).split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == count, !parts.contains(where: \.isEmpty) else { throw invalidCursor }
        return parts
    }

    /// The problem of a cursor this list did not give out.
    static var invalidCursor: FieldProblem {
        FieldProblem(field: "after", reason: .invalidFormat, message: "This cursor is not one this list gave out.")
    }
}
