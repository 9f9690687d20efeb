/// An exact, non-negative decimal amount with up to four digits after the point, such as a
/// token's value in money (`0.10`): kept as an integer count of ten-thousandths, so amounts
/// compare and add exactly and never pass through a float.
public struct DecimalAmount: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Digits after the point the amount keeps.
    public static let fractionDigits = 4
    private static let scale: Int64 = 10_000
    /// The amount in ten-thousandths.
    public let tenThousandths: Int64

    /// The amount `tenThousandths` / 10,000.
    public init(tenThousandths: Int64) {
        precondition(tenThousandths >= 0, "amounts are not negative")
        self.tenThousandths = tenThousandths
    }

    /// Parses `12`, `0.1`, `0.10`, `1.2345`: digits, optionally a point and 1–4 digits; at most
    /// 9 digits before the point. `nil` for anything else (signs, exponents, spaces, commas).
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, (1...9).contains(whole.count), whole.allSatisfy(\.isASCIIDigit) else { return nil }
        var fraction = ""
        if parts.count == 2 {
            fraction = String(parts[1])
            guard (1...Self.fractionDigits).contains(fraction.count), fraction.allSatisfy(\.isASCIIDigit) else { return nil }
        }
        let padded = fraction + String(repeating: "0", count: Self.fractionDigits - fraction.count)
        tenThousandths = Int64(whole)! * Self.scale + Int64(padded)!
    }

    /// At least two digits after the point, more only when needed: `0.10`, `1.00`, `0.125`.
    public var description: String {
        let whole = tenThousandths / Self.scale
        var fraction = String(tenThousandths % Self.scale)
        fraction = String(repeating: "0", count: Self.fractionDigits - fraction.count) + fraction
        while fraction.count > 2, fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction)"
    }

    /// Orders amounts by value.
    public static func < (lhs: DecimalAmount, rhs: DecimalAmount) -> Bool { lhs.tenThousandths < rhs.tenThousandths }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
