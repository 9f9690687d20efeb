// libFuzzer entry point for HearthDomain's geohash grid, compiled with Sources/HearthDomain/Geo by
// tools/fuzz/run-all (see `sources`).
//
// The input is read as a hash to decode (its first byte says how many of the following bytes),
// then a circle (latitude, longitude and radius, each from eight bytes, checked as untrusted input
// is), the cover's range limit, and points given as a bearing and a distance from the centre.
// Whatever it is: a decoded cell re-encodes to its hash and holds the points that encode to it; an
// encoded point lies in its decoded cell; a valid circle's cover keeps to its range limit, its
// ranges ascend apart, and it holds the stored hash of every point of the circle.
import FoundationEssentials

/// Reads the fuzzer's bytes in order, answering zeros once they run out.
struct FuzzReader {
    var bytes: ArraySlice<UInt8>

    mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }

    mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in byte() } }

    /// Eight bytes as a double's bit pattern (any value: NaN, infinities, subnormals), or with the
    /// top bit of the first byte clear as a fraction of `scale`, so valid coordinates come often.
    mutating func number(scale: Double) -> Double {
        let raw = bytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        if raw >> 63 == 1 { return Double(bitPattern: raw << 1) }
        return (Double(raw) / Double(UInt64(1) << 62) - 1) * scale
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGeohash(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var reader = FuzzReader(bytes: ArraySlice(UnsafeBufferPointer(start: data, count: size)))
    let text = String(decoding: reader.bytes(Int(reader.byte() % 16)), as: UTF8.self)
    if let cell = Geohash.decode(text) {
        precondition(cell.hash == text, "a decoded cell re-encodes to its hash")
        let middle = (latitude: (cell.south + cell.north) / 2, longitude: (cell.west + cell.east) / 2)
        precondition(Geohash.encode(latitude: middle.latitude, longitude: middle.longitude, precision: cell.precision) == text,
                     "the middle of a cell encodes to it")
        precondition(Geohash.encode(latitude: cell.south, longitude: cell.west, precision: cell.precision) == text,
                     "a cell's south-western corner is in it")
    }

    let latitude = reader.number(scale: 90)
    let longitude = reader.number(scale: 180)
    let radius = abs(reader.number(scale: 50_000))
    let limit = GeohashCover.minimumRangeLimit + Int(reader.byte() % 32)
    if (-90...90).contains(latitude), (-180...180).contains(longitude) {
        for precision in 1...Geohash.maximumPrecision {
            let hash = Geohash.encode(latitude: latitude, longitude: longitude, precision: precision)
            let cell = Geohash.decode(hash)!
            precondition(cell.south <= latitude && latitude <= cell.north && cell.west <= longitude && longitude <= cell.east,
                         "an encoded point lies in its cell")
        }
    }
    guard let circle = try? GeoCircle.validated(latitude: latitude, longitude: longitude, radius: radius, maximumRadius: 50_000) else {
        return 0
    }
    let cover = GeohashCover(circle: circle, maximumRanges: limit)
    precondition(!cover.ranges.isEmpty && cover.ranges.count <= limit, "the cover keeps to its range limit")
    for (earlier, later) in zip(cover.ranges, cover.ranges.dropFirst()) {
        precondition(earlier.upperBound.map { $0.utf8.lexicographicallyPrecedes(later.lowerBound.utf8) } ?? false,
                     "the ranges ascend, apart from each other")
    }
    precondition(cover.contains(Geohash.encode(latitude: latitude, longitude: longitude)), "the cover holds the centre")
    while !reader.bytes.isEmpty {
        let bearing = Double(reader.byte()) * 360 / 256 + Double(reader.byte()) / 256
        let fraction = Double(reader.byte()) / 255
        let point = GreatCircle.destination(latitude: latitude, longitude: longitude, bearing: bearing, distance: radius * fraction)
        if circle.contains(latitude: point.latitude, longitude: point.longitude) {
            precondition(cover.contains(Geohash.encode(latitude: point.latitude, longitude: point.longitude)),
                         "the cover holds every point of the circle")
        }
    }
    return 0
}
