import Foundation
import HearthStore

extension ServerProcess {
    /// The first column of every row of `sql` converted to `T`, in the order the query returns
    /// them, read from the server's database while it runs. Lists are joined and values
    /// (bytes, instants) compared in Swift rather than with a store's own functions
    /// (`group_concat`, `hex`, `julianday` are SQLite's), so a probe reads the same on every store.
    func databaseColumn<T: DatabaseValueConvertible>(_ sql: String, as type: T.Type = String.self) throws -> [T] {
        try TemporaryDatabase.withExisting(database) { database in
            try database.read { try $0.query(sql).map { row in try row[0] as T } }
        }
    }

    /// The instant RFC 3339 text with fractional seconds names (a stored timestamp, as the
    /// services write them, or one the API answers with), or nil when `text` is not one.
    static func storedInstant(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
