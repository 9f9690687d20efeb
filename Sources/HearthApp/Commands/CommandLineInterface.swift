import FoundationEssentials
import Support

/// The entry point of the `hearth` binary: picks the subcommand, parses its options,
/// runs it, and maps usage errors to exit status 64 with a hint.
public enum CommandLineInterface {
    /// Every subcommand, in the order `hearth --help` lists them.
    static let commands: [any Command.Type] = [
        ServeCommand.self, MigrateCommand.self, BackupCommand.self, RestoreCommand.self, AdminCommand.self, MailCommand.self, JobsCommand.self, ReportCommand.self, SchemaCommand.self, QueryCommand.self, IntrospectCommand.self,
        ExploreCommand.self, VersionCommand.self, HealthcheckCommand.self,
    ]

    /// Runs `hearth` with `arguments` (without the program name) and returns the exit status.
    public static func main(arguments: [String], environment: [String: String]) -> Int32 {
        guard let first = arguments.first, first != "--help", first != "-h", first != "help" else {
            if arguments.count >= 2, arguments[0] == "help", let command = command(named: arguments[1]) {
                print(command.helpText, terminator: "")
            } else {
                print(overview, terminator: "")
            }
            return 0
        }
        if first == "--version" { return (try? VersionCommand.run(ParsedOptions(values: [:], sources: [:], positional: []), environment: environment)) ?? 1 }
        guard let command = command(named: first) else {
            return usageFailure("unknown command '\(first)'", helpHint: "hearth --help")
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            print(command.helpText, terminator: "")
            return 0
        }
        do {
            let options = try OptionParser(specs: command.options).parse(rest, environment: environment)
            return try command.run(options, environment: environment)
        } catch let error as UsageError {
            return usageFailure(error.message, helpHint: "hearth \(command.name) --help")
        } catch {
            StandardStreams.writeError("hearth \(command.name): \(error)\n")
            return 1
        }
    }

    private static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.name == name }
    }

    private static func usageFailure(_ message: String, helpHint: String) -> Int32 {
        StandardStreams.writeError("hearth: \(message)\nSee '\(helpHint)'.\n")
        return 64
    }

    static var overview: String {
        var text = """
        hearth \(BuildInfo.version): the Hearth server and its developer tools.

        Usage: hearth COMMAND [OPTIONS]

        Commands:

        """
        for command in commands {
            text += "  " + command.name + String(repeating: " ", count: max(1, 12 - command.name.count)) + command.summary + "\n"
        }
        text += "\nRun 'hearth COMMAND --help' for a command's options.\n"
        return text
    }
}
