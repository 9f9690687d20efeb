import FoundationEssentials
import Support
import GraphQL
import Net

/// `hearth introspect`: prints a server's schema as SDL, rebuilt from its introspection.
enum IntrospectCommand: Command {
    static let name = "introspect"
    static let summary = "Print a server's GraphQL schema (SDL) from introspection"
    static let usage = """
    Usage: hearth introspect --url URL [--token TOKEN]

    Runs the standard introspection query against URL, rebuilds the schema on the client and
    prints it as SDL. Exit status: 0 on success, 1 when the server answers with errors or an
    unusable result, 2 when it cannot be reached.
    """
    static let options: [OptionSpec] = GraphQLEndpoint.options

    static func run(_ options: ParsedOptions, environment: [String: String]) throws -> Int32 {
        let endpoint = try GraphQLEndpoint(options)
        do {
            let schema = try RemoteSchema.fetch(from: endpoint)
            print(printSchema(schema))
            return 0
        } catch let error as NetworkError {
            StandardStreams.writeError("hearth introspect: \(error)\n")
            return 2
        } catch {
            StandardStreams.writeError("hearth introspect: \(error)\n")
            return 1
        }
    }
}
