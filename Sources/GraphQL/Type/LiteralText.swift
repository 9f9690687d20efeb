extension Value {
    /// The literal as GraphQL source text (`{a: 1, b: [true]}`), for error messages.
    var literalText: String {
        switch kind {
        case .variable(let name): "$" + name
        case .int(let text), .float(let text): text
        case .string(let string, _): quoted(string)
        case .boolean(let bool): bool ? "true" : "false"
        case .null: "null"
        case .enumValue(let name): name
        case .list(let items): "[" + items.map(\.literalText).joined(separator: ", ") + "]"
        case .object(let fields):
            "{" + fields.map { "\($0.name.value): \($0.value.literalText)" }.joined(separator: ", ") + "}"
        }
    }
}
