@testable import HearthApp
import Testing

/// Offline sync's options: documented defaults, flags and environment, their ranges.
@Suite struct SyncSettingsTests {
    private func settings(_ arguments: [String], environment: [String: String] = [:]) throws -> ServeSettings {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: environment))
    }

    @Test func defaultsMatchTheDocumentedValues() throws {
        let sync = try settings([]).sync
        #expect(sync.maximumChangesPerPage == 500 && sync.maximumRowsPerPage == 5000)
    }

    @Test func flagsAndEnvironmentReachTheConfigurationWithinTheirRanges() throws {
        let flags = try settings(["--sync-max-page", "1", "--sync-max-rows-per-page", "1000000"]).sync
        #expect(flags.maximumChangesPerPage == 1 && flags.maximumRowsPerPage == 1_000_000)
        let environment = try settings([], environment: ["HEARTH_SYNC_MAX_PAGE": "10000", "HEARTH_SYNC_MAX_ROWS_PER_PAGE": "1"]).sync
        #expect(environment.maximumChangesPerPage == 10_000 && environment.maximumRowsPerPage == 1)
    }

    @Test(arguments: [
        ["--sync-max-page", "0"], ["--sync-max-page", "10001"], ["--sync-max-rows-per-page", "0"], ["--sync-max-rows-per-page", "1000001"],
    ])
    func valuesOutOfRangeAreRefused(arguments: [String]) {
        #expect(throws: UsageError.self) { try settings(arguments) }
    }
}
