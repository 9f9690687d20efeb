@testable import HearthApp
import HearthServices
import Testing

/// The habit adherence flag: its documented default, its environment variable, its limit at both edges.
struct HabitAdherenceSettingsTests {
    private func settings(_ arguments: [String], environment: [String: String] = [:]) throws -> HabitAdherenceConfiguration {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: environment)).habitAdherence
    }

    @Test func theDefaultIsTheDocumentedTwoYears() throws {
        #expect(try settings([]).maximumWeeks == 104)
    }

    @Test func theLimitIsReadFromItsFlagOrItsEnvironmentVariable() throws {
        #expect(try settings(["--max-adherence-weeks", "26"]).maximumWeeks == 26)
        #expect(try settings([], environment: ["HEARTH_MAX_ADHERENCE_WEEKS": "52"]).maximumWeeks == 52)
    }

    @Test func theLimitIsAcceptedAtItsEdgesAndRefusedJustPastThem() throws {
        #expect(try settings(["--max-adherence-weeks", "1"]).maximumWeeks == 1)
        #expect(try settings(["--max-adherence-weeks", "1000"]).maximumWeeks == 1000)
        #expect(throws: UsageError.self) { try settings(["--max-adherence-weeks", "0"]) }
        #expect(throws: UsageError.self) { try settings(["--max-adherence-weeks", "1001"]) }
    }
}
