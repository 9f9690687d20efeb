import GraphQL
import HearthAPI
import HearthHTTP
import Support

/// A small schema exercising every path of the endpoint: sync and async fields, a mutation,
/// resolver failures of each kind, lists priced by `first`.
enum TestSchema {
    static let sdl = """
    type Query {
      hello(name: String): String!
      slow: String!
      nested: Nested!
      numbers(first: Int): [Int!]!
      broken: String
      refused: String
      coded: String
    }
    type Nested { nested: Nested! name: String! }
    type Mutation { bump: Int! }
    type Subscription { ticks: Int! }
    """

    struct DatabaseDown: Error, CustomStringConvertible {
        var description: String { "connection to 10.0.0.5 refused: password=hunter2" }
    }

    struct NotFound: GraphQLErrorConvertible {
        var graphQLError: GraphQLError { GraphQLError(message: "No such thing.", extensions: ["code": "NOT_FOUND"]) }
    }

    static func service(
        limits: GraphQLLimits = GraphQLLimits(), logger: Logger = .disabled, validationPool: WorkerPool? = nil
    ) throws -> GraphQLService {
        let schema = try buildSchema(sdl: sdl)
        var resolvers = Resolvers(schema: schema)
        resolvers.resolve("Query", "hello") { _, arguments, _, _ in "Hello, \(arguments.string("name") ?? "world")" }
        resolvers.resolveAsync("Query", "slow") { _, _, _, _ in
            await Task.yield()
            return "done"
        }
        resolvers.resolve("Query", "nested") { _, _, _, _ in [String: Any]() }
        resolvers.resolve("Nested", "nested") { _, _, _, _ in [String: Any]() }
        resolvers.resolve("Nested", "name") { _, _, _, _ in "n" }
        resolvers.resolve("Query", "numbers") { _, arguments, _, _ in Array(0..<(arguments.int("first") ?? 3)) }
        resolvers.resolve("Query", "broken") { _, _, _, _ in throw DatabaseDown() }
        resolvers.resolve("Query", "refused") { _, _, _, _ in throw GraphQLError(message: "Not today.") }
        resolvers.resolve("Query", "coded") { _, _, _, _ in throw NotFound() }
        resolvers.resolve("Mutation", "bump") { _, _, _, _ in 1 }
        return try GraphQLService(resolvers: resolvers, limits: limits, logger: logger, validationPool: validationPool)
    }

    static func handler(limits: GraphQLLimits = GraphQLLimits(), logger: Logger = .disabled) throws -> GraphQLHTTPHandler {
        GraphQLHTTPHandler(service: try service(limits: limits, logger: logger))
    }
}

/// Builds requests and reads responses.
enum Requests {
    static func post(_ body: String, contentType: String? = "application/json", accept: String? = nil, id: String = "req-1") -> HTTPRequest {
        var headers = HTTPHeaders()
        if let contentType { headers.add(name: "Content-Type", value: contentType) }
        if let accept { headers.add(name: "Accept", value: accept) }
        return HTTPRequest(
            head: HTTPRequestHead(method: .post, target: "/graphql", headers: headers, bodyFraming: .contentLength(body.utf8.count)),
            body: Array(body.utf8), id: id)
    }

    static func get(_ query: String, accept: String? = nil) -> HTTPRequest {
        var headers = HTTPHeaders()
        if let accept { headers.add(name: "Accept", value: accept) }
        return HTTPRequest(head: HTTPRequestHead(method: .get, target: "/graphql?" + query, headers: headers))
    }

    static func json(_ response: HTTPResponse) throws -> JSON {
        try JSON(parsing: response.body)
    }

    static func firstCode(_ response: HTTPResponse) throws -> String? {
        if case .string(let code)? = try json(response)["errors"]?[0]?["extensions"]?["code"] { return code }
        return nil
    }
}
