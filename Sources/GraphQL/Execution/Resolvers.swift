/// What a field resolver produces: a value now, or work to await.
///
/// The executor completes `.value` results synchronously and suspends only at fields that
/// return `.async`, so a request whose resolvers all answer immediately never suspends.
public enum Resolution {
    /// The field's value: a Swift value (`String`, `Int`, `Double`, `Bool`, arrays, optionals),
    /// `JSON`, an enum's raw value, or an application object the next level resolves from.
    /// `nil` is GraphQL `null`.
    case value(Any?)
    /// Work that produces the value; awaited once, at this field.
    case async(() async throws -> Any?)
}

/// A field resolver: the parent value, the coerced arguments, the application's context
/// value and information about the field; returns the field's value or async work.
///
/// Throw a `GraphQLError` (or an error conforming to `GraphQLErrorConvertible`) to report a
/// field error with its own message and extensions; any other error is reported with its
/// `String(describing:)` and kept as `GraphQLError.underlyingError`.
public typealias FieldResolver = @Sendable (
    _ source: Any, _ arguments: Arguments, _ context: any Sendable, _ info: ResolveInfo
) throws -> Resolution

/// A resolver as attached to a field: the application's, or one of the engine's own for the
/// introspection types.
enum AttachedResolver: Sendable {
    /// An application resolver.
    case resolver(FieldResolver)
    /// A field of an introspection type, which the executor resolves itself.
    case introspection(IntrospectionField)
}

/// Decides the object type of a value of an interface or union type: returns the type's name.
public typealias TypeResolver = @Sendable (
    _ value: Any, _ context: any Sendable, _ info: ResolveInfo
) throws -> String?

/// Creates the source event stream of a subscription root field (spec
/// CreateSourceEventStream): each element becomes the root value of one response.
public typealias SubscriptionResolver = @Sendable (
    _ source: Any, _ arguments: Arguments, _ context: any Sendable, _ info: ResolveInfo
) async throws -> AsyncThrowingStream<any Sendable, any Error>

/// The resolvers of an SDL-first schema, attached by type and field name and stored by
/// `SchemaField.index`, so the executor finds a field's resolver with one array access.
///
/// Fields without a resolver use the default resolver, which reads the field by name from
/// the parent value: a `[String: Any]`, an `OrderedMap<String, Any>`, a `JSON` object or a
/// `FieldResolvable`. Abstract types without a type resolver read `__typename` from such a
/// map or ask a `TypeNameResolvable`. Introspection's meta-fields are resolved built in.
///
/// ```swift
/// var resolvers = Resolvers(schema: schema)
/// resolvers.resolve("Query", "hello") { _, arguments, _, _ in "Hello, \(arguments.string("name") ?? "world")" }
/// resolvers.resolveAsync("Query", "user") { _, arguments, context, _ in try await (context as! App).user(arguments.string("id")!) }
/// let executor = try Executor(resolvers: resolvers)
/// ```
///
/// Naming a type or field the schema does not have is recorded and reported by
/// `Executor.init`, so a typo fails at start, not at the first request.
public struct Resolvers: Sendable {
    /// The schema the resolvers belong to.
    public let schema: Schema
    var fieldResolvers: [AttachedResolver?]
    var subscriptionResolvers: [SubscriptionResolver?]
    var typeResolvers: [ObjectIdentifier: TypeResolver] = [:]
    var unknownNames: [String] = []

    /// Creates an empty set of resolvers for `schema`.
    public init(schema: Schema) {
        self.schema = schema
        fieldResolvers = Array(repeating: nil, count: schema.fieldCount)
        subscriptionResolvers = Array(repeating: nil, count: schema.fieldCount)
        Introspection.install(into: &self)
    }

    /// Attaches a synchronous resolver to `typeName.fieldName`; it returns the value
    /// (`nil` for `null`).
    public mutating func resolve(
        _ typeName: String, _ fieldName: String,
        _ resolver: @escaping @Sendable (_ source: Any, _ arguments: Arguments, _ context: any Sendable, _ info: ResolveInfo) throws -> Any?
    ) {
        resolveField(typeName, fieldName) { source, arguments, context, info in
            .value(try resolver(source, arguments, context, info))
        }
    }

    /// Attaches an asynchronous resolver to `typeName.fieldName`; the executor awaits it at
    /// this field only.
    public mutating func resolveAsync(
        _ typeName: String, _ fieldName: String,
        _ resolver: @escaping @Sendable (_ source: Any, _ arguments: Arguments, _ context: any Sendable, _ info: ResolveInfo) async throws -> Any?
    ) {
        resolveField(typeName, fieldName) { source, arguments, context, info in
            .async { try await resolver(source, arguments, context, info) }
        }
    }

    /// Attaches a resolver that decides per call whether it answers now or asynchronously
    /// (a cache hit versus a database round trip).
    ///
    /// Attached to an interface field, the resolver serves that field on every object type
    /// implementing the interface (replacing what was attached there before); attach
    /// object-specific resolvers afterwards.
    public mutating func resolveField(_ typeName: String, _ fieldName: String, _ resolver: @escaping FieldResolver) {
        guard let field = field(typeName, fieldName) else { return }
        resolve(field, resolver)
        if let type = schema.type(named: typeName), case .interface = type {
            for object in schema.possibleTypes(of: type) {
                if let implementation = object.fields[fieldName] { resolve(implementation, resolver) }
            }
        }
    }

