/// A schema element's name and description as quoted, escaped JSON text, made once when the
/// element is created (schema elements are immutable), so that introspection writes them
/// with one copy instead of escaping them on every request.
struct QuotedText: Sendable {
    /// The name as a JSON string.
    let name: [UInt8]
    /// The description as a JSON string, or `nil` when there is none.
    let description: [UInt8]?

    /// Quotes `name` and `description`.
    init(name: String, description: String?) {
        self.name = JSONWriter.quoted(name)
        self.description = description.map(JSONWriter.quoted)
    }
}
