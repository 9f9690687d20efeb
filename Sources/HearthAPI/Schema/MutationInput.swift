import GraphQL
import HearthDomain
import HearthServices

/// The `input` argument of a mutation (`input: XInput!`), as the executor has coerced it to
/// the schema's input type, with the readings every mutation resolver needs.
///
/// The executor has already refused a request whose input lacks a non-null field or names an
/// unknown enum value (spec CoerceInputValue), so the throwing readings fail only when a
/// resolver and `schema.graphql` disagree; they then answer `BAD_USER_INPUT` on
/// `input.<field>` rather than trapping or passing a made-up value on to a service.
struct MutationInput: Sendable {
    /// The fields given, by name; absent fields are missing, fields given as `null` are `.null`.
    let fields: OrderedMap<String, JSON>
    /// Where these fields sit, as problems name them: `input`, or `input.<field>` for a nested
    /// input object.
    let path: String

    /// The `input` argument of `arguments`, empty when absent.
    init(_ arguments: Arguments) {
        fields = arguments.input
        path = "input"
    }

    /// The nested input object `fields`, found at `input.<field>`.
    init(fields: OrderedMap<String, JSON>, field: String) {
        self.init(fields: fields, path: "input.\(field)")
    }

    /// The input object `fields`, found at `path` (`input.steps[0].completers`).
    init(fields: OrderedMap<String, JSON>, path: String) {
        self.fields = fields
        self.path = path
    }

    /// The `clientMutationId` to remember the mutation by and echo in its payload.
    var clientMutationID: String? { string("clientMutationId") }

    /// The `String`, `ID` or enum field `field`; `nil` when absent or `null`.
    func string(_ field: String) -> String? {
        fields.string(field)
    }

    /// The `String!` or `ID!` field `field`.
    /// - Throws: `BAD_USER_INPUT` (`REQUIRED`) on `input.<field>` when it is missing.
    func requiredString(_ field: String) throws -> String {
        guard let text = string(field) else { throw problem(field, .required, "This field is required.") }
        return text
    }

    /// The fields of the non-null input-object field `field` (an `@oneOf` reference, say).
    /// - Throws: `BAD_USER_INPUT` (`REQUIRED`) on `input.<field>` when it is missing.
    func requiredObject(_ field: String) throws -> OrderedMap<String, JSON> {
        guard case .object(let object)? = fields[field] else { throw problem(field, .required, "This field is required.") }
        return object
    }

    /// The input-object field `field` as an input of its own; `nil` when absent or `null`.
    func object(_ field: String) -> MutationInput? {
        guard case .object(let object)? = fields[field] else { return nil }
        return MutationInput(fields: object, path: "\(path).\(field)")
    }

    /// The list of input objects `field`, each an input of its own at `<path>.<field>[i]`; `nil`
    /// when absent or `null`.
    func objects(_ field: String) -> [MutationInput]? {
        guard case .array(let items)? = fields[field] else { return nil }
        return items.enumerated().compactMap { index, item in
            guard case .object(let object) = item else { return nil }
            return MutationInput(fields: object, path: "\(path).\(field)[\(index)]")
        }
    }

    /// The `[String!]` or `[ID!]` field `field`; `nil` when absent or `null`.
    func strings(_ field: String) -> [String]? {
        guard case .array(let items)? = fields[field] else { return nil }
        return items.compactMap { item in if case .string(let text) = item { text } else { nil } }
    }

    /// The stored values of the enum-list field `field`; `nil` when absent or `null`.
    /// - Throws: `BAD_USER_INPUT` (`UNKNOWN_VALUE`) on `<path>.<field>` for a name the stored enum does not have.
    func enumValues<Value: RawRepresentable<String>>(_ field: String, as type: Value.Type = Value.self) throws -> [Value]? {
        try strings(field)?.map { name in
            guard let value = GraphQLEnum.value(name, as: type) else { throw problem(field, .unknownValue, "Choose one of the listed values.") }
            return value
        }
    }

    /// The `Boolean` field `field`; `nil` when absent or `null`.
    func bool(_ field: String) -> Bool? {
        if case .bool(let value)? = fields[field] { value } else { nil }
    }

    /// The `Int` field `field`; `nil` when absent or `null`.
    func int(_ field: String) -> Int? {
        if case .int(let number)? = fields[field] { number } else { nil }
    }

