/// A named type of a schema (spec 3.4): one of the six kinds, each a final class.
///
/// Named types are compared by identity: a schema holds exactly one instance per name, so two
/// `NamedType` values are equal when they wrap the same object. Switching over the cases is
/// how the validator and executor dispatch on the kind of a type.
public enum NamedType: Sendable, Hashable, CustomStringConvertible {
    /// A scalar type.
    case scalar(ScalarType)
    /// An object type.
    case object(ObjectType)
    /// An interface type.
    case interface(InterfaceType)
    /// A union type.
    case union(UnionType)
    /// An enum type.
    case enumType(EnumType)
    /// An input object type.
    case inputObject(InputObjectType)

    /// The type's name.
    public var name: String {
        switch self {
        case .scalar(let type): type.name
        case .object(let type): type.name
        case .interface(let type): type.name
        case .union(let type): type.name
        case .enumType(let type): type.name
        case .inputObject(let type): type.name
        }
    }

    /// The type's description.
    public var typeDescription: String? {
        switch self {
        case .scalar(let type): type.description
        case .object(let type): type.description
        case .interface(let type): type.description
        case .union(let type): type.description
        case .enumType(let type): type.description
        case .inputObject(let type): type.description
        }
    }

    /// The type's name and description as quoted JSON text, for introspection.
    var quoted: QuotedText {
        switch self {
        case .scalar(let type): type.quoted
        case .object(let type): type.quoted
        case .interface(let type): type.quoted
        case .union(let type): type.quoted
        case .enumType(let type): type.quoted
        case .inputObject(let type): type.quoted
        }
    }

    /// The kind as introspection names it (`__TypeKind`), e.g. `"OBJECT"`.
    public var kindName: String {
        switch self {
        case .scalar: "SCALAR"
        case .object: "OBJECT"
        case .interface: "INTERFACE"
        case .union: "UNION"
        case .enumType: "ENUM"
        case .inputObject: "INPUT_OBJECT"
        }
    }

    /// The type's definition node, if it was built from SDL.
    public var definition: TypeDefinition? {
        switch self {
        case .scalar(let type): type.definition.map(TypeDefinition.scalar)
        case .object(let type): type.definition.map(TypeDefinition.object)
        case .interface(let type): type.definition.map(TypeDefinition.interface)
        case .union(let type): type.definition.map(TypeDefinition.union)
        case .enumType(let type): type.definition.map(TypeDefinition.enumType)
        case .inputObject(let type): type.definition.map(TypeDefinition.inputObject)
        }
    }

    /// The type's extension nodes (`extend …`), in source order.
    public var extensionDefinitions: [TypeDefinition] {
        switch self {
        case .scalar(let type): type.extensionDefinitions.map(TypeDefinition.scalar)
        case .object(let type): type.extensionDefinitions.map(TypeDefinition.object)
        case .interface(let type): type.extensionDefinitions.map(TypeDefinition.interface)
        case .union(let type): type.extensionDefinitions.map(TypeDefinition.union)
        case .enumType(let type): type.extensionDefinitions.map(TypeDefinition.enumType)
        case .inputObject(let type): type.extensionDefinitions.map(TypeDefinition.inputObject)
        }
    }

    /// Whether values of this type may be used as inputs: scalars, enums and input objects.
    public var isInputType: Bool {
        switch self {
        case .scalar, .enumType, .inputObject: true
        case .object, .interface, .union: false
        }
    }

    /// Whether fields may return this type: everything but input objects.
    public var isOutputType: Bool {
        if case .inputObject = self { return false }
        return true
    }

    /// Whether this is a scalar or an enum (a leaf of a response).
    public var isLeafType: Bool {
        switch self {
        case .scalar, .enumType: true
        default: false
        }
    }

    /// Whether this is an interface or a union.
    public var isAbstractType: Bool {
        switch self {
        case .interface, .union: true
        default: false
        }
    }

    /// Whether this is an object, interface or union (a type with a selection set).
    public var isCompositeType: Bool {
        switch self {
        case .object, .interface, .union: true
        default: false
        }
    }

    /// The fields of an object or interface type; `nil` for other kinds.
    public var fields: OrderedMap<String, SchemaField>? {
        switch self {
        case .object(let type): type.fields
        case .interface(let type): type.fields
        default: nil
        }
    }

    /// Whether this is one of the introspection types (`__Schema`, `__Type`, …).
    public var isIntrospectionType: Bool {
        Introspection.typeNames.contains(name)
    }

    /// Whether this is one of the scalars the spec defines: `Int`, `Float`, `String`,
    /// `Boolean`, `ID`.
    public var isSpecifiedScalar: Bool {
        if case .scalar(let scalar) = self { return ScalarType.specified.contains { $0 === scalar } }
        return false
    }

    var identity: ObjectIdentifier {
        switch self {
        case .scalar(let type): ObjectIdentifier(type)
        case .object(let type): ObjectIdentifier(type)
        case .interface(let type): ObjectIdentifier(type)
        case .union(let type): ObjectIdentifier(type)
        case .enumType(let type): ObjectIdentifier(type)
        case .inputObject(let type): ObjectIdentifier(type)
        }
    }

    /// Two named types are equal when they are the same object.
    public static func == (lhs: NamedType, rhs: NamedType) -> Bool {
        lhs.identity == rhs.identity
    }

    /// Hashes the identity of the wrapped object.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
    }

    /// The type's name.
    public var description: String { name }
}
