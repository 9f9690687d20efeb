// Build-time tool run by EmbedFilesPlugin: writes a Swift file that holds the
// text of the SQL migrations and of schema.graphql, so the `hearth` binary never
// reads them from disk at run time (self-hosters get one file).
//
// Usage: EmbedFiles OUTPUT.swift SCHEMA.graphql MIGRATIONS-DIRECTORY
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
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: EmbedFiles OUTPUT.swift SCHEMA.graphql MIGRATIONS-DIRECTORY\n".utf8))
    exit(64)
}
let output = URL(fileURLWithPath: arguments[arguments.startIndex])
let schemaPath = arguments[arguments.startIndex + 1]
let migrationsDirectory = arguments[arguments.startIndex + 2]
let migrationPaths = try FileManager.default.contentsOfDirectory(atPath: migrationsDirectory)
    .filter { $0.hasSuffix(".sql") }
    .sorted()
    .map { migrationsDirectory + "/" + $0 }

var source = """
// Generated at build time by EmbedFiles from migrations/ and schema.graphql. Do not edit.

/// Files compiled into the binary.
enum EmbeddedFiles {
    /// The public GraphQL schema (`schema.graphql`).
    static let schema: String = \(rawLiteral(try String(contentsOfFile: schemaPath, encoding: .utf8)))

    /// The SQL migrations in file-name order, as (file name, SQL text).
    static let migrations: [(fileName: String, sql: String)] = [

"""
for path in migrationPaths {
    let name = (path as NSString).lastPathComponent
    // File names are checked by the migrator; here they only need to be a valid literal.
    let quotedName = "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    source += "        (\(quotedName), \(rawLiteral(try String(contentsOfFile: path, encoding: .utf8)))),\n"
}
source += "    ]\n}\n"
try Data(source.utf8).write(to: output, options: .atomic)
