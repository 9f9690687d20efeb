/// A `hearth` subcommand: its name, help and options are declared, so `hearth --help`
/// and `hearth COMMAND --help` are generated from the same declarations that parse.
protocol Command: Sendable {
    /// The word that selects the command, e.g. `serve`.
    static var name: String { get }
    /// One line for the command list in `hearth --help`.
    static var summary: String { get }
    /// The synopsis and a paragraph of explanation for `hearth COMMAND --help`.
    static var usage: String { get }
    /// The options the command accepts.
    static var options: [OptionSpec] { get }
    /// Runs the command and returns the process exit status.
    static func run(_ options: ParsedOptions, environment: [String: String]) throws -> Int32
}

extension Command {
    /// The full help text of the command.
    static var helpText: String {
        var text = usage + "\n"
        if !options.isEmpty {
            text += "\nOptions:\n" + OptionParser(specs: options).helpText()
        }
        return text
    }
}
