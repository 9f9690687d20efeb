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
    ///
    /// Read over the UTF-8 bytes: every `Decimal` the API writes or reads passes through here.
    public init?(_ text: some StringProtocol) {
        let parsed = text.utf8.withContiguousStorageIfAvailable(Self.tenThousandths(of:)) ?? Self.tenThousandths(of: Array(text.utf8))
        guard let parsed else { return nil }
        tenThousandths = parsed
    }

    private static func tenThousandths(of bytes: [UInt8]) -> Int64? {
        bytes.withUnsafeBufferPointer(tenThousandths(of:))
    }

    private static func tenThousandths(of bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var whole: Int64 = 0
        var index = 0
        while index < bytes.count, let digit = digit(bytes[index]) {
            guard index < 9 else { return nil }
            whole = whole * 10 + digit
            index += 1
        }
        guard index > 0 else { return nil }
        var fraction: Int64 = 0
        var fractionDigits = 0
        if index < bytes.count {
            guard bytes[index] == UInt8(ascii: ".") else { return nil }
            index += 1
            while index < bytes.count, let digit = digit(bytes[index]) {
                guard fractionDigits < Self.fractionDigits else { return nil }
                fraction = fraction * 10 + digit
                fractionDigits += 1
                index += 1
            }
            guard index == bytes.count, fractionDigits > 0 else { return nil }
        }
        for _ in fractionDigits..<Self.fractionDigits { fraction *= 10 }
        return whole * scale + fraction
    }

    private static func digit(_ byte: UInt8) -> Int64? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int64(byte - UInt8(ascii: "0")) : nil
    }

    /// At least two digits after the point, more only when needed: `0.10`, `1.00`, `0.125`.
    public var description: String {
        var fraction = tenThousandths % Self.scale
        var fractionDigits = Self.fractionDigits
        while fractionDigits > 2, fraction % 10 == 0 {
            fraction /= 10
            fractionDigits -= 1
        }
        let digits = String(fraction)
        return "\(tenThousandths / Self.scale)." + String(repeating: "0", count: fractionDigits - digits.count) + digits
    }

    /// Orders amounts by value.
    public static func < (lhs: DecimalAmount, rhs: DecimalAmount) -> Bool { lhs.tenThousandths < rhs.tenThousandths }
}
