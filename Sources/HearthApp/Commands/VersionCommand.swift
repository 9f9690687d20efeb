/// `hearth version`: prints the version and what the binary was built with.
enum VersionCommand: Command {
    static let name = "version"
    static let summary = "Print the version"
    static let usage = "Usage: hearth version\n\nPrints the Hearth version and the migrations it carries."
    static let options: [OptionSpec] = []

    static func run(_ options: ParsedOptions, environment: [String: String]) throws -> Int32 {
        print("hearth \(BuildInfo.version) (\(EmbeddedFiles.migrations.count) migrations)")
        return 0
    }
}
