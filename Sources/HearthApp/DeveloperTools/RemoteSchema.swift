import GraphQL

/// Fetches a server's schema through the standard introspection query.
enum RemoteSchema {
    /// The introspection query the developer tools send: every optional part on, since the
    /// Hearth server (like graphql-js 16+) supports them all.
    static let query = introspectionQuery(
        descriptions: true, specifiedByURL: true, directiveIsRepeatable: true, schemaDescription: true,
        inputValueDeprecation: true, oneOf: true)

    /// Why the schema could not be fetched though the server answered.
    struct FetchError: Error, CustomStringConvertible {
        /// What went wrong, for the user.
        let description: String
    }

    /// Introspects `endpoint` and builds the client-side schema.
    /// - Throws: `NetworkError` when the server cannot be reached, `FetchError` when it
    ///   answers with errors or with something that is not an introspection result.
    static func fetch(from endpoint: GraphQLEndpoint) throws -> Schema {
        let response = try endpoint.execute(query, operationName: "IntrospectionQuery")
        guard response.isSuccess, let data = response.data else {
            throw FetchError(description: "introspection failed: \(response.failureSummary)")
        }
        do {
            return try buildClientSchema(introspection: data)
        } catch {
            throw FetchError(description: "the server's introspection result is unusable: \(error)")
        }
    }
}
