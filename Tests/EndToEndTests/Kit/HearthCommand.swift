import TestProcess

/// Runs a short-lived `hearth` command (not `serve`) and captures what it printed.
struct HearthCommand {
    /// What the command printed and how it exited.
    struct Outcome {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    /// Runs `hearth ARGUMENTS` to completion, with `standardInput` on its standard input when
    /// given (else `/dev/null`).
    static func run(_ arguments: [String], environment: [String: String] = [:], standardInput: String? = nil) throws -> Outcome {
        let outcome = try ChildProcess.run(
            ServerProcess.binary, arguments, environment: ChildProcess.inheritedEnvironment(overriding: environment),
            input: Array((standardInput ?? "").utf8))
        return Outcome(status: outcome.termination.status, standardOutput: outcome.output, standardError: outcome.errors)
    }
}
