import Glibc

/// The geohash cells whose union contains a circle, as few ranges of stored hashes: what the
/// "within 5 km" query reads from the grid index before it filters by exact distance.
///
/// The cells are chosen by walking the grid's tree from its 32 one-character cells: a cell the
/// circle does not reach (its nearest point is farther than the radius) is dropped; one that lies
/// wholly inside the circle, or has `precision` characters, is taken whole; any other is split into
/// its 32 children. Cells come out in hash order, and each one that starts where the one before
/// ended extends that one's range. The finer the `precision`, the less area outside the circle is
/// read but the more ranges (index seeks) it takes; ``init(circle:maximumRanges:)`` measures the
/// cover at each precision from 1 to ``Geohash/storedPrecision`` and keeps the finest that needs no
/// more than `maximumRanges` ranges.
///
/// Exact by construction: a cell is dropped only when its nearest point (on the sphere, found in
/// closed form) is more than the radius plus ``margin`` away, so rounding never loses a point on
/// the circle's edge. Longitudes wrap (a circle around 179.99° reaches cells at −180°), and a circle
/// that holds a pole, or comes near one, is bounded by latitude alone: it reaches every longitude.
public struct GeohashCover: Sendable {
    /// The ranges to read, in ascending order, disjoint and not touching.
    public let ranges: [GeohashRange]
    /// The length of the finest cells of the cover: the precision measured as the best.
    public let precision: Int
    /// How many cells the ranges hold (cells of different sizes counted alike).
    public let cellCount: Int
    /// The area of the cells, in square metres on the sphere: what a query scans, against the
    /// circle's own π r².
    public let area: Double

    /// The least `maximumRanges` may be: a circle at a pole meets all eight one-character cells
    /// of the top (or bottom) row, the most the coarsest cover needs.
    public static let minimumRangeLimit = 8

    /// How far beyond the radius a cell's nearest point may be and still be read, in metres: far
    /// more than the rounding of the distances compared, far less than the cells.
    public static let margin = 0.05

    /// The cover of `circle` with at most `maximumRanges` ranges (at least ``minimumRangeLimit``),
    /// at the finest precision that allows.
    public init(circle: GeoCircle, maximumRanges: Int) {
        precondition(maximumRanges >= Self.minimumRangeLimit, "a cover may use at least \(Self.minimumRangeLimit) ranges")
        let geometry = CoverGeometry(circle)
        var best = CoverWalk.run(geometry, precision: 1, maximumRanges: .max)!
        var precision = 2
        while precision <= Geohash.storedPrecision, let finer = CoverWalk.run(geometry, precision: precision, maximumRanges: maximumRanges) {
            best = finer
            precision += 1
        }
        ranges = best.runs.map { run in
            GeohashRange(
                lowerBound: Geohash.text(of: run.first.value, precision: run.first.precision),
                upperBound: run.last.value + 1 == UInt64(1) << UInt64(5 * run.last.precision)
                    ? nil : Geohash.text(of: run.last.value + 1, precision: run.last.precision))
        }
        self.precision = best.precision
        cellCount = best.cellCount
        area = best.area
    }

    /// Whether a stored hash lies in one of the ranges.
    public func contains(_ hash: String) -> Bool {
        ranges.contains { $0.contains(hash) }
    }
}

/// The circle's numbers the walk compares cells with, computed once per cover.
struct CoverGeometry {
    /// The centre, in radians, with its latitude's sine and cosine.
    let latitude: Double
    let longitude: Double
    let sine: Double
    let cosine: Double
    /// The radius plus the margin, in metres: how near a cell's nearest point must be.
    let reach: Double
    /// The radius, in metres.
    let radius: Double
    /// The latitudes (degrees) the circle spans, widened by the margin and clamped to the poles.
    let south: Double
    let north: Double
    /// Degrees of longitude the circle spans either side of its centre (widened by the margin);
    /// `nil` when it holds or nears a pole and so may reach any longitude.
    let longitudeSpan: Double?
    /// The centre's longitude in degrees.
    let longitudeDegrees: Double

