import GraphQL

/// The `Upload` scalar of the GraphQL multipart request specification. A multipart request
/// puts, at each place its `map` names, the name of the file part (see
/// ``GraphQLRequest/multipart(_:limits:)``); resolvers find the file under that name in the
/// request's ``RequestContext/uploads``. A name that is not a file of the request reads as no
/// file, so a plain JSON request cannot conjure one. Literals are refused: files only arrive
/// through variables.
struct UploadScalar: ScalarCoercing {
    func serialize(_ value: Any) throws -> JSON {
        throw GraphQLError(message: "Upload is an input-only type.")
    }

    func parseValue(_ value: JSON) throws -> JSON {
        guard case .string = value else {
            throw GraphQLError(message: "Upload values are files of a multipart request (graphql-multipart-request-spec).")
        }
        return value
    }

    /// Variables are replaced before literals are parsed, so whatever arrives here was written
    /// in the document.
    func parseLiteral(_ value: Value, variables: [String: JSON]) throws -> JSON {
        throw GraphQLError(message: "An Upload cannot be written in the document; pass the file in a variable.")
    }
}
