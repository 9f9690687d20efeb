import FoundationEssentials
import GraphQL
import Support

/// The `DateTime` scalar (https://scalars.graphql.org/chillicream/date-time.html): RFC 3339
/// date-times with an offset. Emitted in UTC with `Z` and milliseconds; input with any offset
/// is normalised to that form. Malformed input is rejected with `BAD_USER_INPUT`.
public struct DateTimeScalar: ScalarCoercing {
    /// Creates the coercion.
    public init() {}

    /// Serializes a `WallClock.Instant` or a `Date` (to the millisecond), or a string that is
    /// a valid date-time (normalised).
    public func serialize(_ value: Any) throws -> JSON {
        switch value {
        case let instant as WallClock.Instant: return .string(instant.iso8601)
        case let date as Date: return .string(WallClock.Instant(date).iso8601)
        case let text as String:
            guard let instant = Self.parse(text) else { throw Self.error("DateTime cannot represent value: \"\(text)\"") }
            return .string(instant.iso8601)
        default:
            throw Self.error("DateTime cannot represent value: \(value)")
        }
    }

    /// Accepts a string in RFC 3339 `date-time` form and returns it normalised to UTC.
    public func parseValue(_ value: JSON) throws -> JSON {
        guard case .string(let text) = value else {
            throw Self.error("DateTime must be a string in RFC 3339 form, e.g. \"2026-03-01T08:30:00Z\".")
        }
        guard let instant = Self.parse(text) else {
            throw Self.error("DateTime cannot represent \"\(text)\": expected RFC 3339 form, e.g. \"2026-03-01T08:30:00Z\".")
        }
        return Self.isNormalised(text) ? value : .string(instant.iso8601)
    }

    /// Whether `text`, which parsed, is already in the form values are normalised to
    /// (`YYYY-MM-DDTHH:MM:SS.mmmZ`, what clients echo back): then it is passed on as it came,
    /// without writing it anew.
    private static func isNormalised(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.count == 24 else { return false }
        let start = utf8.startIndex
        return utf8[utf8.index(start, offsetBy: 10)] == UInt8(ascii: "T") && utf8[utf8.index(start, offsetBy: 19)] == UInt8(ascii: ".")
            && utf8[utf8.index(start, offsetBy: 23)] == UInt8(ascii: "Z")
    }

    private static func error(_ message: String) -> GraphQLError {
        GraphQLError(message: message, extensions: ["code": .string(ErrorCode.badUserInput)])
    }

    /// The instant `text` (a value this scalar coerced) names, to the millisecond; `nil` when it
    /// does not parse.
    public static func date(_ text: String) -> Date? {
        parse(text).map { Date(timeIntervalSince1970: Double($0.millisecondsSinceEpoch) / 1000) }
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` (`T` and `Z` in either case); `nil`
    /// for anything else, including impossible dates such as February 30.
    public static func parse(_ text: String) -> WallClock.Instant? {
        WallClock.Instant(rfc3339: text)
    }
}
