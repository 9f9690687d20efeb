import HearthDomain
import Testing

struct WeekdayPlanTests {
    @Test func aPlanIsTheBitSetOfItsWeekdaysMondayFirst() throws {
        let plan = try WeekdayPlan([.sunday, .monday, .wednesday, .monday], field: "input.plan")
        #expect(plan.rawValue == 0b100_0101)
        #expect(plan.weekdays == [.monday, .wednesday, .sunday])
        #expect(plan.contains(.sunday) && !plan.contains(.tuesday))
        #expect(try WeekdayPlan(Weekday.allCases, field: "p").rawValue == 127)
    }

    @Test func aPlanHasAtLeastOneDay() {
        let problem = #expect(throws: FieldProblem.self) { try WeekdayPlan([], field: "input.plan") }
        #expect(problem?.reason == .required && problem?.field == "input.plan")
    }

    @Test func storedBitsOutsideOneToOneHundredTwentySevenAreNoPlan() {
        #expect(WeekdayPlan(rawValue: 0) == nil && WeekdayPlan(rawValue: 128) == nil)
        #expect(WeekdayPlan(rawValue: 1)?.weekdays == [.monday] && WeekdayPlan(rawValue: 64)?.weekdays == [.sunday])
    }
}
