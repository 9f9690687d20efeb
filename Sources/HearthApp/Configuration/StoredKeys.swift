import FoundationEssentials
import HearthServices
import HearthStore
import Support

/// The keys versions before the key directory kept in the database (`server_metadata`, as
/// base64url text), moved to the key directory at start so that a copy of the database no
/// longer holds them.
///
/// Each move writes the key file first and deletes the row after, so a start interrupted
/// between the two finds both on the next start: the same key, and it deletes the row; a
/// different one (the directory belongs to another database), and it refuses to start rather
/// than choose. The delete overwrites the row's bytes (`secure_delete`) and the write-ahead log
/// is checkpointed and truncated, so no page or log frame keeps the key. (SQLite's words on
/// purpose: only SQLite databases of those versions ever held keys.)
enum StoredKeys {
    /// A stored key: its `server_metadata` name, the file it moves to, its least length.
    private static let moves: [(name: String, file: String, length: Int)] = [
        ("access_token_key", ServerKeys.accessTokenFile, AccessTokens.keyLength),
        ("analytics_key", ServerKeys.analyticsFile, ServerKeys.length),
    ]

    /// Moves every stored key to `directory` (see the type's notes); does nothing when the
    /// database holds none.
    /// - Throws: ``KeyError`` `.conflicting` when the directory holds another key; `StoreError`.
    static func moveOut(to directory: KeyDirectory, pool: DatabasePool, logger: Logger) throws {
        var moved = false
        for move in moves {
            guard let stored = try pool.read({ database in
                try database.scalar(String.self, "SELECT value FROM server_metadata WHERE key = ?", [move.name])
            }) else { continue }
            // A stored value too short to be a key was never used (older versions replaced it).
            if let key = Base64URL.decode(stored), key.count >= move.length {
                let kept = try directory.keep(key, as: move.file, length: move.length)
                guard ConstantTime.equals(kept, key) else {
                    throw KeyError(
                        code: .conflicting, path: directory.file(move.file),
                        message: "the database holds a key (\(move.name) in server_metadata) that differs from the key file "
                            + "\(directory.file(move.file)); is the key directory another database's? Point --key-directory "
                            + "at this database's keys, or remove the file to have the database's key moved there")
                }
            }
            try pool.writeWithoutTransaction { database in
                try database.execute("PRAGMA secure_delete = ON")
                defer { _ = try? database.execute("PRAGMA secure_delete = OFF") }
                try database.execute("DELETE FROM server_metadata WHERE key = ?", [move.name])
            }
            logger.notice("moved a key out of the database", ["key": move.name, "file": directory.file(move.file)])
            moved = true
        }
        guard moved else { return }
        do {
            try pool.checkpoint()
        } catch {
            logger.warning("the write-ahead log still holds the moved keys until the next checkpoint", ["error": "\(error)"])
        }
    }
}