    init(_ circle: GeoCircle) {
        latitude = circle.latitude * GreatCircle.radiansPerDegree
        longitude = circle.longitude * GreatCircle.radiansPerDegree
        longitudeDegrees = circle.longitude
        sine = sin(latitude)
        cosine = cos(latitude)
        radius = circle.radius
        reach = circle.radius + GeohashCover.margin
        let angle = reach / GreatCircle.earthRadius
        let degrees = angle / GreatCircle.radiansPerDegree
        south = max(-90, circle.latitude - degrees)
        north = min(90, circle.latitude + degrees)
        // The great circle's extremes east and west of the centre; near a pole the ratio nears 1
        // and the span 90°, where rounding matters most: from there on, every longitude.
        let ratio = sin(angle) / cosine
        longitudeSpan = north >= 90 || south <= -90 || !(ratio < 0.99) ? nil : asin(ratio) / GreatCircle.radiansPerDegree * (1 + 1e-9) + 1e-9
    }

    /// Whether the circle may reach the cell: the cheap bounds first, then the exact distance.
    func reaches(south cellSouth: Double, north cellNorth: Double, west: Double, east: Double) -> Bool {
        guard cellNorth >= south, cellSouth <= north else { return false }
        if let longitudeSpan, !Self.overlaps(west: west, east: east, from: longitudeDegrees - longitudeSpan, to: longitudeDegrees + longitudeSpan) {
            return false
        }
        return nearestDistance(south: cellSouth, north: cellNorth, west: west, east: east) <= reach
    }

    /// Whether the longitudes `west…east` (within −180…180) meet `from…to` (which may wrap).
    static func overlaps(west: Double, east: Double, from: Double, to: Double) -> Bool {
        for shift in [-360.0, 0, 360] where west + shift <= to && east + shift >= from { return true }
        return false
    }

    /// Whether every corner of the cell lies in the circle: then the walk takes the whole cell (a
    /// mistake here only reads more, never less).
    func holds(south cellSouth: Double, north cellNorth: Double, west: Double, east: Double) -> Bool {
        guard cellSouth >= south, cellNorth <= north else { return false }
        for (cornerLatitude, cornerLongitude) in [(cellSouth, west), (cellSouth, east), (cellNorth, west), (cellNorth, east)] {
            let corner = cornerLatitude * GreatCircle.radiansPerDegree
            let distance = GreatCircle.distance(
                fromLatitude: latitude, cosine: cosine, toLatitude: corner, cosine: cos(corner),
                longitudeDifference: cornerLongitude * GreatCircle.radiansPerDegree - longitude)
            if distance > radius { return false }
        }
        return true
    }

    /// The distance in metres from the centre to the cell's nearest point. Inside the cell's
    /// longitudes it is straight north or south along the centre's meridian. Otherwise it lies on
    /// the cell's meridian edge nearer in longitude (the distance to a parallel grows with the
    /// longitude between, so neither parallel edge has a nearer point than its end): where the
    /// edge's great circle comes nearest the centre, at latitude atan2(sin φ, cos φ cos Δλ),
    /// clamped to the edge (or at the edge's end nearer that point when the closest approach is
    /// beyond a pole; both ends are compared).
    func nearestDistance(south cellSouth: Double, north cellNorth: Double, west: Double, east: Double) -> Double {
        let centre = longitudeDegrees
        if Self.overlaps(west: west, east: east, from: centre, to: centre) {
            let latitudeDegrees = latitude / GreatCircle.radiansPerDegree
            if latitudeDegrees < cellSouth { return (cellSouth - latitudeDegrees) * GreatCircle.radiansPerDegree * GreatCircle.earthRadius }
            if latitudeDegrees > cellNorth { return (latitudeDegrees - cellNorth) * GreatCircle.radiansPerDegree * GreatCircle.earthRadius }
            return 0
        }
        let toWest = Self.wrapped(west - centre)
        let toEast = Self.wrapped(east - centre)
        let edge = abs(toWest) < abs(toEast) ? toWest : toEast
        let difference = edge * GreatCircle.radiansPerDegree
        let closest = atan2(sine, cosine * cos(difference))
        let southRadians = cellSouth * GreatCircle.radiansPerDegree
        let northRadians = cellNorth * GreatCircle.radiansPerDegree
        var nearest = Double.infinity
        for candidate in [min(max(closest, southRadians), northRadians), southRadians, northRadians] {
            nearest = min(nearest, GreatCircle.distance(
                fromLatitude: latitude, cosine: cosine, toLatitude: candidate, cosine: cos(candidate), longitudeDifference: difference))
        }
        return nearest
    }

