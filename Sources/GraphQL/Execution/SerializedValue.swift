import Synchronization

/// A field's value as JSON text completed by an earlier execution of the same selection: a
/// resolver's async work (`Resolution.async`) returns it to have the text written as the field's value,
/// without completing anything below the field. The application keeps it from a
/// ``CapturedValue`` and is responsible for returning it only where completing the value afresh
/// would write the same text: the same ``SelectionIdentity`` and unchanged data.
///
/// What the application derives from a response made of this value alone (its compressed
/// encoding, say) can live with the value: ``derived(for:_:)``.
public final class SerializedValue: Sendable {
    let text: JSONText
    /// The one thing derived from a response framing this value, and for which framing.
    private let derivation = Mutex<(framing: FramedValue.Framing, value: any Sendable)?>(nil)

    init(_ text: JSONText) {
        self.text = text
    }

    /// What `make` derives from a response that is `framing` around this value, made once
    /// and returned again for the same framing as long as the value lives (another framing
    /// replaces it: one is kept). `make` runs outside any lock; two first calls at once may
    /// both run it, and the later result is kept.
    public func derived<Derived: Sendable>(for framing: FramedValue.Framing, _ make: () -> Derived) -> Derived {
        if let kept = derivation.withLock({ $0 }), kept.framing == framing, let value = kept.value as? Derived {
            return value
        }
        let value = make()
        derivation.withLock { $0 = (framing, value) }
        return value
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
    /// The coerced variable values in the order of the operation's definitions (`nil`: not
    /// given, no default): equal operations define the same variables, so this compares and
    /// hashes as the values by name do, without a lookup or hasher per name.
    let variables: [JSON?]

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
        SelectionIdentity(
            executor: request.executor, operation: request.prepared, path: responsePath.elements,
            variables: request.prepared.operation.variableDefinitions.map { request.variableValues[$0.variable.name.value] })
    }
}

/// A response's data that is one ``SerializedValue`` with constant text around it (a kept list
/// asked for alone: `{"myChores":` + the value + `}`), so that whatever the transport derives
/// from the whole response can be kept with the value (``SerializedValue/derived(for:_:)``).
public struct FramedValue: Sendable {
    /// The text around the value.
    public struct Framing: Sendable, Hashable {
        /// The data's text before the value.
        public let prefix: [UInt8]
        /// The data's text after the value.
        public let suffix: [UInt8]
    }

    /// The value.
    public let value: SerializedValue
    /// The text around it.
    public let framing: Framing

    /// The data's text: the framing around the value (a copy).
    var text: [UInt8] { framing.prefix + Array(value.text.bytes) + framing.suffix }

    /// The whole response, `{"data":` the data `}`, written once into an array of its size.
    var response: [UInt8] {
        let body = value.text.bytes
        var response: [UInt8] = []
        response.reserveCapacity(Self.responseHead.count + framing.prefix.count + body.count + framing.suffix.count + 1)
        response += Self.responseHead
        response += framing.prefix
        response.append(contentsOf: body)
        response += framing.suffix
        response.append(UInt8(ascii: "}"))
        return response
    }

    private static let responseHead = Array(#"{"data":"#.utf8)
}
