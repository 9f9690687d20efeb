// Syntax nodes of input values and type references.

/// A literal input value or a variable reference.
///
/// Numbers keep their source text (`int("007")` cannot occur: the lexer rejects leading
/// zeros), so coercion decides how to read them against the expected type, as the spec asks.
public struct Value: Sendable {
    /// The forms a value can take.
    public enum Kind: Sendable {
        /// `$name`; the payload is the name without `$`. Never inside constant values.
        case variable(String)
        /// An integer literal's text, e.g. `-12`.
        case int(String)
        /// A float literal's text, e.g. `1.5e3`.
        case float(String)
        /// A string or block string, after escape processing and block-string dedent.
        case string(String, block: Bool)
        /// `true` or `false`.
        case boolean(Bool)
        /// `null`.
        case null
        /// An enum value: a name other than `true`, `false` and `null`.
        case enumValue(String)
        /// `[ … ]`.
        case list([Value])
        /// `{ name: value … }`, fields in source order.
        case object([ObjectField])
    }

    /// The value's form and contents.
    public let kind: Kind
    /// Where the value lies.
    public let location: Location

    /// Creates a value.
    public init(_ kind: Kind, location: Location) {
        self.kind = kind
        self.location = location
    }

    /// Whether the value contains no variable reference (spec: Value[Const]).
    public var isConstant: Bool {
        switch kind {
        case .variable: false
        case .list(let items): items.allSatisfy(\.isConstant)
        case .object(let fields): fields.allSatisfy(\.value.isConstant)
        default: true
        }
    }
}

/// A field of an input object literal, `name: value`.
public struct ObjectField: Sendable {
    /// The field's name.
    public let name: Name
    /// The field's value.
    public let value: Value
    /// Where the field lies.
    public let location: Location

    /// Creates an object field.
    public init(name: Name, value: Value, location: Location) {
        self.name = name
        self.value = value
        self.location = location
    }
}

/// A string literal used as a description.
public struct StringValue: Sendable, Hashable {
    /// The string's value after escape processing and block-string dedent.
    public let value: String
    /// Whether it was written as a block string (`"""…"""`).
    public let block: Bool
    /// Where the literal lies.
    public let location: Location

    /// Creates a string value.
    public init(value: String, block: Bool, location: Location) {
        self.value = value
        self.block = block
        self.location = location
    }
}

/// A reference to a type: `Name`, `[Type]` or `Type!`.
public indirect enum TypeReference: Sendable, Hashable, CustomStringConvertible {
    /// A named type.
    case named(Name)
    /// A list of the wrapped type; the location spans the brackets.
    case list(TypeReference, Location)
    /// A non-null wrapper of a named or list type; the location spans through `!`.
    case nonNull(TypeReference, Location)

    /// Where the reference lies.
    public var location: Location {
        switch self {
        case .named(let name): name.location
        case .list(_, let location), .nonNull(_, let location): location
        }
    }

    /// The innermost named type.
    public var namedType: Name {
        switch self {
        case .named(let name): name
        case .list(let inner, _), .nonNull(let inner, _): inner.namedType
        }
    }

    /// The reference as GraphQL writes it, e.g. `[String!]!`.
    public var description: String {
        switch self {
        case .named(let name): name.value
        case .list(let inner, _): "[\(inner)]"
        case .nonNull(let inner, _): "\(inner)!"
        }
    }
}
