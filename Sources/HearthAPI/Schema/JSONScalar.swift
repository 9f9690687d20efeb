import GraphQL

/// The `JSON` scalar: any JSON value (RFC 8259), unchanged in both directions. Used where a value's
/// shape is a whole GraphQL request's or response's (a `syncBatch` entry's variables and response),
/// which the schema cannot type without repeating every input and payload.
struct JSONScalar: ScalarCoercing {
    func serialize(_ value: Any) throws -> JSON {
        guard let json = value as? JSON else { throw GraphQLError(message: "JSON cannot represent a value of type \(type(of: value)).") }
        return json
    }

    func parseValue(_ value: JSON) throws -> JSON {
        value
    }
}
