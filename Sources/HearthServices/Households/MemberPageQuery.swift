import HearthDomain

/// Which page of a household's members to read (the arguments of `Household.members`), checked:
/// after the cursor `after` and before `before`, the first `first` or the last `last` members
/// (``MemberPage/maximumSize`` when neither is given), departed ones only when `includeDeparted`.
public struct MemberPageQuery: Sendable, Hashable {
    let first: Int?
    let last: Int?
    let after: MemberCursor?
    let before: MemberCursor?
    let includeDeparted: Bool

    /// Checks the arguments.
    /// - Throws: `BAD_USER_INPUT` (every problem at once) for a negative or over-100 `first` or
    ///   `last`, both given, or a cursor that is not one of ours.
    public init(first: Int? = nil, after: String? = nil, last: Int? = nil, before: String? = nil, includeDeparted: Bool = false) throws {
        var problems = ProblemCollector()
        for (field, count) in [("first", first), ("last", last)] {
            if let count, !(0...MemberPage.maximumSize).contains(count) {
                problems.add(FieldProblem(field: field, reason: .outOfRange, message: "Ask for 0 to \(MemberPage.maximumSize) members at a time."))
            }
        }
        if first != nil, last != nil {
            problems.add(FieldProblem(field: "last", reason: .notAllowed, message: "Give first or last, not both."))
        }
        let afterCursor = after.flatMap { text in
            problems.check { () throws(FieldProblem) in try Self.cursor(text, field: "after") }
        }
        let beforeCursor = before.flatMap { text in
            problems.check { () throws(FieldProblem) in try Self.cursor(text, field: "before") }
        }
        try problems.throwIfAny()
        self.first = first
        self.last = last
        self.after = afterCursor
        self.before = beforeCursor
        self.includeDeparted = includeDeparted
    }

    private static func cursor(_ text: String, field: String) throws(FieldProblem) -> MemberCursor {
        guard let cursor = MemberCursor(text) else {
            throw FieldProblem(field: field, reason: .invalidFormat, message: "This cursor is not one this list gave out.")
        }
        return cursor
    }
}