    /// The `Float` field `field` (an integral value reads as a double too); `nil` when absent or `null`.
    func double(_ field: String) -> Double? {
        switch fields[field] {
        case .double(let value)?: value
        case .int(let value)?: Double(value)
        default: nil
        }
    }

    /// The bytes of the `Upload` field `field`, which names a file of the multipart request
    /// (graphql-multipart-request-spec): `nil` when absent, `.some(nil)` when given as `null`.
    /// - Throws: `BAD_USER_INPUT` (`REQUIRED`) on `<path>.<field>` when the request carries no such file.
    func upload(_ field: String, in uploads: [String: UploadedFile]) throws -> [UInt8]?? {
        guard let value = fields[field] else { return nil }
        guard case .string(let name) = value else { return .some(nil) }
        guard let file = uploads[name] else {
            throw problem(field, .required, "Send the file as a part of a multipart request (graphql-multipart-request-spec).")
        }
        return .some(file.bytes)
    }

    /// The `Boolean!` field `field`.
    /// - Throws: `BAD_USER_INPUT` (`REQUIRED`) on `input.<field>` when it is missing.
    func requiredBool(_ field: String) throws -> Bool {
        guard let value = bool(field) else { throw problem(field, .required, "This field is required.") }
        return value
    }

    /// The string field `field` of an edit: `nil` when absent (keep the value), `.some(nil)`
    /// when given as `null` (clear it), `.some(text)` to set it.
    func change(_ field: String) -> String?? {
        change(field, string)
    }

    /// The field `field` of an edit read by `read` (``int(_:)`` for an `Int`): `nil` when
    /// absent (keep the value), `.some(nil)` when given as `null` (clear it).
    func change<Value>(_ field: String, _ read: (String) -> Value?) -> Value?? {
        fields[field].map { _ in read(field) }
    }

    /// The stored value of the non-null enum field `field` (`CO_PARENT` is `co_parent`).
    /// - Throws: `BAD_USER_INPUT` on `input.<field>`: `REQUIRED` when it is missing,
    ///   `UNKNOWN_VALUE` for a name the stored enum does not have.
    func enumValue<Value: RawRepresentable<String>>(_ field: String, as type: Value.Type = Value.self) throws -> Value {
        guard let value = try optionalEnumValue(field, as: type) else { throw problem(field, .required, "This field is required.") }
        return value
    }

    /// The stored value of the nullable enum field `field`; `nil` when absent or `null`.
    /// - Throws: `BAD_USER_INPUT` (`UNKNOWN_VALUE`) on `input.<field>` for a name the stored
    ///   enum does not have.
    func optionalEnumValue<Value: RawRepresentable<String>>(_ field: String, as type: Value.Type = Value.self) throws -> Value? {
        guard let name = string(field) else { return nil }
        guard let value = GraphQLEnum.value(name, as: type) else {
            throw problem(field, .unknownValue, "Choose one of the listed values.")
        }
        return value
    }

    /// `BAD_USER_INPUT` with one problem on `<path>.<field>`.
    func problem(_ field: String, _ reason: FieldProblem.Reason, _ message: String) -> ServiceError {
        Self.problem(field, reason, message, path: path)
    }

    /// `BAD_USER_INPUT` with one problem on `<path>.<field>` (`input.<field>` by default).
    static func problem(_ field: String, _ reason: FieldProblem.Reason, _ message: String, path: String = "input") -> ServiceError {
        ServiceError.invalid(InputProblems([FieldProblem(field: "\(path).\(field)", reason: reason, message: message)]))
    }
}

extension Resolvers {
    /// Attaches the resolver of the root mutation field `name`, which takes `input: XInput!`
    /// and answers an `XPayload` object.
    ///
    /// `body` receives the input and the request's context and returns the payload's fields;
    /// the input's `clientMutationId` is echoed into every payload (a payload type without
    /// that field never asks for it).
    mutating func resolveMutation(
        _ name: String, _ body: @escaping @Sendable (MutationInput, RequestContext) async throws -> [String: any Sendable]
    ) {
        resolveAsync("Mutation", name) { _, arguments, context, _ in
            let input = MutationInput(arguments)
            var payload = try await body(input, RequestContext.of(context))
            payload["clientMutationId"] = input.clientMutationID
            return payload
        }
    }
}
