import FoundationEssentials
import HearthDomain

extension GlobalID {
    /// A new id of `kind` at `now`, with random bits from the system's CSPRNG (`getrandom`):
    /// how the server makes the id of every object it stores.
    public static func make(_ kind: Kind, now: Date) -> GlobalID {
        var generator = SystemRandomNumberGenerator()
        return make(kind, unixMilliseconds: UInt64(max(0, now.timeIntervalSince1970 * 1000)), using: &generator)
    }
}
