/// How `validate(schema:document:rules:options:)` reports errors.
public struct ValidationOptions: Sendable {
    /// The default `maxErrors`, graphql-js's.
    public static let defaultMaxErrors = 100

    /// The number of errors after which validation stops, adding a last error that says so.
    public var maxErrors: Int
    /// Whether messages may end with "Did you mean …?" suggestions drawn from the schema.
    /// Turn this off when introspection is disabled: suggestions would reveal the schema.
    public var suggestions: Bool

    /// Creates options.
    public init(maxErrors: Int = ValidationOptions.defaultMaxErrors, suggestions: Bool = true) {
        self.maxErrors = maxErrors
        self.suggestions = suggestions
    }
}
