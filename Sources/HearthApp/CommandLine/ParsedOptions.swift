import Support

/// The options of one command after parsing: flags win over environment variables,
/// which win over defaults. Typed getters turn text into values with errors that
/// name the flag and say what was expected.
struct ParsedOptions: Sendable {
    /// The winning text for each option that has one, keyed by flag.
    private(set) var values: [String: String]
    /// Where each value came from, for error messages (`--port` or `HEARTH_PORT`).
    private(set) var sources: [String: String]
    /// Arguments that are not options, in order.
    let positional: [String]

    init(values: [String: String], sources: [String: String], positional: [String]) {
        self.values = values
        self.sources = sources
        self.positional = positional
    }

    /// The option's text, or nil when it is unset and has no default.
    func string(_ flag: String) -> String? { values[flag] }

    /// Whether a flag or an environment variable set the option (not only its default).
    func isGiven(_ flag: String) -> Bool {
        guard let source = sources[flag] else { return false }
        return !source.hasPrefix("the default of ")
    }

    /// Whether a toggle is on.
    func isOn(_ flag: String) throws -> Bool {
        guard let text = values[flag] else { return false }
        switch text.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw invalid(flag, text, expected: "true or false")
        }
    }

    /// An integer option within `range`.
    func integer(_ flag: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = values[flag] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw invalid(flag, text, expected: "an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// A byte size such as `16384`, `16KiB`, `16k`, `1MiB` or `1m`, within `range` bytes.
    func byteCount(_ flag: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = values[flag] else { return nil }
        guard let value = Self.parseByteCount(text), range.contains(value) else {
            throw invalid(flag, text, expected: "a size from \(range.lowerBound) to \(range.upperBound) bytes (e.g. 16KiB)")
        }
        return value
    }

    /// A duration such as `250ms`, `10s`, `2m`, `12h`, `30d` or a plain number of seconds, within `range`.
    func duration(_ flag: String, in range: ClosedRange<Duration>) throws -> Duration? {
        guard let text = values[flag] else { return nil }
        guard let value = Self.parseDuration(text), range.contains(value) else {
            throw invalid(flag, text, expected: "a duration such as 250ms, 10s or 2m, at most \(range.upperBound)")
        }
        return value
    }

    /// One of a closed set of words.
    func choice<T>(_ flag: String, _ choices: [String: T]) throws -> T? {
        guard let text = values[flag] else { return nil }
        guard let value = choices[text.lowercased()] else {
            throw invalid(flag, text, expected: "one of " + choices.keys.sorted().joined(separator: ", "))
        }
        return value
    }

    /// A comma-separated list (blank elements ignored), each element converted by `parse`, which
    /// throws an error describing what is wrong with one; nil when the option is unset.
    func list<T>(_ flag: String, expected: String, _ parse: (String) throws -> T) throws -> [T]? {
        guard let text = values[flag] else { return nil }
        return try text.split(separator: ",").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }.map { element in
            do {
                return try parse(element)
            } catch {
                throw invalid(flag, element, expected: "\(expected): \(error)")
            }
        }
    }

    private func invalid(_ flag: String, _ text: String, expected: String) -> UsageError {
        UsageError(message: "invalid value '\(text)' for \(sources[flag] ?? flag): expected \(expected)")
    }

    static func parseByteCount(_ text: String) -> Int? {
        let lowered = text.lowercased()
        let units: [(String, Int)] = [("kib", 1024), ("mib", 1 << 20), ("gib", 1 << 30), ("kb", 1000), ("mb", 1_000_000),
                                      ("k", 1024), ("m", 1 << 20), ("g", 1 << 30), ("b", 1)]
        for (suffix, multiplier) in units where lowered.hasSuffix(suffix) {
            guard let number = Int(lowered.dropLast(suffix.count)) else { return nil }
            let (product, overflow) = number.multipliedReportingOverflow(by: multiplier)
            return overflow ? nil : product
        }
        return Int(lowered)
    }

    static func parseDuration(_ text: String) -> Duration? {
        let lowered = text.lowercased()
        let units: [(String, (Int) -> Duration)] = [
            ("ms", { .milliseconds($0) }), ("s", { .seconds($0) }), ("m", { .seconds($0 * 60) }),
            ("h", { .seconds($0 * 3600) }), ("d", { .seconds($0 * 86400) }),
        ]
        for (suffix, make) in units where lowered.hasSuffix(suffix) {
            guard let number = Int(lowered.dropLast(suffix.count)), number >= 0 else { return nil }
            return make(number)
        }
        guard let seconds = Int(lowered), seconds >= 0 else { return nil }
        return .seconds(seconds)
    }
}
