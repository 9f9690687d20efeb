import GraphQL
import HearthDomain

/// The `Duration` scalar: an ISO 8601 duration of weeks, days, hours and minutes
/// (``ReminderOffset``). Input is checked and passed on in canonical form (`P2W` becomes `P14D`);
/// resolvers return the canonical text.
struct DurationScalar: ScalarCoercing {
    func serialize(_ value: Any) throws -> JSON {
        if let text = value as? String, let offset = ReminderOffset(iso8601: text) { return .string(offset.iso8601) }
        throw GraphQLError(message: "Duration cannot represent \(type(of: value)).")
    }

    func parseValue(_ value: JSON) throws -> JSON {
        guard case .string(let text) = value, let offset = ReminderOffset(iso8601: text) else {
            throw GraphQLError(message: "A Duration is an ISO 8601 duration of weeks, days, hours and whole minutes, such as \"PT30M\" or \"P1D\".")
        }
        return .string(offset.iso8601)
    }
}

/// The `LocalTime` scalar: `HH:MM` on a 24-hour clock (``QuietHours/minute(localTime:)``).
struct LocalTimeScalar: ScalarCoercing {
    func serialize(_ value: Any) throws -> JSON {
        if let text = value as? String, let minute = QuietHours.minute(localTime: text) { return .string(QuietHours.localTime(minute)) }
        throw GraphQLError(message: "LocalTime cannot represent \(type(of: value)).")
    }

    func parseValue(_ value: JSON) throws -> JSON {
        guard case .string(let text) = value, QuietHours.minute(localTime: text) != nil else {
            throw GraphQLError(message: "A LocalTime is HH:MM on a 24-hour clock, such as \"22:00\".")
        }
        return .string(text)
    }
}
