import HearthStore
import Support

/// Server secrets kept in the database (`server_metadata`): generated from the system's CSPRNG
/// on first start and read back afterwards, so they survive restarts without configuration.
enum StoredSecret {
    /// The secret stored as `name`, created with `length` random bytes when absent or shorter.
    static func value(named name: String, length: Int, pool: DatabasePool) throws -> [UInt8] {
        try pool.write { database in
            if let stored = try database.scalar(String.self, "SELECT value FROM server_metadata WHERE key = ?", [name]),
               let key = Base64URL.decode(stored), key.count >= length {
                return key
            }
            let key = SecureRandom.bytes(length)
            try database.execute(
                "INSERT OR REPLACE INTO server_metadata (key, value, updated_at) VALUES (?, ?, ?)",
                [name, Base64URL.encode(key), WallClock.now().iso8601])
            return key
        }
    }
}
