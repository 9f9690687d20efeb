/// The id of a stored object, as the API shows it and as the database keeps it in the primary
/// key: `<prefix>_<UUID>`, e.g. `hh_01942f3c-8a1b-7c2d-9e3f-4a5b6c7d8e9f`. The format is a
/// promise to clients, which will mint ids offline; it does not change.
///
/// - The prefix names the object's type (``Kind``), so a lookup reads one table, and an id of
///   another type than a field expects is answered as not found without reading anything.
/// - The UUID is in its 36-character hyphenated form (8-4-4-4-12 hex digits). Ids the server
///   makes are UUIDv7 (RFC 9562): the millisecond timestamp first makes later ids sort later,
///   so primary-key indexes grow at their end; 74 random bits make them unguessable. An id a
///   client makes may hold any UUID: version and variant bits are not checked.
/// - Case: ids compare exactly, and there is one spelling per object (clients key their caches
///   by id). Prefix and hex digits are lowercase; an uppercase letter makes an id malformed
///   (Swift's `UUID().uuidString` is uppercase: lowercase it).
/// - Legacy ids: objects stored before typed ids keep their bare-UUID id, since ids are stable
///   forever. ``form(of:)`` tells them apart; lookups read every table their type may be in,
///   as they did before.
/// - Anything else is malformed: unknown or reserved prefixes, braces, `urn:uuid:`, 32 digits
///   without hyphens, surrounding white space. A malformed id names no object.
public struct GlobalID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The type of object the id names.
    public let kind: Kind
    /// The id's text, `<prefix>_<UUID>`.
    public let rawValue: String

    /// Parses a typed id: a known prefix, `_`, and a lowercase hyphenated UUID; `nil` for
    /// anything else, legacy bare UUIDs included (see ``form(of:)``).
    public init?(rawValue: String) {
        guard let kind = Self.withBytes(of: rawValue, Self.typedKind) else { return nil }
        self.kind = kind
        self.rawValue = rawValue
    }

    private init(kind: Kind, trusted rawValue: String) {
        self.kind = kind
        self.rawValue = rawValue
    }

    /// The id's text.
    public var description: String { rawValue }

    /// A new id of `kind`: a UUIDv7 (RFC 9562) made of `unixMilliseconds` and 74 bits of
    /// `generator` (pass `SystemRandomNumberGenerator` outside tests: the bits make ids unguessable).
    public static func make(_ kind: Kind, unixMilliseconds: UInt64, using generator: inout some RandomNumberGenerator) -> GlobalID {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: unixMilliseconds >> (8 * (5 - index))) }
        let random = (generator.next() as UInt64, generator.next() as UInt64)
        for index in 6..<16 {
            let source = index < 14 ? random.0 >> (8 * (index - 6)) : random.1 >> (8 * (index - 14))
            bytes[index] = UInt8(truncatingIfNeeded: source)
        }
        bytes[6] = 0x70 | (bytes[6] & 0x0F)  // version 7
        bytes[8] = 0x80 | (bytes[8] & 0x3F)  // variant 10
        return make(kind, uuidBytes: bytes)
    }

    /// The id of `kind` holding the UUID `uuidBytes` (16 bytes, version and variant bits set by
    /// the caller): for ids derived from what they name (``ChoreInstanceID``).
    public static func make(_ kind: Kind, uuidBytes bytes: [UInt8]) -> GlobalID {
        precondition(bytes.count == 16, "a UUID has 16 bytes")
        let hex = Array("0123456789abcdef".utf8)
        var text = Array(kind.rawValue.utf8)
        text.reserveCapacity(text.count + 1 + uuidLength)
        text.append(UInt8(ascii: "_"))
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0F)])
        }
        return GlobalID(kind: kind, trusted: String(decoding: text, as: UTF8.self))
    }

    // MARK: - Ids from outside

    /// What an id a client sent can name, told from its text alone.
    public enum Form: Sendable, Hashable {
        /// A typed id: it can only name an object of its kind.
        case typed(GlobalID)
        /// A bare UUID from before typed ids: it may name an object of any kind that has such
        /// ids (``Kind/mayHaveLegacyIDs``).
        case legacy
        /// Neither: it names no object.
        case malformed
    }

    /// The form of `text`.
    public static func form(of text: String) -> Form {
        if let id = GlobalID(rawValue: text) { return .typed(id) }
        return withBytes(of: text, isUUID) ? .legacy : .malformed
    }

    /// Whether `text` may be the id of an object of `kind`: a typed id of that kind, or a legacy
    /// bare UUID when the kind has such ids. When this is false the object does not exist, and
    /// callers answer as for an unknown id without reading anything.
    public static func mayName(_ kind: Kind, _ text: String) -> Bool {
        switch form(of: text) {
        case .typed(let id): id.kind == kind
        case .legacy: kind.mayHaveLegacyIDs
        case .malformed: false
        }
    }

    // MARK: - Text

    private static let uuidLength = 36
    private static let longestPrefix = Kind.allCases.map(\.rawValue.utf8.count).max() ?? 0

    /// `body` applied to the UTF-8 bytes of `text`, read in place (a native string's are
    /// contiguous): walking a `String.UTF8View` index by index cost about 1,800 instructions per id.
    private static func withBytes<T>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        text.utf8.withContiguousStorageIfAvailable(body) ?? Array(text.utf8).withUnsafeBufferPointer(body)
    }

    /// The kind of a typed id's bytes: a known prefix, `_`, and a lowercase hyphenated UUID;
    /// `nil` for anything else.
    private static func typedKind(_ bytes: UnsafeBufferPointer<UInt8>) -> Kind? {
        guard bytes.count <= longestPrefix + 1 + uuidLength,
              let separator = bytes.firstIndex(of: UInt8(ascii: "_")),
              isUUID(UnsafeBufferPointer(rebasing: bytes[(separator + 1)...]))
        else { return nil }
        return Kind(rawValue: String(decoding: UnsafeBufferPointer(rebasing: bytes[..<separator]), as: UTF8.self))
    }

    /// Whether `bytes` are a UUID in its hyphenated form with lowercase hex digits.
    private static func isUUID(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == uuidLength else { return false }
        for (offset, byte) in bytes.enumerated() {
            switch offset {
            case 8, 13, 18, 23:
                guard byte == UInt8(ascii: "-") else { return false }
            default:
                // Unsigned differences: one comparison per range ("0"..."9", "a"..."f").
                guard byte &- UInt8(ascii: "0") < 10 || byte &- UInt8(ascii: "a") < 6 else { return false }
            }
        }
        return true
    }
}
