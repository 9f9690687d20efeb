import Foundation
import HearthDomain
import TestFixtures
import Testing

@Suite struct GeohashTests {
    @Test func encodesTheReferenceExamples() {
        // The examples of geohash.org's author and of Wikipedia's article.
        #expect(Geohash.encode(latitude: 57.64911, longitude: 10.40744, precision: 11) == "u4pruydqqvj")
        #expect(Geohash.encode(latitude: 42.605, longitude: -5.603, precision: 5) == "ezs42")
        #expect(Geohash.encode(latitude: 0, longitude: 0, precision: 1) == "s")
        #expect(Geohash.encode(latitude: -90, longitude: -180, precision: 12) == "000000000000")
        #expect(Geohash.encode(latitude: 90, longitude: 180, precision: 12) == "zzzzzzzzzzzz")
    }

    @Test func decodesACellWhoseBoundsHoldEveryPointEncodedToIt() throws {
        var random = SeededRandom(seed: SeededRandom.seed(fallback: 16))
        for _ in 0..<2000 {
            let latitude = Double.random(in: -90...90, using: &random)
            let longitude = Double.random(in: -180...180, using: &random)
            let precision = random.int(1...12)
            let hash = Geohash.encode(latitude: latitude, longitude: longitude, precision: precision)
            let cell = try #require(Geohash.decode(hash))
            #expect(cell.hash == hash && cell.precision == precision)
            #expect(cell.south <= latitude && latitude <= cell.north && cell.west <= longitude && longitude <= cell.east, "\(hash)")
            #expect(cell.contains(latitude: latitude, longitude: longitude))
            // Every cell of a longer hash lies inside the cell of its prefix.
            let parent = try #require(Geohash.decode(String(hash.prefix(max(1, precision - 1)))))
            #expect(parent.south <= cell.south && cell.north <= parent.north && parent.west <= cell.west && cell.east <= parent.east)
        }
    }

    @Test func putsPointsOnWestAndSouthEdgesInTheCellAndTheGridsFarEdgesInTheLastCells() throws {
        let cell = try #require(Geohash.decode("u4pru"))
        #expect(cell.contains(latitude: cell.south, longitude: cell.west))
        #expect(!cell.contains(latitude: cell.north, longitude: cell.west))
        #expect(!cell.contains(latitude: cell.south, longitude: cell.east))
        #expect(Geohash.encode(latitude: 90, longitude: 0, precision: 2).hasPrefix("u"))
        #expect(Geohash.encode(latitude: 0, longitude: 180, precision: 1) == "x")
    }

    @Test func decodesOnlyHashesOfTheAlphabetFromOneToTwelveCharacters() {
        for text in ["", "a", "U4PRU", "u4pri", "u4pru ", "0000000000000", "ü"] {
            #expect(Geohash.decode(text) == nil, "\(text)")
        }
        #expect(Geohash.decode("zzzzzzzzzzzz") != nil)
    }

    @Test func givesCellsTheSizesOfTheGrid() throws {
        let one = try #require(Geohash.decode("s"))
        #expect(one.width == 45 && one.height == 45 && one.south == 0 && one.west == 0)
        let two = try #require(Geohash.decode("s0"))
        #expect(two.width == 11.25 && two.height == 5.625)
        let nine = try #require(Geohash.decode("s00000000"))
        #expect(nine.width == 360.0 / 8_388_608 && nine.height == 180.0 / 4_194_304)
        #expect(one.children.map(\.hash) == (0..<32).map { "s" + String(Array("0123456789bcdefghjkmnpqrstuvwxyz")[$0]) })
    }
}
