/// A value as graphql-js's `inspect` shows it in error messages: strings quoted, objects as
/// `{ key: value }`, arrays as `[a, b]`, integral numbers without a fraction.
func inspect(_ value: JSON) -> String {
    switch value {
    case .null: return "null"
    case .bool(let bool): return bool ? "true" : "false"
    case .int(let int): return String(int)
    case .double(let double): return formatNumber(double)
    case .string(let string): return quoted(string)
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

/// A string as a JSON (and GraphQL) string literal.
func quoted(_ string: String) -> String {
    var result = "\""
    for scalar in string.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        case "\u{08}": result += "\\b"
        case "\u{0C}": result += "\\f"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
    }
    return result + "\""
}
