/// `hearth schema`: prints the GraphQL schema compiled into this binary.
enum SchemaCommand: Command {
    static let name = "schema"
    static let summary = "Print the GraphQL schema (SDL) this binary serves"
    static let usage = """
    Usage: hearth schema

    Prints schema.graphql as compiled into this binary: the public API, with its documentation.
    """
    static let options: [OptionSpec] = []

    static func run(_ options: ParsedOptions, environment: [String: String]) throws -> Int32 {
        print(EmbeddedFiles.schema)
        return 0
    }
}
