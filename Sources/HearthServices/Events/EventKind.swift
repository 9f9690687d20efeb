/// What happened, as a dotted name such as `server.heartbeat` or `chore.completed`.
///
/// Each area declares its kinds as static constants in an extension, so producers and
/// consumers share one spelling: `extension EventKind { static let choreCompleted: EventKind = "chore.completed" }`.
public struct EventKind: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The dotted name stored in the change log.
    public let rawValue: String

    /// A kind from its stored name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A kind written as a literal.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public var description: String { rawValue }
}
