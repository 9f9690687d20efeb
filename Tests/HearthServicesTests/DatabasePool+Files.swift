import Foundation
import HearthStore

extension DatabasePool {
    /// Whether the bytes of the database file or its write-ahead log contain `text`: what a
    /// copy of them would give away, deleted rows and old log frames included.
    func filesContain(_ text: String) throws -> Bool {
        try [path, path + "-wal"].contains { path in
            guard FileManager.default.fileExists(atPath: path) else { return false }
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))).firstRange(of: Array(text.utf8)) != nil
        }
    }
}
