import GraphQL
import HearthDomain

/// The `Date` scalar: a calendar day, `YYYY-MM-DD` (``CalendarDay``). Input is checked (a day
/// that does not exist is refused) and passed on in canonical form; resolvers return a
/// ``CalendarDay``.
struct DateScalar: ScalarCoercing {
    func serialize(_ value: Any) throws -> JSON {
        if let day = value as? CalendarDay { return .string(day.description) }
        if let text = value as? String, let day = CalendarDay(text) { return .string(day.description) }
        throw GraphQLError(message: "Date cannot represent \(type(of: value)).")
    }

    func parseValue(_ value: JSON) throws -> JSON {
        guard case .string(let text) = value, let day = CalendarDay(text) else {
            throw GraphQLError(message: "A Date is a calendar day written YYYY-MM-DD, such as \"2026-12-02\".")
        }
        return .string(day.description)
    }
}
