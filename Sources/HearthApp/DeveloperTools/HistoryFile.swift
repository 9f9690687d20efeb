import FoundationEssentials
import Support

/// The explorer's history on disk: one entry per line, newest last, at most `limit` entries.
/// Multi-line documents are stored on one line (their lines joined by spaces), which is
/// still a valid document and recalls as one line.
struct HistoryFile: Sendable {
    /// Where the history lives.
    let path: String
    /// How many entries are kept.
    let limit: Int

    /// The history file `$HEARTH_HISTORY`, else `~/.hearth_history`.
    init(environment: [String: String], limit: Int = 1000) {
        if let path = environment["HEARTH_HISTORY"], !path.isEmpty {
            self.path = path
        } else {
            self.path = (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.hearth_history"
        }
        self.limit = limit
    }

    /// The stored entries, oldest first; empty when the file does not exist or cannot be read.
    func load() -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init).suffix(limit).map { $0 }
    }

    /// Replaces the file's contents with the last `limit` of `entries`. Failing to write is
    /// not worth interrupting the user for, so it returns whether it worked.
    @discardableResult
    func save(_ entries: [String]) -> Bool {
        let lines = entries.suffix(limit).map(Self.storable)
        let text = lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
        return FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
    }

    /// An entry as one line.
    static func storable(_ entry: String) -> String {
        entry.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }
}
