/// Geohash: a point's cell in a grid that halves longitude and latitude alternately, written in
/// base 32 (`0123456789bcdefghjkmnpqrstuvwxyz`). A longer hash is a smaller cell inside the cell
/// of each of its prefixes, so "every point in this cell" is one range of sorted hashes: the
/// property the habit events' grid index is built on.
public enum Geohash {
    /// The characters of a hash, in order: a character's index is its five bits.
    static let alphabet: [UInt8] = Array("0123456789bcdefghjkmnpqrstuvwxyz".utf8)

    /// How many characters a stored event's hash has (its cell is about 4.8 m × 4.8 m at the
    /// equator, finer than any query needs; a query reads prefix ranges of it).
    public static let storedPrecision = 9

    /// The hash of length `precision` (1 to 12) of the cell holding a point given in degrees.
    /// Latitude must be in −90…90 and longitude in −180…180 (the callers validate); a point on a
    /// cell's west or south edge belongs to that cell, and 180° to the easternmost cell.
    public static func encode(latitude: Double, longitude: Double, precision: Int = storedPrecision) -> String {
        precondition((1...12).contains(precision), "geohash precision is 1 to 12")
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
}