    /// Attaches the source stream of the subscription root field `fieldName`. Each event the
    /// stream yields is the root value of one response; the field's own resolver (if one is
    /// attached with `resolve`) maps the event to the field's value, otherwise the event
    /// itself is the field's value.
    public mutating func subscribe(_ fieldName: String, _ resolver: @escaping SubscriptionResolver) {
        guard let subscriptionType = schema.subscriptionType else {
            unknownNames.append("subscription root type (for field \"\(fieldName)\")")
            return
        }
        guard let field = field(subscriptionType.name, fieldName) else { return }
        subscriptionResolvers[field.index] = resolver
    }

    /// Attaches the type resolver of the interface or union `typeName`.
    public mutating func resolveType(_ typeName: String, _ resolver: @escaping TypeResolver) {
        guard let type = schema.type(named: typeName), type.isAbstractType else {
            unknownNames.append("abstract type \"\(typeName)\"")
            return
        }
        typeResolvers[type.identity] = resolver
    }

    /// Wraps the resolver of every field of the object type `typeName` except those named in
    /// `excluded`: `wrap` receives the field's name and its resolver and returns the resolver
    /// to use instead. For cross-cutting checks (authorization, policy gates) applied once,
    /// after every resolver is attached, so a field added later cannot escape them.
    ///
    /// A field without an attached resolver is wrapped around the default resolver (the field
    /// read by name from the parent value; on the subscription root type, the event itself).
    /// Introspection's meta-fields (`__typename`, `__schema`, `__type`) are not fields of the
    /// type and are never wrapped. On the subscription root type these are the resolvers run
    /// for each event; to act once when a client subscribes, use ``wrapSubscriptions(except:_:)``.
    ///
    /// An unknown type, or a name in `excluded` that is not a field of it, is recorded and
    /// reported by `Executor.init`, like a typo elsewhere.
    public mutating func wrapFields(
        of typeName: String, except excluded: Set<String> = [],
        _ wrap: (_ fieldName: String, _ resolver: @escaping FieldResolver) -> FieldResolver
    ) {
        guard let type = schema.type(named: typeName), case .object(let object) = type else {
            unknownNames.append("object type \"\(typeName)\"")
            return
        }
        reportUnknown(excluded, of: object)
        let isSubscriptionRoot = object === schema.subscriptionType
        for (name, field) in object.fields where !excluded.contains(name) {
            let current: FieldResolver
            switch fieldResolvers[field.index] {
            case .resolver(let resolver)?:
                current = resolver
            case .introspection?:
                continue
            case nil where isSubscriptionRoot:
                current = { source, _, _, _ in .value(source) }
            case nil:
                current = { source, _, _, _ in .value(FieldSource(source).value(named: name)) }
            }
            fieldResolvers[field.index] = .resolver(wrap(name, current))
        }
    }

    /// Wraps the source-stream resolver of every subscription root field except those named in
    /// `excluded` (see ``subscribe(_:_:)``): `wrap` receives the field's name and its resolver
    /// and returns the one to use instead, which runs once per subscription, before any event.
    /// Fields without a source stream are left alone: subscribing to them fails regardless.
    ///
    /// A schema without a subscription type has nothing to wrap; a name in `excluded` that is
    /// not a subscription field is recorded and reported by `Executor.init`.
    public mutating func wrapSubscriptions(
        except excluded: Set<String> = [],
        _ wrap: (_ fieldName: String, _ resolver: @escaping SubscriptionResolver) -> SubscriptionResolver
    ) {
        guard let subscriptionType = schema.subscriptionType else {
            for name in excluded.sorted() { unknownNames.append("subscription field \"\(name)\"") }
            return
        }
        reportUnknown(excluded, of: subscriptionType)
        for (name, field) in subscriptionType.fields where !excluded.contains(name) {
            if let resolver = subscriptionResolvers[field.index] { subscriptionResolvers[field.index] = wrap(name, resolver) }
        }
    }

    private mutating func reportUnknown(_ names: Set<String>, of type: ObjectType) {
        for name in names.sorted() where type.fields[name] == nil {
            unknownNames.append("field \"\(type.name).\(name)\"")
        }
    }

    private mutating func field(_ typeName: String, _ fieldName: String) -> SchemaField? {
        guard let type = schema.type(named: typeName), let field = type.fields?[fieldName] else {
            unknownNames.append("field \"\(typeName).\(fieldName)\"")
            return nil
        }
        return field
    }

    /// Attaches a resolver to a field given by definition (the introspection types).
    mutating func resolve(_ field: SchemaField, _ resolver: @escaping FieldResolver) {
        fieldResolvers[field.index] = .resolver(resolver)
    }

    /// Attaches one of the engine's own resolvers to a field given by definition.
    mutating func attach(_ resolver: AttachedResolver, to field: SchemaField) {
        fieldResolvers[field.index] = resolver
    }
}
