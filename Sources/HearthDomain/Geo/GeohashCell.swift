/// One cell of the geohash grid: its hash as bits (`value`, `5 × precision` of them, longitude
/// first and then alternating) and its bounds in degrees. The bounds are exact binary fractions of
/// the globe, so the encoder's halving puts a point in the cell exactly when
/// `south ≤ latitude < north` and `west ≤ longitude < east` (`north` and `east` included on the
/// grid's top row and eastern column, where 90° and 180° fall).
public struct GeohashCell: Sendable, Hashable {
    /// The hash's bits, the first character's in the highest place.
    public let value: UInt64
    /// The hash's length in characters (1 to 12).
    public let precision: Int

    /// The cell of hash bits `value` at `precision` characters.
    init(value: UInt64, precision: Int) {
        self.value = value
        self.precision = precision
    }

    /// The hash, as ``Geohash/encode(latitude:longitude:precision:)`` writes it.
    public var hash: String { Geohash.text(of: value, precision: precision) }

    /// How many of the hash's bits halve longitude (the first, third, … bit).
    var longitudeBits: Int { (5 * precision + 1) / 2 }
    /// How many halve latitude.
    var latitudeBits: Int { 5 * precision / 2 }

    /// The cell's column (west to east) and row (south to north) in its precision's grid.
    var columnAndRow: (column: UInt64, row: UInt64) {
        var column: UInt64 = 0
        var row: UInt64 = 0
        let bits = 5 * precision
        for position in 0..<bits {
            let bit = value >> UInt64(bits - 1 - position) & 1
            if position % 2 == 0 { column = column << 1 | bit } else { row = row << 1 | bit }
        }
        return (column, row)
    }

    /// Degrees of latitude from the south pole to the cell's southern edge.
    public var south: Double { -90 + Double(columnAndRow.row) * height }
    /// The northern edge.
    public var north: Double { south + height }
    /// The western edge.
    public var west: Double { -180 + Double(columnAndRow.column) * width }
    /// The eastern edge.
    public var east: Double { west + width }
    /// The cell's extent in degrees of latitude.
    public var height: Double { 180 / Double(UInt64(1) << UInt64(latitudeBits)) }
    /// Its extent in degrees of longitude.
    public var width: Double { 360 / Double(UInt64(1) << UInt64(longitudeBits)) }

    /// Whether the point lies in the cell as the encoder decides it (edges as the type says).
    public func contains(latitude: Double, longitude: Double) -> Bool {
        Geohash.encode(latitude: latitude, longitude: longitude, precision: precision) == hash
    }

    /// The 32 cells one character longer, in hash order (none beyond 12 characters).
    public var children: [GeohashCell] {
        guard precision < Geohash.maximumPrecision else { return [] }
        return (0..<32).map { GeohashCell(value: value << 5 | UInt64($0), precision: precision + 1) }
    }

    /// The 32 cells of one character.
    public static let roots: [GeohashCell] = (0..<32).map { GeohashCell(value: UInt64($0), precision: 1) }
}
