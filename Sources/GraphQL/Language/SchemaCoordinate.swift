/// A schema coordinate (spec 3.14 of the September 2025 edition): a unique, whitespace-free
/// textual reference to a schema element, such as `User.name(format:)` or `@deprecated`.
///
/// Parse one with `Parser.parseSchemaCoordinate(_:)`; `description` gives the canonical text.
public enum SchemaCoordinate: Sendable, Hashable, CustomStringConvertible {
    /// `Type`.
    case type(String)
    /// `Type.member`: a field, input field or enum value.
    case member(type: String, member: String)
    /// `Type.field(argument:)`.
    case argument(type: String, field: String, argument: String)
    /// `@directive`.
    case directive(String)
    /// `@directive(argument:)`.
    case directiveArgument(directive: String, argument: String)

    /// The coordinate's canonical text.
    public var description: String {
        switch self {
        case .type(let type): type
        case .member(let type, let member): "\(type).\(member)"
        case .argument(let type, let field, let argument): "\(type).\(field)(\(argument):)"
        case .directive(let directive): "@\(directive)"
        case .directiveArgument(let directive, let argument): "@\(directive)(\(argument):)"
        }
    }
}
