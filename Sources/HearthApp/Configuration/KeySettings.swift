/// Where `hearth serve` keeps its keys (``KeyDirectory``).
struct KeySettings: Sendable {
    /// The key directory.
    var directory: String

    /// The options that set these values.
    static let options: [OptionSpec] = [
        .value("--key-directory", "PATH", environment: "HEARTH_KEY_DIRECTORY", default: nil,
               help: "Directory of the server's keys (access tokens, analytics, emailed links), created 0700 with 0600 files; back it up apart from the database. Default: 'keys' beside --database."),
    ]

    /// Reads the settings from parsed options.
    /// - Parameter databasePath: The database file, beside which the keys go by default.
    init(_ options: ParsedOptions, databasePath: String) throws {
        if let directory = options.string("--key-directory") {
            guard !directory.isEmpty else { throw UsageError(message: "--key-directory must not be empty") }
            self.directory = directory
        } else {
            self.directory = Self.defaultDirectory(beside: databasePath)
        }
    }

    /// `keys` in the directory of `databasePath`: `./data/keys` for `./data/hearth.sqlite`.
    static func defaultDirectory(beside databasePath: String) -> String {
        guard let slash = databasePath.lastIndex(of: "/") else { return "keys" }
        return databasePath[..<slash] + "/keys"
    }
}
