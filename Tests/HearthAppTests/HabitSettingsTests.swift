@testable import HearthApp
import HearthServices
import Testing

/// `--max-habit-photo-bytes`, `--max-habit-map-features` and `--max-habits-per-user` (and their environment variables)
/// reach the habits' configuration, with the documented defaults and ranges.
@Suite struct HabitSettingsTests {
    private func configuration(_ arguments: [String], environment: [String: String] = [:]) throws -> HabitsConfiguration {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: environment)).habits
    }

    @Test func theDefaultsAreTheDocumentedOnes() throws {
        let defaults = try configuration([])
        #expect(defaults.photoRules.maximumBytes == 65_535 && defaults.maximumMapFeatures == 2000 && defaults.maximumHabitsPerUser == 500)
        #expect(defaults.photoRules.maximumWidth == 4096 && defaults.photoRules.maximumHeight == 4096)
    }

    @Test func flagsAndEnvironmentReachTheConfiguration() throws {
        let flags = try configuration(["--max-habit-photo-bytes", "32KiB", "--max-habit-map-features", "10", "--max-habits-per-user", "3"])
        #expect(flags.photoRules.maximumBytes == 32_768 && flags.maximumMapFeatures == 10 && flags.maximumHabitsPerUser == 3)
        let environment = try configuration([], environment: [
            "HEARTH_MAX_HABIT_PHOTO_BYTES": "1000", "HEARTH_MAX_HABIT_MAP_FEATURES": "1", "HEARTH_MAX_HABITS_PER_USER": "7",
        ])
        #expect(environment.photoRules.maximumBytes == 1000 && environment.maximumMapFeatures == 1 && environment.maximumHabitsPerUser == 7)
    }

    @Test func valuesAtTheEdgesOfTheirRangesPassAndOnePastFails() throws {
        #expect(try configuration(["--max-habit-photo-bytes", "65535"]).photoRules.maximumBytes == 65_535)
        #expect(throws: UsageError.self) { try configuration(["--max-habit-photo-bytes", "65536"]) }
        #expect(throws: UsageError.self) { try configuration(["--max-habit-photo-bytes", "0"]) }
        #expect(try configuration(["--max-habit-map-features", "100000"]).maximumMapFeatures == 100_000)
        #expect(throws: UsageError.self) { try configuration(["--max-habit-map-features", "100001"]) }
        #expect(throws: UsageError.self) { try configuration(["--max-habit-map-features", "0"]) }
        #expect(try configuration(["--max-habits-per-user", "100000"]).maximumHabitsPerUser == 100_000)
        #expect(try configuration(["--max-habits-per-user", "1"]).maximumHabitsPerUser == 1)
        #expect(throws: UsageError.self) { try configuration(["--max-habits-per-user", "100001"]) }
        #expect(throws: UsageError.self) { try configuration(["--max-habits-per-user", "0"]) }
    }
}
