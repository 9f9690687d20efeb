/// A type as a field, argument, input field or variable uses it: a named type, possibly
/// wrapped in lists and non-null markers (the schema-side counterpart of the syntax tree's
/// `TypeReference`).
///
/// A `nonNull` never directly wraps another `nonNull`; `SchemaBuilder` and the SDL builder
/// only produce well-formed references.
public indirect enum SchemaType: Sendable, Hashable, CustomStringConvertible {
    /// A named type.
    case named(NamedType)
    /// A list of the wrapped type.
    case list(SchemaType)
    /// The wrapped type without `null`.
    case nonNull(SchemaType)

    /// The innermost named type.
    public var namedType: NamedType {
        switch self {
        case .named(let type): type
        case .list(let inner), .nonNull(let inner): inner.namedType
        }
    }

    /// The type without its outer non-null wrapper, if any.
    public var nullableType: SchemaType {
        if case .nonNull(let inner) = self { return inner }
        return self
    }

    /// Whether the outer wrapper is non-null.
    public var isNonNull: Bool {
        if case .nonNull = self { return true }
        return false
    }

    /// Whether the type, ignoring its non-null wrapper, is a list.
    public var isList: Bool {
        if case .list = nullableType { return true }
        return false
    }

    /// Whether values of this type may be used as inputs (its named type is a scalar, enum or
    /// input object).
    public var isInputType: Bool { namedType.isInputType }
    /// Whether fields may have this type (its named type is not an input object).
    public var isOutputType: Bool { namedType.isOutputType }
    /// Whether this is an unwrapped scalar or enum.
    public var isLeafType: Bool {
        if case .named(let type) = self { return type.isLeafType }
        return false
    }
    /// Whether this is an unwrapped interface or union.
    public var isAbstractType: Bool {
        if case .named(let type) = self { return type.isAbstractType }
        return false
    }
    /// Whether this is an unwrapped object, interface or union.
    public var isCompositeType: Bool {
        if case .named(let type) = self { return type.isCompositeType }
        return false
    }

    /// The type as GraphQL writes it, e.g. `[Foo!]!`.
    public var description: String {
        switch self {
        case .named(let type): type.name
        case .list(let inner): "[\(inner)]"
        case .nonNull(let inner): "\(inner)!"
        }
    }

    /// Whether two types are the same: the same wrappers around the same named type
    /// (graphql-js `isEqualType`).
    public func isEqual(to other: SchemaType) -> Bool { self == other }
}
