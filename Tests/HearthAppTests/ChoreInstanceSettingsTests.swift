@testable import HearthApp
import HearthServices
import Testing

/// The chore instances' flags: documented defaults, environment variables, every limit at its edge.
struct ChoreInstanceSettingsTests {
    private func settings(_ arguments: [String], environment: [String: String] = [:]) throws -> InstancesConfiguration {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: environment)).choreInstances
    }

    @Test func defaultsMatchTheDocumentedValues() throws {
        let defaults = try settings([])
        #expect(defaults.horizon == .seconds(14 * 86_400) && defaults.undoWindow == .seconds(300) && defaults.maximumOccurrences == 500)
        #expect(defaults.maximumMissedOccurrences == 1000 && defaults.maximumVacationsPerMember == 20)
    }

    @Test func everyOptionIsReadFromItsFlagOrItsEnvironmentVariable() throws {
        let flags = try settings([
            "--chore-horizon", "3d", "--chore-undo-window", "90s", "--max-chore-occurrences", "50", "--max-chore-missed-occurrences", "9",
            "--max-vacations-per-member", "4",
        ])
        #expect(flags.horizon == .seconds(3 * 86_400) && flags.undoWindow == .seconds(90) && flags.maximumOccurrences == 50)
        #expect(flags.maximumMissedOccurrences == 9 && flags.maximumVacationsPerMember == 4)
        let environment = try settings([], environment: [
            "HEARTH_CHORE_HORIZON": "2h", "HEARTH_CHORE_UNDO_WINDOW": "1m", "HEARTH_MAX_CHORE_OCCURRENCES": "7",
            "HEARTH_MAX_CHORE_MISSED_OCCURRENCES": "3", "HEARTH_MAX_VACATIONS_PER_MEMBER": "2",
        ])
        #expect(environment.horizon == .seconds(7200) && environment.undoWindow == .seconds(60) && environment.maximumOccurrences == 7)
        #expect(environment.maximumMissedOccurrences == 3 && environment.maximumVacationsPerMember == 2)
    }

    @Test func eachLimitIsAcceptedAtItsEdgeAndRefusedJustPastIt() throws {
        #expect(try settings(["--chore-horizon", "1h"]).horizon == .seconds(3600))
        #expect(try settings(["--chore-horizon", "366d"]).horizon == .seconds(366 * 86_400))
        #expect(throws: UsageError.self) { try settings(["--chore-horizon", "3599s"]) }
        #expect(throws: UsageError.self) { try settings(["--chore-horizon", "367d"]) }
        #expect(try settings(["--chore-undo-window", "0s"]).undoWindow == .zero)
        #expect(try settings(["--chore-undo-window", "1d"]).undoWindow == .seconds(86_400))
        #expect(throws: UsageError.self) { try settings(["--chore-undo-window", "86401s"]) }
        #expect(try settings(["--max-chore-occurrences", "1"]).maximumOccurrences == 1)
        #expect(try settings(["--max-chore-occurrences", "10000"]).maximumOccurrences == 10_000)
        #expect(throws: UsageError.self) { try settings(["--max-chore-occurrences", "0"]) }
        #expect(throws: UsageError.self) { try settings(["--max-chore-occurrences", "10001"]) }
        #expect(try settings(["--max-chore-missed-occurrences", "0"]).maximumMissedOccurrences == 0)
        #expect(try settings(["--max-chore-missed-occurrences", "100000"]).maximumMissedOccurrences == 100_000)
        #expect(throws: UsageError.self) { try settings(["--max-chore-missed-occurrences", "-1"]) }
        #expect(throws: UsageError.self) { try settings(["--max-chore-missed-occurrences", "100001"]) }
        #expect(try settings(["--max-vacations-per-member", "1"]).maximumVacationsPerMember == 1)
        #expect(try settings(["--max-vacations-per-member", "1000"]).maximumVacationsPerMember == 1000)
        #expect(throws: UsageError.self) { try settings(["--max-vacations-per-member", "0"]) }
        #expect(throws: UsageError.self) { try settings(["--max-vacations-per-member", "1001"]) }
    }
}
