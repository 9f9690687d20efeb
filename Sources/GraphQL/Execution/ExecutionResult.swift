/// The result of executing an operation (spec 7.1, "Response Format"): the data, the errors
/// in the order they occurred, and extensions.
///
/// Serialized by `serialized(pretty:)` or `write(to:)` in graphql-js's key order: `errors`
/// (only when there are some), then `data` (absent when a request error stopped execution
/// before it started, `null` when a non-null field error reached the root), then
/// `extensions` (only when set). The spec recommends `errors` first so that readers see
/// them.
public struct ExecutionResult: Sendable {
    private enum Data: Sendable {
        case absent
        case json(JSON)
        case tree(ResultNode)
    }

    private var storage: Data
    /// The field and request errors.
    public var errors: [GraphQLError]
    /// Entries of the response's `extensions` member, if any.
    public var extensions: OrderedMap<String, JSON>?

    /// Creates a result from data and errors.
    /// - Parameter data: The data; `nil` when execution did not start (request errors).
    public init(data: JSON?, errors: [GraphQLError] = [], extensions: OrderedMap<String, JSON>? = nil) {
        storage = data.map(Data.json) ?? .absent
        self.errors = errors
        self.extensions = extensions
    }

    init(tree: ResultNode, errors: [GraphQLError]) {
        storage = .tree(tree)
        self.errors = errors
        extensions = nil
    }

    /// A result carrying request errors only: no `data` member.
    init(requestErrors: [GraphQLError]) {
        storage = .absent
        errors = requestErrors
        extensions = nil
    }

    /// The data: `nil` when execution did not start, `.null` when the root is null.
    public var data: JSON? {
        switch storage {
        case .absent: nil
        case .json(let json): json
        case .tree(let tree): tree.json
        }
    }

    /// Whether the response has a `data` member (execution started).
    public var hasData: Bool {
        if case .absent = storage { return false }
        return true
    }

    /// The response as a JSON value.
    public var json: JSON {
        var object = OrderedMap<String, JSON>(minimumCapacity: 3)
        if !errors.isEmpty { object["errors"] = .array(errors.map(\.json)) }
        if let data { object["data"] = data }
        if let extensions { object["extensions"] = .object(extensions) }
        return .object(object)
    }

    /// Writes the response into `writer` without building an intermediate JSON tree.
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        if !errors.isEmpty {
            writer.key("errors")
            writer.beginArray()
            for error in errors { writer.value(error.json) }
            writer.endArray()
        }
        switch storage {
        case .absent: break
        case .json(let json):
            writer.key("data")
            writer.value(json)
        case .tree(let tree):
            writer.key("data")
            tree.write(to: &writer)
        }
        if let extensions {
            writer.key("extensions")
            writer.value(.object(extensions))
        }
        writer.endObject()
    }

    /// The response as JSON text (UTF-8).
    public func serialized(pretty: Bool = false) -> [UInt8] {
        var writer = JSONWriter(pretty: pretty, capacity: 1024)
        write(to: &writer)
        return writer.takeBytes()
    }
}
