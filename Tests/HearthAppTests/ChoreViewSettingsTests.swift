@testable import HearthApp
import HearthAPI
import Testing

/// `--chore-view-cache` and `--chore-view-cache-bytes` (and their environment variables) reach the
/// chore lists' cache, with the documented defaults and ranges.
@Suite struct ChoreViewSettingsTests {
    private func limits(_ arguments: [String], environment: [String: String] = [:]) throws -> ChoreViewCacheLimits {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: environment)).choreViews
    }

    @Test func theDefaultsAreTheDocumentedOnes() throws {
        #expect(try limits([]) == ChoreViewCacheLimits(entries: 4_096, bytes: 64 << 20))
    }

    @Test func flagsAndEnvironmentReachTheLimits() throws {
        #expect(try limits(["--chore-view-cache", "10", "--chore-view-cache-bytes", "1MiB"]) == ChoreViewCacheLimits(entries: 10, bytes: 1 << 20))
        #expect(try limits([], environment: ["HEARTH_CHORE_VIEW_CACHE": "0", "HEARTH_CHORE_VIEW_CACHE_BYTES": "0"]) == ChoreViewCacheLimits(entries: 0, bytes: 0))
    }

    @Test func valuesAtTheEdgesOfTheirRangesPassAndOnePastFails() throws {
        #expect(try limits(["--chore-view-cache", "10000000"]).entries == 10_000_000)
        #expect(throws: UsageError.self) { try limits(["--chore-view-cache", "10000001"]) }
        #expect(throws: UsageError.self) { try limits(["--chore-view-cache", "-1"]) }
        #expect(try limits(["--chore-view-cache-bytes", "\(1 << 40)"]).bytes == 1 << 40)
        #expect(throws: UsageError.self) { try limits(["--chore-view-cache-bytes", "\((1 << 40) + 1)"]) }
    }
}
