/// The values bound to a statement's `?` parameters, in order.
///
/// Written as an array literal of any mix of convertible values and `nil`:
/// `try db.execute("INSERT INTO t (a, b, c) VALUES (?, ?, ?)", [42, "text", nil])`.
/// Values are converted when the arguments are built, so they are `Sendable` and
/// can be prepared on one thread and bound on the connection's.
public struct StatementArguments: Sendable, Hashable, ExpressibleByArrayLiteral {
    /// The converted values, one per parameter.
    public var values: [DatabaseValue]

    /// Arguments from a list of values; `nil` binds `NULL`.
    public init(_ values: [(any DatabaseValueConvertible)?]) {
        self.values = values.map { $0?.databaseValue ?? .null }
    }

    /// Arguments from an array literal; `nil` binds `NULL`.
    public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        self.init(elements)
    }
}
