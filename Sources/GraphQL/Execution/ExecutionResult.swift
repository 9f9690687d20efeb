/// The result of executing an operation (spec 7.1, "Response Format"): the data, the errors
/// in the order they occurred, and extensions.
///
/// Serialized by `serialized(pretty:)` or `write(to:)` in graphql-js's key order: `errors`
/// (only when there are some), then `data` (absent when a request error stopped execution
/// before it started, `null` when a non-null field error reached the root), then
/// `extensions` (only when set). The spec recommends `errors` first so that readers see
/// them.
public struct ExecutionResult: Sendable {
    /// The data as execution produced it.
    enum Data: Sendable {
        case absent
        case json(JSON)
        /// Compact JSON text, as the executor writes it.
        case text(JSONText)
        /// Constant text around one kept value: never assembled into one text, the response
        /// is written from its parts.
        case framed(FramedValue)
    }

    private var storage: Data
    /// The field and request errors.
    public var errors: [GraphQLError]
    /// Entries of the response's `extensions` member, if any.
    public var extensions: OrderedMap<String, JSON>?
    /// The response as constant text around one ``SerializedValue``: the data is that and
    /// nothing else (no errors, no extensions), so the serialized response is always the same
    /// text for the same framing and value. `nil` otherwise.
    public var framedValue: FramedValue? {
        guard case .framed(let framed) = storage, errors.isEmpty, extensions == nil else { return nil }
        return framed
    }

    /// Creates a result from data and errors.
    /// - Parameter data: The data; `nil` when execution did not start (request errors).
    public init(data: JSON?, errors: [GraphQLError] = [], extensions: OrderedMap<String, JSON>? = nil) {
        storage = data.map(Data.json) ?? .absent
        self.errors = errors
        self.extensions = extensions
    }

    /// A result whose data is what execution produced (compact text, or a kept value framed).
    init(executed data: Data, errors: [GraphQLError]) {
        storage = data
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
    ///
    /// The executor writes the data as JSON text, which this parses: numbers read as they
    /// would from the response (a `Float` field's `2.0` is `.int(2)`, as in `JSON.parse`).
    public var data: JSON? {
        switch storage {
        case .absent: return nil
        case .json(let json): return json
        case .text(let text): return Self.parsed(text.array)
        case .framed(let framed): return Self.parsed(framed.text)
        }
    }

    /// The executor's text, parsed.
    private static func parsed(_ text: [UInt8]) -> JSON {
        do {
            return try JSON(parsing: text, maxDepth: .max)
        } catch {
            preconditionFailure("The executor wrote invalid JSON: \(error)")
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
        _ = write(to: &writer, leavingDataTextOut: false)
    }

    /// Writes the response; when `leavingDataTextOut` and the data is compact text, leaves its
    /// place empty and returns its offset (for `takeBytes(inserting:at:)`).
    private func write(to writer: inout JSONWriter, leavingDataTextOut: Bool) -> Int? {
        var dataOffset: Int?
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
        case .text(let text):
            writer.key("data")
            // Pretty output re-indents the compact text; compact output copies it.
            if writer.pretty, let data {
                writer.value(data)
            } else if leavingDataTextOut {
                dataOffset = writer.valuePlaceholder()
            } else {
                writer.rawValue(text.bytes)
            }
        case .framed(let framed):
            writer.key("data")
            if writer.pretty, let data { writer.value(data) } else { writer.rawValue(framed.text) }
        }
        if let extensions {
            writer.key("extensions")
            writer.value(.object(extensions))
        }
        writer.endObject()
        return dataOffset
    }

    /// The response as JSON text (UTF-8). Compact data text is copied once, straight into the
    /// response.
    public func serialized(pretty: Bool = false) -> [UInt8] {
        if !pretty, let framed = framedValue { return framed.response }
        var writer = JSONWriter(pretty: pretty, capacity: 1024)
        if !pretty, case .text(let text) = storage {
            if let dataOffset = write(to: &writer, leavingDataTextOut: true) {
                return writer.takeBytes(inserting: text.bytes, at: dataOffset)
            }
            return writer.takeBytes()
        }
        write(to: &writer)
        return writer.takeBytes()
    }
}
