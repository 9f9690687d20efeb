/// A GraphQL schema (spec 3.3): root operation types, every named type reachable from them,
/// and the directives, with the lookups validation and execution need.
///
/// A schema is immutable and `Sendable`; the object and interface types it owns belong to it
/// alone (their fields carry schema-wide indices), and no type can change once a schema was
/// created from it. Create one with `buildSchema(sdl:options:)` or programmatically, then
/// check it with `validateSchema(_:)` (the SDL builder does so by default).
public final class Schema: Sendable {
    /// The schema's description.
    public let description: String?
    /// The query root type; `nil` only in an invalid schema.
    public let queryType: ObjectType?
    /// The mutation root type, if mutations are supported.
    public let mutationType: ObjectType?
    /// The subscription root type, if subscriptions are supported.
    public let subscriptionType: ObjectType?
    /// Every named type by name, including built-in scalars in use and introspection types.
    public let types: OrderedMap<String, NamedType>
    /// The directives, built-in ones included.
    public let directives: [SchemaDirective]
    /// The introspection types and meta-fields of this schema.
    public let introspection: Introspection
    /// Every field of every object and interface type plus the three meta-fields, indexed by
    /// `SchemaField.index`.
    public let fields: [SchemaField]
    /// The `schema { … }` definition node, when built from SDL.
    public let definition: SchemaDefinition?
    /// The `extend schema` nodes, in source order.
    public let extensionDefinitions: [SchemaDefinition]

    private let directivesByName: [String: SchemaDirective]
    private let possibleTypesByAbstractType: [ObjectIdentifier: [ObjectType]]
    private let subTypesByAbstractType: [ObjectIdentifier: Set<ObjectIdentifier>]
    private let interfaceImplementations: [ObjectIdentifier: [InterfaceType]]

    /// Creates a schema from its root types; every type they reference is included, as are
    /// `types` (for types only reachable through abstract types) and the types the directives'
    /// arguments use.
    /// - Throws: `SchemaError` when two different types share a name, or when an object or
    ///   interface type or one of its fields already belongs to another schema.
    public init(
        query: ObjectType?, mutation: ObjectType? = nil, subscription: ObjectType? = nil,
        types: [NamedType] = [], directives: [SchemaDirective] = SchemaDirective.specified,
        description: String? = nil, definition: SchemaDefinition? = nil,
        extensionDefinitions: [SchemaDefinition] = []
    ) throws(SchemaError) {
        self.description = description
        self.queryType = query
        self.mutationType = mutation
        self.subscriptionType = subscription
        self.directives = directives
        self.definition = definition
        self.extensionDefinitions = extensionDefinitions
        let introspection = Introspection()
        self.introspection = introspection

        var collector = TypeCollector()
        // The given types keep their order (SDL definition order); what they reference follows.
        for type in types { collector.insert(type) }
        for type in types { collector.collectReferences(of: type) }
        for root in [query, mutation, subscription] {
            if let root { collector.collect(.object(root)) }
        }
        for directive in directives {
            for argument in directive.arguments { collector.collect(argument.type.namedType) }
        }
        for type in introspection.types { collector.collect(type) }
        if !collector.errors.isEmpty { throw SchemaError(code: .invalidSchema, errors: collector.errors) }
        self.types = collector.types

        var byName: [String: SchemaDirective] = [:]
        for directive in directives where byName[directive.name] == nil { byName[directive.name] = directive }
        directivesByName = byName

        // Claim the types and number their fields.
        var fields: [SchemaField] = []
        var errors: [GraphQLError] = []
        func claim(_ type: NamedType, _ buildPhase: BuildPhase, _ typeFields: OrderedMap<String, SchemaField>) {
            guard buildPhase.close() else {
                errors.append(GraphQLError(message: "Type \(type.name) already belongs to another schema."))
                return
            }
            for field in typeFields.values {
                guard field.index < 0 else {
                    errors.append(GraphQLError(message: "Field \(type.name).\(field.name) already belongs to another type."))
                    continue
                }
                field.index = fields.count
                fields.append(field)
            }
        }
        var possibleTypes: [ObjectIdentifier: [ObjectType]] = [:]
        var interfaceImplementations: [ObjectIdentifier: [InterfaceType]] = [:]
        for type in collector.types.values {
            switch type {
            case .object(let object):
                claim(type, object.buildPhase, object.fields)
                for interface in object.interfaces { possibleTypes[ObjectIdentifier(interface), default: []].append(object) }
            case .interface(let interface):
                claim(type, interface.buildPhase, interface.fields)
                for parent in interface.interfaces {
                    interfaceImplementations[ObjectIdentifier(parent), default: []].append(interface)
                }
            case .union(let union):
                possibleTypes[ObjectIdentifier(union)] = union.types
            case .inputObject(let input):
                _ = input.buildPhase.close()
            case .scalar, .enumType:
                break
            }
        }
        for field in introspection.metaFields {
            field.index = fields.count
            fields.append(field)
        }
        if !errors.isEmpty { throw SchemaError(code: .invalidSchema, errors: errors) }
        self.fields = fields
        self.possibleTypesByAbstractType = possibleTypes
        self.interfaceImplementations = interfaceImplementations

        var subTypes: [ObjectIdentifier: Set<ObjectIdentifier>] = [:]
        for (abstract, objects) in possibleTypes { subTypes[abstract] = Set(objects.map(ObjectIdentifier.init)) }
        for (interface, implementations) in interfaceImplementations {
            subTypes[interface, default: []].formUnion(implementations.map(ObjectIdentifier.init))
        }
        self.subTypesByAbstractType = subTypes
    }

