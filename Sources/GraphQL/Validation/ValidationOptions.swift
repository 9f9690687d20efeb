/// How `validate(schema:document:rules:options:)` reports errors.
public struct ValidationOptions: Sendable {
    /// The default `maxErrors`, graphql-js's.
    public static let defaultMaxErrors = 100

    /// The number of errors after which validation stops, adding a last error that says so.
    public var maxErrors: Int
    /// Whether messages may end with "Did you mean …?" suggestions drawn from the schema.
    /// Turn this off when introspection is disabled: suggestions would reveal the schema.
    public var suggestions: Bool
    /// The most comparisons OverlappingFieldsCanBeMerged may make for one document (pairs of
    /// fields of one response name, of fragments, of fields and a fragment, and response names
    /// looked up). Beyond it the rule reports one error and stops, as graphql-core does with its
    /// `MAX_COMPLEXITY_BUDGET`: the rule's work is otherwise quadratic in fields that share a
    /// response name but are written differently, and in fragments spread together.
    public var maxFieldComparisons: Int

    /// The default of `maxFieldComparisons`: a few hundred times what the standard
    /// introspection query or a large application query needs, and a bound on the rule's time
    /// (tens of milliseconds) on any document.
    public static let defaultMaxFieldComparisons = 100_000

    /// Creates options.
    public init(
        maxErrors: Int = ValidationOptions.defaultMaxErrors, suggestions: Bool = true,
        maxFieldComparisons: Int = ValidationOptions.defaultMaxFieldComparisons
    ) {
        self.maxErrors = maxErrors
        self.suggestions = suggestions
        self.maxFieldComparisons = maxFieldComparisons
    }
}
