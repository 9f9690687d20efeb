/// A value as graphql-js's `inspect` shows it in error messages: strings quoted, objects as
/// `{ key: value }`, arrays as `[a, b]`, integral numbers without a fraction.
func inspect(_ value: JSON) -> String {
    switch value {
    case .null: return "null"
    case .bool(let bool): return bool ? "true" : "false"
    case .int(let int): return String(int)
    case .double(let double): return formatNumber(double)
    case .string(let string): return Printer.printString(string)
    case .array(let items): return "[" + items.map(inspect).joined(separator: ", ") + "]"
    case .object(let object):
        if object.isEmpty { return "{}" }
        return "{ " + object.map { "\($0.key): \(inspect($0.value))" }.joined(separator: ", ") + " }"
    }
}

/// A number as JavaScript prints it: integral values without a fraction, `NaN`, `Infinity`.
func formatNumber(_ double: Double) -> String {
    if double.isNaN { return "NaN" }
    if double.isInfinite { return double < 0 ? "-Infinity" : "Infinity" }
    if double.rounded(.towardZero) == double, abs(double) < 1e21 {
        return String(Int(double))
    }
    return String(double)
}
