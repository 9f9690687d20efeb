import HearthDomain
import Testing

/// A habit event's place (US 06.01): finite degrees in range, an accuracy of 0 or more metres.
struct HabitLocationTests {
    @Test func theEdgesOfTheRangesAreAccepted() throws {
        for (latitude, longitude) in [(90.0, 180.0), (-90.0, -180.0), (0.0, 0.0)] {
            let location = try HabitLocation(latitude: latitude, longitude: longitude, accuracyMeters: 0, field: "input.location")
            #expect(location.latitude == latitude && location.longitude == longitude && location.accuracyMeters == 0)
        }
        #expect(try HabitLocation(latitude: 1, longitude: 2, field: "l").accuracyMeters == nil)
    }

    @Test(arguments: [90.0000001, -90.0000001, .nan, .infinity, -.infinity])
    func aLatitudeOutOfRangeIsRefused(latitude: Double) {
        let problem = #expect(throws: FieldProblem.self) { try HabitLocation(latitude: latitude, longitude: 0, field: "input.location") }
        #expect(problem?.reason == .outOfRange && problem?.field == "input.location.latitude")
    }

    @Test(arguments: [180.0000001, -180.0000001, .nan, .infinity, -.infinity])
    func aLongitudeOutOfRangeIsRefused(longitude: Double) {
        let problem = #expect(throws: FieldProblem.self) { try HabitLocation(latitude: 0, longitude: longitude, field: "input.location") }
        #expect(problem?.reason == .outOfRange && problem?.field == "input.location.longitude")
    }

    @Test(arguments: [-0.001, .nan, .infinity, -.infinity])
    func anAccuracyMustBeAFiniteNumberOfMetres(accuracy: Double) {
        let problem = #expect(throws: FieldProblem.self) {
            try HabitLocation(latitude: 0, longitude: 0, accuracyMeters: accuracy, field: "input.location")
        }
        #expect(problem?.reason == .outOfRange && problem?.field == "input.location.accuracyMeters")
    }

    @Test func aLocationKnowsItsStoredGeohash() throws {
        let location = try HabitLocation(latitude: 57.64911, longitude: 10.40744, field: "l")
        #expect(location.geohash == "u4pruydqq")
    }
}