    /// The number of fields, meta-fields included: valid indices are `0..<fieldCount`.
    public var fieldCount: Int { fields.count }

    /// The named type called `name`.
    public func type(named name: String) -> NamedType? { types[name] }

    /// The directive called `name` (without `@`).
    public func directive(named name: String) -> SchemaDirective? { directivesByName[name] }

    /// The root type of an operation kind.
    public func rootType(for operation: OperationType) -> ObjectType? {
        switch operation {
        case .query: queryType
        case .mutation: mutationType
        case .subscription: subscriptionType
        }
    }

    /// The field `name` selected on `parentType`, meta-fields included: `__typename` on every
    /// composite type, `__schema` and `__type` on the query root type (graphql-js
    /// `getFieldDef`). `nil` if the type has no such field.
    public func field(named name: String, on parentType: NamedType) -> SchemaField? {
        if name.utf8.first == UInt8(ascii: "_"), name.hasPrefix("__") {
            switch name {
            case "__typename" where parentType.isCompositeType:
                return introspection.typeNameField
            case "__schema" where isQueryType(parentType):
                return introspection.schemaField
            case "__type" where isQueryType(parentType):
                return introspection.typeField
            default: break
            }
        }
        switch parentType {
        case .object(let object): return object.fields[name]
        case .interface(let interface): return interface.fields[name]
        default: return nil
        }
    }

    private func isQueryType(_ type: NamedType) -> Bool {
        if case .object(let object) = type, let queryType { return object === queryType }
        return false
    }

    /// The object types a value of an abstract type may have at runtime: the members of a
    /// union, the object types implementing an interface; `[type]` for an object type and
    /// `[]` for other kinds.
    public func possibleTypes(of type: NamedType) -> [ObjectType] {
        switch type {
        case .union(let union): union.types
        case .interface(let interface): possibleTypesByAbstractType[ObjectIdentifier(interface)] ?? []
        case .object(let object): [object]
        default: []
        }
    }

    /// The object and interface types that declare they implement `interface`.
    public func implementations(of interface: InterfaceType) -> (objects: [ObjectType], interfaces: [InterfaceType]) {
        (possibleTypesByAbstractType[ObjectIdentifier(interface)] ?? [],
         interfaceImplementations[ObjectIdentifier(interface)] ?? [])
    }

    /// Whether `maybeSubType` is a member of the union or an implementation (object or
    /// interface) of the interface `abstractType`, in O(1).
    public func isSubType(_ maybeSubType: NamedType, of abstractType: NamedType) -> Bool {
        guard abstractType.isAbstractType else { return false }
        return subTypesByAbstractType[abstractType.identity]?.contains(maybeSubType.identity) ?? false
    }

    /// Whether `type` is an object type among the possible types of `abstractType`.
    public func isPossibleType(_ type: ObjectType, of abstractType: NamedType) -> Bool {
        isSubType(.object(type), of: abstractType)
    }
}

/// Collects the named types reachable from a set of types, depth first, as graphql-js does,
/// reporting different types that share a name.
private struct TypeCollector {
    var types = OrderedMap<String, NamedType>()
    var errors: [GraphQLError] = []

    mutating func collect(_ type: NamedType) {
        if insert(type) { collectReferences(of: type) }
    }

    /// Adds `type` without what it references; returns whether it was new.
    @discardableResult
    mutating func insert(_ type: NamedType) -> Bool {
        if let existing = types[type.name] {
            if existing != type {
                errors.append(GraphQLError(
                    message: "Schema must contain uniquely named types but contains multiple types named \"\(type.name)\"."))
            }
            return false
        }
        types[type.name] = type
        return true
    }

    mutating func collectReferences(of type: NamedType) {
        switch type {
        case .object(let object):
            for interface in object.interfaces { collect(.interface(interface)) }
            collect(fields: object.fields)
        case .interface(let interface):
            for parent in interface.interfaces { collect(.interface(parent)) }
            collect(fields: interface.fields)
        case .union(let union):
            for member in union.types { collect(.object(member)) }
        case .inputObject(let input):
            for field in input.fields.values { collect(field.type.namedType) }
        case .scalar, .enumType:
            break
        }
    }

    private mutating func collect(fields: OrderedMap<String, SchemaField>) {
        for field in fields.values {
            collect(field.type.namedType)
            for argument in field.arguments { collect(argument.type.namedType) }
        }
    }
}
