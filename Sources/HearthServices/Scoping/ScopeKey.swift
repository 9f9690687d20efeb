import HearthStore

/// What a ``ScopedDatabase`` binds into every statement it runs: the household of a
/// ``HouseholdAccess`` (``HouseholdScope``) or the account of an ``Owner`` (``OwnerScope``).
///
/// Scoped SQL names the key with the kind's ``marker`` where a value would go
/// (`WHERE household_id = {household}`); the scope puts a `?` there and binds the key itself, so
/// the value can neither be forgotten nor come from anywhere else. The marker is not SQL: a
/// statement carrying it fails if it is run on the bare `Database`, and a statement without it is
/// refused by the scope, so "goes through the scope" and "is filtered" are the same thing, which
/// `ScopedSQLTests` checks in every SQL literal of `Sources/`.
protocol ScopeKey {
    /// The text that stands for the key in scoped SQL, such as `{household}`.
    static var marker: String { get }
    /// The statements run under this kind of scope, each rewritten once.
    static var statements: ScopedStatements { get }
    /// The value bound where the marker stands.
    var scopeValue: String { get }
}
