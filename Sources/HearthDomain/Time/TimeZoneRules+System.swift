import Support
import Synchronization

extension TimeZoneRules {
    /// The rules of zone `identifier` from the system's time zone database
    /// (``TimeZoneDatabase``), or nil when it has no such zone (same names as ``TimeZoneName``).
    ///
    /// Each zone is read and parsed once per process and kept: there are about 600 zones of
    /// a few kilobytes each, so the cache is bounded by the database itself.
    public static func named(_ identifier: String) -> TimeZoneRules? {
        if identifier == "UTC" { return .utc }
        if let cached = loaded.withLock({ $0[identifier] }) { return cached }
        guard let bytes = TimeZoneDatabase.contents(of: identifier),
            let rules = TimeZoneRules(identifier: identifier, tzif: bytes)
        else { return nil }
        return loaded.withLock { zones in
            if let raced = zones[identifier] { return raced }
            zones[identifier] = rules
            return rules
        }
    }

    private static let loaded = Mutex<[String: TimeZoneRules]>([:])
}
