/// Geohash: a point's cell in a grid that halves longitude and latitude alternately, written in
/// base 32 (`0123456789bcdefghjkmnpqrstuvwxyz`). A longer hash is a smaller cell inside the cell
/// of each of its prefixes, so "every point in this cell" is one range of sorted hashes: the
/// property the habit events' grid index is built on (``GeohashCover``).
///
/// The alphabet is in ascending ASCII order, so the byte order of hashes (SQL's `BINARY` text
/// comparison) is the order of the cells' bit strings, and a cell's points are the stored hashes
/// `h` with `cell ≤ h < successor(cell)`.
public enum Geohash {
    /// The characters of a hash, in order: a character's index is its five bits.
    static let alphabet: [UInt8] = Array("0123456789bcdefghjkmnpqrstuvwxyz".utf8)

    /// The five bits of each ASCII byte that is a hash character; 255 for the others.
    static let bitsOfByte: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// The longest hash ``encode(latitude:longitude:precision:)`` writes and ``decode(_:)`` reads:
    /// 60 bits, a cell of about 3.7 cm × 1.9 cm.
    public static let maximumPrecision = 12

    /// How many characters a stored event's hash has. Nine characters are a cell of about
    /// 4.8 m × 4.8 m at the equator: finer than any query reads (a 5 km cover's cells have six or
    /// seven characters, a 0 m one nine), yet short enough that the index's keys stay small; a
    /// query reads prefix ranges of it. Changing it needs every stored hash rewritten.
    public static let storedPrecision = 9

    /// The hash of length `precision` (1 to 12) of the cell holding a point given in degrees.
    /// Latitude must be in −90…90 and longitude in −180…180 (the callers validate); a point on a
    /// cell's west or south edge belongs to that cell, and 180° to the easternmost cell.
    public static func encode(latitude: Double, longitude: Double, precision: Int = storedPrecision) -> String {
        precondition((1...maximumPrecision).contains(precision), "geohash precision is 1 to 12")
        var latitudeRange = (-90.0, 90.0)
        var longitudeRange = (-180.0, 180.0)
        var characters: [UInt8] = []
        characters.reserveCapacity(precision)
        var isLongitudeBit = true
        var bits = 0
        var bitCount = 0
        while characters.count < precision {
            if isLongitudeBit {
                let middle = (longitudeRange.0 + longitudeRange.1) / 2
                if longitude >= middle { bits = bits << 1 | 1; longitudeRange.0 = middle } else { bits <<= 1; longitudeRange.1 = middle }
            } else {
                let middle = (latitudeRange.0 + latitudeRange.1) / 2
                if latitude >= middle { bits = bits << 1 | 1; latitudeRange.0 = middle } else { bits <<= 1; latitudeRange.1 = middle }
            }
            isLongitudeBit.toggle()
            bitCount += 1
            if bitCount == 5 {
                characters.append(alphabet[bits])
                bits = 0
                bitCount = 0
            }
        }
        return String(decoding: characters, as: UTF8.self)
    }

    /// The cell a hash names; `nil` when `hash` is empty, longer than 12 characters, or holds a
    /// character outside the alphabet (hashes are lower case, as ``encode(latitude:longitude:precision:)`` writes them).
    public static func decode(_ hash: String) -> GeohashCell? {
        let bytes = hash.utf8
        guard (1...maximumPrecision).contains(bytes.count) else { return nil }
        var value: UInt64 = 0
        for byte in bytes {
            let bits = bitsOfByte[Int(byte)]
            guard bits != 255 else { return nil }
            value = value << 5 | UInt64(bits)
        }
        return GeohashCell(value: value, precision: bytes.count)
    }

    /// The text of `value`'s `precision` characters (its low `5 × precision` bits).
    static func text(of value: UInt64, precision: Int) -> String {
        var characters = [UInt8](repeating: 0, count: precision)
        var rest = value
        for index in stride(from: precision - 1, through: 0, by: -1) {
            characters[index] = alphabet[Int(rest & 31)]
            rest >>= 5
        }
        return String(decoding: characters, as: UTF8.self)
    }
}