    /// `degrees` moved into −180…180.
    static func wrapped(_ degrees: Double) -> Double {
        degrees > 180 ? degrees - 360 : degrees < -180 ? degrees + 360 : degrees
    }
}

/// One walk of the grid's tree at one precision (``GeohashCover``), collecting runs of
/// consecutive cells; abandoned as soon as it needs more runs than allowed.
struct CoverWalk {
    /// A run of cells consecutive in hash order: its first and its last cell.
    struct Run {
        var first: (value: UInt64, precision: Int)
        var last: (value: UInt64, precision: Int)
    }

    let geometry: CoverGeometry
    let precision: Int
    let maximumRanges: Int
    var runs: [Run] = []
    var cellCount = 0
    var area = 0.0
    /// Where the last run ends, as a 60-bit position (the hash's bits followed by zeros).
    var runEnd: UInt64 = .max
    var overflowed = false

    /// The walk's runs, or `nil` when they are more than `maximumRanges`.
    static func run(_ geometry: CoverGeometry, precision: Int, maximumRanges: Int) -> CoverWalk? {
        var walk = CoverWalk(geometry: geometry, precision: precision, maximumRanges: maximumRanges)
        for root in 0..<32 {
            walk.visit(value: UInt64(root), precision: 1, south: -90, west: -180, height: 180, width: 360)
            if walk.overflowed { return nil }
        }
        return walk
    }

    /// Visits the cell `value` of `cellPrecision` characters, whose parent's bounds are given: the
    /// cell's column and row inside the parent come from its last five bits.
    mutating func visit(value: UInt64, precision cellPrecision: Int, south parentSouth: Double, west parentWest: Double,
                        height parentHeight: Double, width parentWidth: Double) {
        guard !overflowed else { return }
        // The character's five bits alternate starting with longitude when the bits before it are even.
        let longitudeFirst = (5 * (cellPrecision - 1)) % 2 == 0
        var column: UInt64 = 0
        var row: UInt64 = 0
        for position in 0..<5 {
            let bit = value >> UInt64(4 - position) & 1
            if (position % 2 == 0) == longitudeFirst { column = column << 1 | bit } else { row = row << 1 | bit }
        }
        let columns = longitudeFirst ? 8.0 : 4.0
        let width = parentWidth / columns
        let height = parentHeight / (32 / columns)
        let west = parentWest + Double(column) * width
        let south = parentSouth + Double(row) * height
        let north = south + height
        let east = west + width
        guard geometry.reaches(south: south, north: north, west: west, east: east) else { return }
        if cellPrecision == precision || geometry.holds(south: south, north: north, west: west, east: east) {
            take(value: value, precision: cellPrecision, south: south, north: north, width: width)
            return
        }
        for child in 0..<UInt64(32) {
            visit(value: value << 5 | child, precision: cellPrecision + 1, south: south, west: west, height: height, width: width)
        }
    }

    /// Adds the cell to the last run when it starts where that run ends, or starts a new run.
    mutating func take(value: UInt64, precision cellPrecision: Int, south: Double, north: Double, width: Double) {
        let shift = UInt64(5 * (Geohash.maximumPrecision - cellPrecision))
        let start = value << shift
        if start == runEnd, !runs.isEmpty {
            runs[runs.count - 1].last = (value, cellPrecision)
        } else {
            if runs.count == maximumRanges {
                overflowed = true
                return
            }
            runs.append(Run(first: (value, cellPrecision), last: (value, cellPrecision)))
        }
        runEnd = (value + 1) << shift
        cellCount += 1
        // A cell's area on the sphere: R² × Δλ × (sin north − sin south).
        area += GreatCircle.earthRadius * GreatCircle.earthRadius * width * GreatCircle.radiansPerDegree
            * (sin(north * GreatCircle.radiansPerDegree) - sin(south * GreatCircle.radiansPerDegree))
    }
}
