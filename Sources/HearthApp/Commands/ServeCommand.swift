/// `hearth serve`: placeholder until the HTTP server lands.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "Run the server"
    static let usage = "Usage: hearth serve"
    static let options: [OptionSpec] = DatabaseSettings.options
    static func run(_ options: ParsedOptions, environment: [String: String]) throws -> Int32 { 0 }
}
