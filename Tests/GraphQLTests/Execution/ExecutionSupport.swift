import Testing
@testable import GraphQL

/// Executes `query` and returns the response as compact JSON text.
func execute(
    _ executor: Executor, _ query: String, variables: [String: JSON] = [:], operationName: String? = nil,
    context: any Sendable = (), rootValue: Any = ()
) async throws -> String {
    let document = try Parser.parse(query)
    let result = await executor.execute(
        document: document, operationName: operationName, variables: variables, context: context, rootValue: rootValue)
    return String(decoding: result.serialized(), as: UTF8.self)
}

/// `json` re-serialized compactly, so expectations can be written readably.
func compact(_ json: String) throws -> String {
    try JSON(parsing: json).jsonText
}

/// An executor over `sdl` with resolvers attached by `configure`.
func makeExecutor(
    _ sdl: String, options: ExecutorOptions = ExecutorOptions(), _ configure: (inout Resolvers) -> Void = { _ in }
) throws -> Executor {
    var resolvers = Resolvers(schema: try buildSchema(sdl: sdl))
    configure(&resolvers)
    return try Executor(resolvers: resolvers, options: options)
}

/// An error a resolver throws that carries a stable code.
struct CodedError: GraphQLErrorConvertible {
    let code: String
    let message: String
    var graphQLError: GraphQLError { GraphQLError(message: message, extensions: ["code": .string(code)]) }
}
