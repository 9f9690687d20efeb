@testable import HearthDomain
import Testing

/// The pure rules of vacation mode (FR-19 – FR-24): overlapping periods and round-robin
/// redistribution by load.
struct VacationRulesTests {
    @Test func periodsOverlapWhenTheyShareAMomentAndOpenEndedOnesOverlapEverythingLater() {
        let june = VacationPeriod(start: 100, end: 200)
        #expect(june.overlaps(VacationPeriod(start: 150, end: 250)))
        #expect(june.overlaps(VacationPeriod(start: 120, end: 130)))
        #expect(!june.overlaps(VacationPeriod(start: 200, end: 300)), "ending as the next starts is no overlap")
        #expect(!june.overlaps(VacationPeriod(start: 10, end: 100)))
        #expect(june.overlaps(VacationPeriod(start: 199, end: nil)))
        #expect(VacationPeriod(start: 500, end: nil).overlaps(VacationPeriod(start: 10_000, end: nil)))
        #expect(!VacationPeriod(start: 500, end: nil).overlaps(VacationPeriod(start: 10, end: 500)))
    }

    @Test func eachInstanceGoesToTheLeastLoadedCandidateWithTiesToTheFirstListed() {
        var assignment = LoadBalancedAssignment(loads: ["ana": 2, "ben": 0, "dan": 1])
        let order = (0..<6).map { _ in assignment.assign(among: ["ana", "ben", "dan"]) }
        // ben (0); ben and dan tie at 1: ben, listed first; then dan; all at 2: ana; then ben, dan.
        #expect(order == ["ben", "ben", "dan", "ana", "ben", "dan"])
        #expect(assignment.loads == ["ana": 3, "ben": 3, "dan": 3])
    }

    @Test func theSameInputsAlwaysGiveTheSameAssignment() {
        func run() -> [String?] {
            var assignment = LoadBalancedAssignment(loads: ["b": 1])
            return [["a", "b"], ["b"], ["a", "b", "c"], [], ["c", "a"]].map { assignment.assign(among: $0) }
        }
        #expect(run() == run())
        #expect(run() == ["a", "b", "c", nil, "c"])
    }
}
