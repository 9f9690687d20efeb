// Build-time tool run by EmbedFilesPlugin: writes a Swift file that holds the
// text of the SQL migrations, of schema.graphql and of the files in resources/, so
// the `hearth` binary never reads them from disk at run time (self-hosters get one file).
//
// Usage: EmbedFiles OUTPUT.swift SCHEMA.graphql MIGRATIONS-DIRECTORY RESOURCES-DIRECTORY
// (PostgreSQL's migrations are MIGRATIONS-DIRECTORY/postgresql/*.sql, SQLite's the files beside it.)
import Foundation

/// A Swift raw string literal that holds `text` exactly: the `#` delimiter is
/// one longer than any run of `#` that follows a quote in the text.
func rawLiteral(_ text: String) -> String {
    var longest = 0
    var run = 0
    var afterQuote = false
    for character in text {
        if character == "\"" {
            afterQuote = true
            run = 0
        } else if character == "#" && afterQuote {
            run += 1
            longest = max(longest, run)
        } else {
            afterQuote = false
            run = 0
        }
    }
    let hashes = String(repeating: "#", count: longest + 1)
    return "\(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes)"
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 4 else {
    FileHandle.standardError.write(Data("usage: EmbedFiles OUTPUT.swift SCHEMA.graphql MIGRATIONS-DIRECTORY RESOURCES-DIRECTORY\n".utf8))
    exit(64)
}
let output = URL(fileURLWithPath: arguments[arguments.startIndex])
let schemaPath = arguments[arguments.startIndex + 1]
let migrationsDirectory = arguments[arguments.startIndex + 2]
let resourcesDirectory = arguments[arguments.startIndex + 3]

/// The files of `directory` whose names end in `suffix`, as full paths in name order.
func files(in directory: String, endingWith suffix: String = "") throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory)
        .filter { $0.hasSuffix(suffix) && !$0.hasPrefix(".") }
        .sorted()
        .map { directory + "/" + $0 }
}

/// A Swift string literal of a file name.
func quoted(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}

let migrationPaths = try files(in: migrationsDirectory, endingWith: ".sql")
let postgresDirectory = migrationsDirectory + "/postgresql"
let postgresMigrationPaths = FileManager.default.fileExists(atPath: postgresDirectory)
    ? try files(in: postgresDirectory, endingWith: ".sql") : []

/// Swift source lines of an array literal of (file name, SQL text), one per file.
func migrationList(_ paths: [String]) throws -> String {
    try paths.map { path in
        // File names are checked by the migrator; here they only need to be a valid literal.
        let name = quoted((path as NSString).lastPathComponent)
        return "        (\(name), \(rawLiteral(try String(contentsOfFile: path, encoding: .utf8)))),\n"
    }.joined()
}

var source = """
// Generated at build time by EmbedFiles from migrations/, schema.graphql and resources/. Do not edit.

/// Files compiled into the binary.
enum EmbeddedFiles {
    /// The public GraphQL schema (`schema.graphql`).
    static let schema: String = \(rawLiteral(try String(contentsOfFile: schemaPath, encoding: .utf8)))

    /// SQLite's migrations (`migrations/*.sql`) in file-name order, as (file name, SQL text).
    static let migrations: [(fileName: String, sql: String)] = [

"""
source += try migrationList(migrationPaths)
source += """
    ]

    /// PostgreSQL's migrations (`migrations/postgresql/*.sql`) in file-name order, as (file name, SQL text).
    static let postgresMigrations: [(fileName: String, sql: String)] = [

"""
source += try migrationList(postgresMigrationPaths)
source += """
    ]

    /// The text files of `resources/` (such as `common-passwords.txt`), by file name.
    static let resources: [String: String] = [

"""
for path in try files(in: resourcesDirectory) {
    let name = quoted((path as NSString).lastPathComponent)
    source += "        \(name): \(rawLiteral(try String(contentsOfFile: path, encoding: .utf8))),\n"
}
source += "    ]\n}\n"
try Data(source.utf8).write(to: output, options: .atomic)
