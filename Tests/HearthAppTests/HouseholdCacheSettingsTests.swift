@testable import HearthApp
import Testing

/// The `--household-cache-entries` and `--household-cache-bytes` options: how many viewers'
/// memberships, member pages and members lists' text are kept while nothing commits, and how
/// many bytes of that text.
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

    private func bytes(_ arguments: [String]) throws -> Int {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: [:])).households.keptTextBytes
    }

    @Test func theMembersListsTextIsBoundedByBytesFromZeroToOneTebibyte() throws {
        #expect(try bytes([]) == 32 << 20)
        #expect(try bytes(["--household-cache-bytes", "0"]) == 0)
        #expect(try bytes(["--household-cache-bytes", "1024GiB"]) == 1 << 40)
        #expect(throws: UsageError.self) { try bytes(["--household-cache-bytes", "1099511627777"]) }
        #expect(throws: UsageError.self) { try bytes(["--household-cache-bytes", "-1"]) }
    }
}
