/// An error as GraphQL reports it (spec 7.1.2, "Errors"): a message, the source locations it
/// concerns, the response path for field errors, and free-form extensions.
///
/// Syntax errors thrown by `Parser` are `GraphQLError`s whose message starts with
/// `"Syntax Error: "` and whose single location is where the problem was found; validation
/// and execution report their errors with the same type.
public struct GraphQLError: Error, Sendable, CustomStringConvertible {
    /// One step of a response path: a response key or a list index.
    public enum PathElement: Sendable, Hashable, CustomStringConvertible {
        /// A field's response key.
        case key(String)
        /// A position in a list.
        case index(Int)

        /// The key, or the index in decimal.
        public var description: String {
            switch self {
            case .key(let key): key
            case .index(let index): String(index)
            }
        }
    }

    /// A description of the error for the client.
    public var message: String
    /// The locations in the document the error concerns; empty when it concerns none.
    public var locations: [SourceLocation]
    /// The response path of the field that failed; empty for request errors.
    public var path: [PathElement]
    /// Additional entries for the `extensions` member of the serialized error, in order.
    public var extensions: OrderedMap<String, JSON>
    /// The error a resolver threw, if this error wraps one; never serialized.
    public var underlyingError: (any Error)?

    /// Creates an error.
    public init(
        message: String,
        locations: [SourceLocation] = [],
        path: [PathElement] = [],
        extensions: OrderedMap<String, JSON> = [:],
        underlyingError: (any Error)? = nil
    ) {
        self.message = message
        self.locations = locations
        self.path = path
        self.extensions = extensions
        self.underlyingError = underlyingError
    }

    /// The message followed by the first location, e.g. `Syntax Error: Unexpected "}". (1:7)`.
    public var description: String {
        guard let first = locations.first else { return message }
        return "\(message) (\(first))"
    }

    /// The error as the response's `errors` entry: `message`, then `locations`, `path` and
    /// `extensions` when they are not empty.
    public var json: JSON {
        var object = OrderedMap<String, JSON>()
        object["message"] = .string(message)
        if !locations.isEmpty {
            object["locations"] = .array(locations.map { .object(["line": .int($0.line), "column": .int($0.column)]) })
        }
        if !path.isEmpty {
            object["path"] = .array(path.map {
                switch $0 {
                case .key(let key): .string(key)
                case .index(let index): .int(index)
                }
            })
        }
        if !extensions.isEmpty {
            object["extensions"] = .object(extensions)
        }
        return .object(object)
    }
}
