@testable import HearthApp
import Testing

/// The `--household-cache-entries` option: how many viewers' memberships and member pages are
/// kept while nothing commits.
@Suite struct HouseholdCacheSettingsTests {
    private func entries(_ arguments: [String], environment: [String: String] = [:]) throws -> Int {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: environment))
            .households.keptReadEntries
    }

    @Test func keepsTenThousandByDefaultAndTakesTheFlagOrTheEnvironment() throws {
        #expect(try entries([]) == 10_000)
        #expect(try entries(["--household-cache-entries", "25"]) == 25)
        #expect(try entries([], environment: ["HEARTH_HOUSEHOLD_CACHE_ENTRIES": "7"]) == 7)
    }

    @Test func zeroTurnsTheCacheOffAndTheRangeEndsAtTenMillion() throws {
        #expect(try entries(["--household-cache-entries", "0"]) == 0)
        #expect(try entries(["--household-cache-entries", "10000000"]) == 10_000_000)
        #expect(throws: UsageError.self) { try entries(["--household-cache-entries", "10000001"]) }
        #expect(throws: UsageError.self) { try entries(["--household-cache-entries", "-1"]) }
        #expect(throws: UsageError.self) { try entries(["--household-cache-entries", "many"]) }
    }
}
