/// A field's value as JSON text completed by an earlier execution of the same selection: a
/// resolver's async work (`Resolution.async`) returns it to have the text written as the field's value,
/// without completing anything below the field. The application keeps it from a
/// ``CapturedValue`` and is responsible for returning it only where completing the value afresh
/// would write the same text: the same ``SelectionIdentity`` and unchanged data.
public final class SerializedValue: Sendable {
    let text: JSONText

    init(_ text: JSONText) {
        self.text = text
    }

    /// The length of the text in bytes, for bounding what a cache holds.
    public var byteCount: Int { text.bytes.count }

    /// The text, for tests and diagnostics (a copy).
    public var bytes: [UInt8] { text.array }
}

/// A value for the executor to complete as usual whose completed text it then hands to
/// `keep`, when the field and everything below it completed without an error (a field error
/// anywhere inside, or the field becoming `null` through one, keeps nothing). Returned by the
/// async work of a resolver (`Resolution.async`); elsewhere it is completed like any value of
/// an unexpected type.
public struct CapturedValue: @unchecked Sendable {
    /// The value to complete (what the resolver would have returned).
    public let value: Any?
    /// Receives the field's completed text once the whole field is complete.
    public let keep: @Sendable (SerializedValue) -> Void

    /// `@unchecked Sendable`: `value` is whatever a resolver returns, which the executor
    /// already passes between its suspension points on one task, as it does every value.
    public init(_ value: Any?, keep: @escaping @Sendable (SerializedValue) -> Void) {
        self.value = value
        self.keep = keep
    }
}

/// What a field's completed text depends on besides the value its resolver returns: the
/// executor, the prepared operation (its document, operation and therefore the selection below
/// the field), the field's place in the response, and the request's variable values (which
/// arguments and `@skip`/`@include` below it may read). Two resolutions with equal identities
/// whose resolvers return equal data complete to the same text, so an application may key a
/// cache of ``SerializedValue``s by it (and by whatever of its own the resolvers read: the
/// viewer, the data's version). Holds the operation, so an identity's address is never reused
/// while a cache keeps it.
public struct SelectionIdentity: Hashable, Sendable {
    let executor: Executor
    let operation: PreparedOperation
    let path: [GraphQLError.PathElement]
    let variables: [String: JSON]

    public static func == (lhs: SelectionIdentity, rhs: SelectionIdentity) -> Bool {
        lhs.executor === rhs.executor && lhs.operation === rhs.operation && lhs.path == rhs.path && lhs.variables == rhs.variables
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(operation))
        hasher.combine(path)
        hasher.combine(variables)
    }
}

extension ResolveInfo {
    /// The identity of this field's selection in this request (see ``SelectionIdentity``).
    public var selectionIdentity: SelectionIdentity {
        SelectionIdentity(executor: request.executor, operation: request.prepared, path: responsePath.elements, variables: request.variableValues)
    }
}
