/// Why a schema could not be built: SDL syntax errors, definitions that do not fit together
/// (unknown types, duplicate names, bad extensions) or violations of the type system rules
/// (spec section 3), all of them, each with its locations.
public struct SchemaError: Error, Sendable, CustomStringConvertible {
    /// What kind of problem stopped the build.
    public enum Code: Sendable, Hashable {
        /// The SDL does not parse; `errors` holds the one syntax error.
        case syntaxError
        /// The SDL parses but its definitions are inconsistent or break the spec's rules.
        case invalidSchema
    }

    /// What kind of problem stopped the build.
    public let code: Code
    /// Every problem found, in the order found.
    public let errors: [GraphQLError]

    /// Creates a schema error.
    public init(code: Code, errors: [GraphQLError]) {
        self.code = code
        self.errors = errors
    }

    /// One line per problem: the message and its first location.
    public var description: String {
        errors.map(\.description).joined(separator: "\n")
    }
}
