/// Parses a command's arguments against its declared options and the environment.
///
/// Accepts `--flag value`, `--flag=value` and `--toggle`; `--` ends the options.
/// Precedence: flags win over environment variables, which win over defaults.
struct OptionParser: Sendable {
    /// The options this command declares.
    let specs: [OptionSpec]

    /// Parses `arguments` (without the program and command names).
    ///
    /// - Throws: `UsageError` for an unknown flag, a value-taking flag at the end, or a value given to a toggle.
    func parse(_ arguments: [String], environment: [String: String]) throws -> ParsedOptions {
        var values: [String: String] = [:]
        var sources: [String: String] = [:]
        for spec in specs {
            if let variable = spec.environment, let text = environment[variable] {
                values[spec.flag] = text
                sources[spec.flag] = variable
            } else if let text = spec.defaultValue {
                values[spec.flag] = text
                sources[spec.flag] = "the default of \(spec.flag)"
            }
        }
        var positional: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                positional.append(contentsOf: arguments[index...])
                break
            }
            guard argument.hasPrefix("--") else {
                positional.append(argument)
                continue
            }
            let (flag, inlineValue) = split(argument)
            guard let spec = specs.first(where: { $0.flag == flag }) else {
                throw UsageError(message: "unknown option \(flag)")
            }
            if spec.valueName == nil {
                guard inlineValue == nil else { throw UsageError(message: "\(flag) takes no value") }
                values[flag] = "true"
            } else if let inlineValue {
                values[flag] = inlineValue
            } else {
                guard index < arguments.endIndex else {
                    throw UsageError(message: "\(flag) needs a value (\(spec.valueName!))")
                }
                values[flag] = arguments[index]
                index += 1
            }
            sources[flag] = flag
        }
        return ParsedOptions(values: values, sources: sources, positional: positional)
    }

    private func split(_ argument: String) -> (String, String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// The options section of a command's help text, one option per entry, with its
    /// environment variable and default.
    func helpText() -> String {
        var text = ""
        for spec in specs {
            var head = "  " + spec.flag
            if let valueName = spec.valueName { head += " " + valueName }
            text += head + "\n"
            var detail = spec.help
            if let variable = spec.environment { detail += " Environment: \(variable)." }
            if let value = spec.defaultValue { detail += " Default: \(value)." }
            for line in wrap(detail, width: 72) { text += "      " + line + "\n" }
        }
        return text
    }

    private func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty && current.count + 1 + word.count > width {
                lines.append(current)
                current = ""
            }
            current += current.isEmpty ? String(word) : " " + word
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
