import FoundationEssentials
import Support

/// The id of a chore instance, `chi_<UUID>`, derived from what identifies the instance: its
/// chore, its occurrence's original due time (iCalendar's RECURRENCE-ID) and, for a per-member
/// instance (`GROUP`, `ALL_MEMBERS`), the member. The same inputs always give the same id, so
/// recalculating instances never changes an id, the server can write an instance late (the first
/// completion of one beyond the planning horizon) under the id clients already saw, and an
/// offline client computes the id of an occurrence it expanded itself.
///
/// The UUID is a name-based UUIDv8 (RFC 9562 §5.8) laid out like a UUIDv7, so it carries the
/// occurrence and ids sort by it:
///
/// - bytes 0–5: the occurrence as Unix milliseconds, big-endian (0 for times before 1970);
/// - the remaining 74 bits (around the version nibble `8` and the variant bits `10`): the first
///   bits of SHA-256 of the UTF-8 text `<chore id>|<occurrence in Unix milliseconds>|<member id>`,
///   the member id empty for a shared instance. Byte 6 is `0x80 | d[0] & 0x0F`, byte 7 `d[1]`,
///   byte 8 `0x80 | d[2] & 0x3F`, bytes 9–15 `d[3...9]`, where `d` is the digest.
///
/// In Python:
///
/// ```python
/// def instance_id(chore_id: str, occurrence_ms: int, member_id: str = "") -> str:
///     d = hashlib.sha256(f"{chore_id}|{occurrence_ms}|{member_id}".encode()).digest()
///     b = max(occurrence_ms, 0).to_bytes(6, "big") + bytes([0x80 | d[0] & 0x0F, d[1], 0x80 | d[2] & 0x3F]) + d[3:10]
///     return "chi_" + str(uuid.UUID(bytes=b))
/// ```
///
/// Why not a UUIDv5: its SHA-1 hides the occurrence, and the server must find an occurrence it
/// never wrote from its id alone (``occurrence(of:)`` reads the time back, then only the caller's
/// chores due at that time are candidates).
public enum ChoreInstanceID {
    /// The id of the instance of `choreID` due (originally) at `occurrence`, for `memberID` when
    /// it is a per-member instance.
    public static func make(choreID: String, occurrence: Date, memberID: String?) -> GlobalID {
        let milliseconds = unixMilliseconds(occurrence)
        let digest = SHA256.digest(Array("\(choreID)|\(milliseconds)|\(memberID ?? "")".utf8))
        var bytes = [UInt8](repeating: 0, count: 16)
        let timeBits = UInt64(max(0, milliseconds))
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: timeBits >> (8 * (5 - index))) }
        bytes[6] = 0x80 | (digest[0] & 0x0F)
        bytes[7] = digest[1]
        bytes[8] = 0x80 | (digest[2] & 0x3F)
        for index in 9..<16 { bytes[index] = digest[index - 6] }
        return GlobalID.make(.choreInstance, uuidBytes: bytes)
    }

    /// The occurrence an instance id carries (its first 48 bits), at millisecond precision;
    /// `nil` for an id that is not a chore instance's.
    public static func occurrence(of id: String) -> Date? {
        guard let global = GlobalID(rawValue: id), global.kind == .choreInstance else { return nil }
        let hex = global.rawValue.utf8.dropFirst(GlobalID.Kind.choreInstance.rawValue.utf8.count + 1).filter { $0 != UInt8(ascii: "-") }.prefix(12)
        var milliseconds: UInt64 = 0
        for digit in hex {
            milliseconds = milliseconds << 4 | UInt64(digit <= UInt8(ascii: "9") ? digit - UInt8(ascii: "0") : digit - UInt8(ascii: "a") + 10)
        }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// `date` as whole Unix milliseconds (the store's precision, and the name's).
    public static func unixMilliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}
