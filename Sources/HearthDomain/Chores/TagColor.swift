/// A tag's colour: `#` and six hexadecimal digits (`#3f8cff`), stored in lowercase.
public struct TagColor: Sendable, Hashable, CustomStringConvertible {
    /// The colour as stored, `#rrggbb` in lowercase.
    public let hex: String

    /// The colour `text` names.
    /// - Throws: ``FieldProblem`` `INVALID_FORMAT` for `field`.
    public init(_ text: String, field: String) throws(FieldProblem) {
        let lower = text.lowercased()
        let digits = lower.utf8.dropFirst()
        guard lower.utf8.first == UInt8(ascii: "#"), digits.count == 6,
              digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) })
        else { throw FieldProblem(field: field, reason: .invalidFormat, message: "Give a colour as # and six hex digits, such as #3f8cff.") }
        hex = lower
    }

    /// The colour as stored.
    public var description: String { hex }
}
