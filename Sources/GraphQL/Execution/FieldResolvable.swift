/// A model type the default resolver can read fields from, so types whose fields are plain
/// properties need no resolvers.
///
/// ```swift
/// struct User: FieldResolvable {
///     let id: String, name: String
///     func fieldValue(named name: String) -> Any? {
///         switch name { case "id": id; case "name": self.name; default: nil }
///     }
/// }
/// ```
public protocol FieldResolvable {
    /// The value of the field `name`, or `nil` for `null` and unknown fields.
    func fieldValue(named name: String) -> Any?
}

/// A value that knows its GraphQL object type, for interfaces and unions without a type
/// resolver.
public protocol TypeNameResolvable {
    /// The name of the value's object type.
    var graphQLTypeName: String { get }
}

/// An error a resolver can throw to control how it is reported: its message and
/// extensions (such as a stable `code`) are kept.
public protocol GraphQLErrorConvertible: Error {
    /// The error as GraphQL reports it; the executor adds locations and path.
    var graphQLError: GraphQLError { get }
}

/// A parent value prepared for the default resolver (graphql-js `defaultFieldResolver`):
/// its shape is found once per object, not once per field, since dynamic casts dominate
/// the cost of reading plain data (and `ResolvableCast` makes the cast to `FieldResolvable`
/// once per Swift type). Reads `name` from a `[String: any Sendable]`, a
/// `[String: Any]`, an `OrderedMap<String, Any>`, a `JSON` object or a `FieldResolvable`.
enum FieldSource {
    case sendableDictionary([String: any Sendable])
    case dictionary([String: Any])
    case json(JSON)
    case orderedMap(OrderedMap<String, Any>)
    case resolvable(any FieldResolvable)
    case other

    init(_ source: Any) {
        // Exact type checks first: they are pointer comparisons, while casting a
        // `[String: any Sendable]` to `[String: Any]` would convert it element by element.
        if let dictionary = exactValue(source as Any, as: [String: any Sendable].self) {
            self = .sendableDictionary(dictionary)
            return
        }
        let type = Swift.type(of: source)
        if type == [String: Any].self {
            self = .dictionary(source as! [String: Any])
        } else if type == JSON.self {
            self = .json(source as! JSON)
        } else if let resolvable = ResolvableCast.resolvable(source) {
            self = .resolvable(resolvable)
        } else if let map = source as? OrderedMap<String, Any> {
            self = .orderedMap(map)
        } else if let dictionary = source as? [String: Any] {
            self = .dictionary(dictionary)
        } else {
            self = .other
        }
    }

    /// Inlined into the executor, where it reads the payload of the caller's value in place
    /// rather than copying the whole enum (a retain and a release per field) to switch on it.
    @inline(__always)
    func value(named name: String) -> Any? {
        switch self {
        case .sendableDictionary(let dictionary): dictionary[name]
        case .dictionary(let dictionary): dictionary[name]
        case .json(let json): json[name]
        case .orderedMap(let map): map[name]
        case .resolvable(let resolvable): resolvable.fieldValue(named: name)
        case .other: nil
        }
    }
}

/// The default type resolver: `__typename` of a map or `JSON` object, or a
/// `TypeNameResolvable`'s name.
func defaultTypeName(_ value: Any) -> String? {
    switch value {
    case let named as any TypeNameResolvable: return named.graphQLTypeName
    case let dictionary as [String: Any]: return dictionary["__typename"] as? String
    case let json as JSON:
        if case .string(let name) = json["__typename"] { return name }
        return nil
    case let map as OrderedMap<String, Any>: return map["__typename"] as? String
    default: return nil
    }
}

/// Optional values wrapped in `Any`, so that `Optional<T>.none` inside an `Any` reads as
/// `null` however deeply it is nested.
private protocol OptionalValue {
    var wrappedValue: Any? { get }
}

extension Optional: OptionalValue {
    fileprivate var wrappedValue: Any? {
        switch self {
        case .some(let value): value
        case .none: nil
        }
    }
}

/// Whether `type` is an `Optional`, read from its type metadata's kind (the stable Swift ABI
/// puts the kind in the metadata's first word; `Optional` is 0x202). A conformance cast to
/// `OptionalValue` would answer too, at many times the cost, on every value the executor
/// completes.
@inline(__always)
private func isOptionalType(_ type: Any.Type) -> Bool {
    unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self) == 0x202
}

/// The value with optionals unwrapped, or `nil` for GraphQL `null` (`nil`, an empty
/// optional, `JSON.null`).
@inline(__always)
func nonNullValue(_ value: Any?) -> Any? {
    guard var value else { return nil }
    while isOptionalType(type(of: value)) {
        guard let wrapped = (value as! any OptionalValue).wrappedValue else { return nil }
        value = wrapped
    }
    if type(of: value) == JSON.self, case .null = value as! JSON { return nil }
    return value
}

/// `value` (an `Any` or `any Sendable` container) as a `T` when the container holds exactly
/// a `T`, read straight out of it; `nil` otherwise (including for a `T` wrapped in an
/// optional, or any other `Container` type), which callers settle with an ordinary `as?`.
///
/// An opaque existential container without witness tables (`Any`, and `any Sendable`,
/// since `Sendable` is a marker protocol) is three words of inline buffer followed by the
/// held type's metadata; a value of at most three words, with at most word alignment, sits
/// at the start of the buffer when its type is bitwise-takable (the Swift ABI's type
/// layout). A comparison of the metadata and a load then replace the runtime's general
/// cast, which costs as much as the rest of reading a plain field. Every `T` this is used
/// with (`String`, `Int`, `Double`, `Bool`, classes, indirect enums) is bitwise-takable; the
/// size and alignment are checked here.
///
/// Generic over the container so that an `any Sendable` is read where it is, without
/// converting it to `Any`. A caller holding a value typed `Any` passes `value as Any`: that
/// keeps the container closed, where a plain `value` would be opened (SE-0352) and make
/// `Container` the held type.
@inline(__always)
func exactValue<Container, T>(_ value: Container, as type: T.Type) -> T? {
    withExactValue(value, as: type) { $0 }
}

/// `body` applied to the `T` that the container `value` holds exactly, borrowed where it
/// lies (no copy, so no retain of a `String`'s storage); `nil` when `exactValue(_:as:)`
/// would be `nil`.
@inline(__always)
func withExactValue<Container, T, Result>(_ value: Container, as _: T.Type, _ body: (borrowing T) -> Result) -> Result? {
    let word = MemoryLayout<Int>.size
    guard Container.self == Any.self || Container.self == (any Sendable).self,
          MemoryLayout<Container>.size == 4 * word, MemoryLayout<T>.size <= 3 * word,
          MemoryLayout<T>.alignment <= word else { return nil }
    return withUnsafeBytes(of: value) { container in
        guard let start = container.baseAddress,
              container.load(fromByteOffset: 3 * word, as: UInt.self) == UInt(bitPattern: ObjectIdentifier(T.self)) else {
            return nil
        }
        return start.withMemoryRebound(to: T.self, capacity: 1) { body($0.pointee) }
    }
}
