@testable import HearthApp
import Testing

/// The chore limits' options: documented defaults, flags and environment, their ranges.
@Suite struct ChoreSettingsTests {
    private func settings(_ arguments: [String], environment: [String: String] = [:]) throws -> ServeSettings {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: environment))
    }

    @Test func defaultsMatchTheDocumentedValues() throws {
        let chores = try settings([]).chores
        #expect(chores.maximumChoresPerOwner == 1000 && chores.maximumTagsPerOwner == 100)
        #expect(chores.maximumStepsPerChore == 20 && chores.maximumPresetsPerHousehold == 100)
        #expect(chores.recurrenceLimits.maximumTextLength == 4096 && chores.recurrenceLimits.maximumExceptionDates == 256)
    }

    @Test func theRecurrenceLimitsAreReadFromFlagsAndEnvironmentWithinTheirRanges() throws {
        let flags = try settings(["--max-recurrence-length", "64", "--max-recurrence-exdates", "0"]).chores.recurrenceLimits
        #expect(flags.maximumTextLength == 64 && flags.maximumExceptionDates == 0)
        let environment = try settings([], environment: ["HEARTH_MAX_RECURRENCE_LENGTH": "1048576", "HEARTH_MAX_RECURRENCE_EXDATES": "100000"])
        #expect(environment.chores.recurrenceLimits.maximumTextLength == 1_048_576 && environment.chores.recurrenceLimits.maximumExceptionDates == 100_000)
        for arguments in [
            ["--max-recurrence-length", "63"], ["--max-recurrence-length", "1048577"], ["--max-recurrence-exdates", "-1"],
            ["--max-recurrence-exdates", "100001"],
        ] {
            #expect(throws: UsageError.self, "\(arguments)") { try settings(arguments) }
        }
    }

    @Test func flagsAndEnvironmentReachTheConfiguration() throws {
        let flags = try settings([
            "--max-chores-per-household", "5", "--max-tags-per-household", "6", "--max-steps-per-chore", "7", "--max-presets-per-household", "8",
        ]).chores
        #expect(flags.maximumChoresPerOwner == 5 && flags.maximumTagsPerOwner == 6)
        #expect(flags.maximumStepsPerChore == 7 && flags.maximumPresetsPerHousehold == 8)
        let environment = try settings([], environment: [
            "HEARTH_MAX_CHORES_PER_HOUSEHOLD": "100000", "HEARTH_MAX_TAGS_PER_HOUSEHOLD": "1", "HEARTH_MAX_STEPS_PER_CHORE": "1000",
            "HEARTH_MAX_PRESETS_PER_HOUSEHOLD": "10000",
        ]).chores
        #expect(environment.maximumChoresPerOwner == 100_000 && environment.maximumTagsPerOwner == 1)
        #expect(environment.maximumStepsPerChore == 1000 && environment.maximumPresetsPerHousehold == 10_000)
    }

    @Test func theSharingLimitsAreReadFromFlagsAndEnvironmentWithinTheirRanges() throws {
        #expect(try settings([]).chores.maximumSharesPerOwner == 100 && settings([]).chores.maximumChoresPerShare == 100)
        let flags = try settings(["--max-shares-per-user", "1", "--max-chores-per-share", "1000"]).chores
        #expect(flags.maximumSharesPerOwner == 1 && flags.maximumChoresPerShare == 1000)
        let environment = try settings([], environment: ["HEARTH_MAX_SHARES_PER_USER": "10000", "HEARTH_MAX_CHORES_PER_SHARE": "1"]).chores
        #expect(environment.maximumSharesPerOwner == 10_000 && environment.maximumChoresPerShare == 1)
        for arguments in [
            ["--max-shares-per-user", "0"], ["--max-shares-per-user", "10001"], ["--max-chores-per-share", "0"], ["--max-chores-per-share", "1001"],
        ] {
            #expect(throws: UsageError.self, "\(arguments)") { try settings(arguments) }
        }
    }

    @Test(arguments: [
        ["--max-chores-per-household", "0"], ["--max-chores-per-household", "100001"], ["--max-tags-per-household", "0"],
        ["--max-steps-per-chore", "1001"], ["--max-presets-per-household", "10001"], ["--max-steps-per-chore", "many"],
    ])
    func valuesOutsideTheirRangeAreRefused(arguments: [String]) {
        #expect(throws: UsageError.self) { try settings(arguments) }
    }
}
