import GraphQL
import HearthDomain

/// The `Decimal` scalar: an exact amount as a string (`"0.10"`), up to four digits after the
/// point. Input is checked and written in canonical form; resolvers return ``DecimalAmount``.
struct DecimalScalar: ScalarCoercing {
    func serialize(_ value: Any) throws -> JSON {
        if let amount = value as? DecimalAmount { return .string(amount.description) }
        if let text = value as? String, let amount = DecimalAmount(text) { return .string(amount.description) }
        throw GraphQLError(message: "Decimal cannot represent \(type(of: value)).")
    }

    func parseValue(_ value: JSON) throws -> JSON {
        guard case .string(let text) = value, let amount = DecimalAmount(text) else {
            throw GraphQLError(message: "A Decimal is a string of digits with up to 4 after the point, such as \"0.10\".")
        }
        return .string(amount.description)
    }
}

/// The `TimeZone` scalar: an IANA zone name the time zone database knows.
struct TimeZoneScalar: ScalarCoercing {
    func serialize(_ value: Any) throws -> JSON {
        guard let name = value as? String else { throw GraphQLError(message: "TimeZone cannot represent \(type(of: value)).") }
        return .string(name)
    }

    func parseValue(_ value: JSON) throws -> JSON {
        guard case .string(let text) = value, let zone = try? TimeZoneName(text, field: "") else {
            throw GraphQLError(message: "A TimeZone is an IANA time zone name such as \"Europe/Paris\".")
        }
        return .string(zone.name)
    }
}
