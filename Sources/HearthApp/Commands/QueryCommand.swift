import FoundationEssentials
import Support
import GraphQL

/// `hearth query`: sends one GraphQL document to a server and prints the result.
enum QueryCommand: Command {
    static let name = "query"
    static let summary = "Send a GraphQL document to a server and print the result as JSON"
    static let usage = """
    Usage: hearth query --url URL [--token TOKEN] [--variables JSON] [--operation NAME] [DOCUMENT | --file PATH | -]

    Sends DOCUMENT (or the contents of --file, or standard input when neither is given or
    DOCUMENT is -) as a GraphQL over HTTP POST and prints the response as indented JSON in
    the server's key order. Exit status: 0 when the result has no errors, 1 when it has
    errors or the HTTP status is not 2xx (the body is still printed), 2 when the server
    cannot be reached, 64 for a usage error.
    """
    static let options: [OptionSpec] = GraphQLEndpoint.options + [
        .value("--variables", "JSON", help: "The operation's variables as a JSON object."),
        .value("--operation", "NAME", help: "Which operation of the document to run."),
        .value("--file", "PATH", help: "Read the document from this file."),
    ]

    static func run(_ options: ParsedOptions, environment: [String: String]) throws -> Int32 {
        let endpoint = try GraphQLEndpoint(options)
        let variables = try options.string("--variables").map(parseVariables)
        let document = try readDocument(options)
        let response: GraphQLResponse
        do {
            response = try endpoint.execute(document, operationName: options.string("--operation"), variables: variables)
        } catch {
            StandardStreams.writeError("hearth query: \(error)\n")
            return 2
        }
        print(response.printable, terminator: "")
        if response.isSuccess { return 0 }
        StandardStreams.writeError("hearth query: \(response.failureSummary)\n")
        return 1
    }

    /// Parses `--variables`, which must be a JSON object.
    /// - Throws: `UsageError` naming the problem and where it is.
    static func parseVariables(_ text: String) throws -> JSON {
        let json: JSON
        do {
            json = try JSON(parsing: text)
        } catch {
            throw UsageError(message: "invalid --variables: \(error)")
        }
        guard case .object = json else { throw UsageError(message: "invalid --variables: expected a JSON object such as {\"id\": \"1\"}") }
        return json
    }

    private static func readDocument(_ options: ParsedOptions) throws -> String {
        if options.positional.count > 1 {
            throw UsageError(message: "expected one DOCUMENT argument, got \(options.positional.count); quote the document")
        }
        let argument = options.positional.first
        if let path = options.string("--file") {
            guard argument == nil else { throw UsageError(message: "give the document either as an argument or with --file, not both") }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw UsageError(message: "cannot read --file \(path)")
            }
            return String(decoding: data, as: UTF8.self)
        }
        if let argument, argument != "-" { return argument }
        let text = String(decoding: StandardStreams.readInput(), as: UTF8.self)
        guard !text.allSatisfy(\.isWhitespace) else { throw UsageError(message: "no document: pass it as an argument, with --file, or on standard input") }
        return text
    }
}
