@testable import HearthApp
import HearthServices
import Testing

/// The limits of `habitEventsNear` (`--max-nearby-radius`, `--max-nearby-cover-ranges`).
@Suite struct GeoSettingsTests {
    private func geo(_ arguments: [String], environment: [String: String] = [:]) throws -> GeoConfiguration {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: environment)).geo
    }

    @Test func theDefaultsAreTheDocumentedOnes() throws {
        let defaults = try geo([])
        #expect(defaults.maximumRadius == 50_000 && defaults.maximumCoverRanges == 8)
    }

    @Test func flagsAndEnvironmentSetTheLimitsUpToTheirEdges() throws {
        let low = try geo(["--max-nearby-radius", "1", "--max-nearby-cover-ranges", "8"])
        #expect(low.maximumRadius == 1 && low.maximumCoverRanges == 8)
        // 8 is also the default: one more shows the flag is read.
        #expect(try geo(["--max-nearby-cover-ranges", "9"]).maximumCoverRanges == 9)
        let high = try geo([], environment: ["HEARTH_MAX_NEARBY_RADIUS": "50000", "HEARTH_MAX_NEARBY_COVER_RANGES": "256"])
        #expect(high.maximumRadius == 50_000 && high.maximumCoverRanges == 256)
    }

    @Test(arguments: [
        ["--max-nearby-radius", "0"], ["--max-nearby-radius", "50001"], ["--max-nearby-cover-ranges", "7"],
        ["--max-nearby-cover-ranges", "257"], ["--max-nearby-radius", "far"],
    ])
    func refusesValuesOnePastTheirRange(arguments: [String]) {
        #expect(throws: UsageError.self) { try geo(arguments) }
    }
}
