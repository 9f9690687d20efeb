/// What a job does, as a dotted name such as `mail.deliver` or `retention.prune`: the key
/// under which a ``JobHandler`` is registered and jobs are stored (`jobs.kind`).
///
/// Each area declares its kinds as static constants next to its handler, so producers and
/// the handler share one spelling: `extension JobKind { static let mailDelivery: JobKind = "mail.deliver" }`.
/// A stored kind is a contract with the rows already in the table: never rename one.
public struct JobKind: RawRepresentable, Hashable, Sendable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible, Decodable {
    /// The dotted name stored in the jobs table.
    public let rawValue: String

    /// A kind from its stored name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A kind written as a literal.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// Decodes the stored name (a column of a row).
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public var description: String { rawValue }

    public static func < (lhs: JobKind, rhs: JobKind) -> Bool { lhs.rawValue < rhs.rawValue }
}
