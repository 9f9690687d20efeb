import HearthDomain

extension ScopedDatabase where Key == Owner {
    /// The owner's time zone (`User.timeZone`), UTC when unset or unknown.
    func timeZone() throws -> TimeZoneRules {
        let name = try scalar(String.self, "SELECT time_zone FROM users WHERE id = {owner}")
        return name.flatMap(TimeZoneRules.named) ?? .utc
    }
}
