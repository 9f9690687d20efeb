import FoundationEssentials
import HearthDomain
import Testing

/// The checked values of chore definitions: tag colours and names, descriptions, intervals and
/// preset schedules.
struct ChoreValueTests {
    @Test func aTagColourIsHashAndSixHexDigitsStoredInLowercase() throws {
        #expect(try TagColor("#3F8CFF", field: "input.color").hex == "#3f8cff")
        for bad in ["3f8cff", "#3f8cf", "#3f8cffa", "#gggggg", "", "#"] {
            #expect(throws: FieldProblem(field: "input.color", reason: .invalidFormat, message: "Give a colour as # and six hex digits, such as #3f8cff.")) {
                try TagColor(bad, field: "input.color")
            }
        }
    }

    @Test func aTagNameIsOneLineOfOneToThirtyTwoCharacters() throws {
        let limit = ChoreRules.maximumTagNameLength
        #expect(try DisplayText.name(String(repeating: "é", count: limit), field: "f", maximumLength: limit).count == 32)
        #expect(throws: FieldProblem.self) { try DisplayText.name(String(repeating: "x", count: limit + 1), field: "f", maximumLength: limit) }
        #expect(throws: FieldProblem.self) { try DisplayText.name("   ", field: "f", maximumLength: limit) }
        #expect(throws: FieldProblem.self) { try DisplayText.name("a\nb", field: "f", maximumLength: limit) }
    }

    @Test func aDescriptionMayHaveSeveralLinesButNoOtherControlCharacters() throws {
        #expect(try DisplayText.optionalParagraphs(" a\n\tb\r\n ", field: "f", maximumLength: 10) == "a\n\tb")
        #expect(try DisplayText.optionalParagraphs("  ", field: "f", maximumLength: 10) == nil)
        #expect(throws: FieldProblem.self) { try DisplayText.optionalParagraphs("a\u{7}b", field: "f", maximumLength: 10) }
        #expect(throws: FieldProblem.self) { try DisplayText.optionalParagraphs(String(repeating: "a", count: 11), field: "f", maximumLength: 10) }
    }

    @Test func anIntervalIsOneToAYearLong() throws {
        try IntervalUnit.days.check(366, field: "f")
        try IntervalUnit.weeks.check(52, field: "f")
        #expect(throws: FieldProblem.self) { try IntervalUnit.days.check(367, field: "f") }
        #expect(throws: FieldProblem.self) { try IntervalUnit.weeks.check(0, field: "f") }
    }

    @Test func aPresetRecurrenceStartsOnTheDayOfItsCreationInTheZoneAtItsTime() throws {
        let schedule = PresetSchedule.recurrence(rule: "FREQ=WEEKLY;BYDAY=SA", time: "09:30")
        let berlin = try #require(TimeZoneRules.named("Europe/Berlin"))
        // 2026-03-01T22:59:59Z is 23:59:59 in Berlin, a second later it is 00:00 on 2 March there.
        let beforeMidnight = Date(timeIntervalSince1970: 1_772_405_999)
        #expect(schedule.recurrenceText(createdAt: beforeMidnight, in: berlin)
            == "DTSTART;TZID=Europe/Berlin:20260301T093000\nRRULE:FREQ=WEEKLY;BYDAY=SA")
        #expect(schedule.recurrenceText(createdAt: beforeMidnight.addingTimeInterval(1), in: berlin)
            == "DTSTART;TZID=Europe/Berlin:20260302T093000\nRRULE:FREQ=WEEKLY;BYDAY=SA")
        // West of UTC the local day ends later: 02:00 UTC on 2 March is still 1 March in New York.
        let newYork = try #require(TimeZoneRules.named("America/New_York"))
        #expect(schedule.recurrenceText(createdAt: beforeMidnight.addingTimeInterval(3 * 3600 + 1), in: newYork)
            == "DTSTART;TZID=America/New_York:20260301T093000\nRRULE:FREQ=WEEKLY;BYDAY=SA")
        #expect(PresetSchedule.afterCompletion(every: 2, unit: .weeks).recurrenceText(createdAt: beforeMidnight, in: .utc) == nil)
    }

    @Test func aChoresScheduleBecomesAPresetScheduleKeepingRuleAndTimeOfDay() {
        let recurrence = ChoreSchedule.recurrence("DTSTART;TZID=Europe/Berlin:20260329T023000\nRRULE:FREQ=MONTHLY;BYDAY=-1FR\nEXDATE:20260424T023000")
        #expect(PresetSchedule(recurrence) == .recurrence(rule: "FREQ=MONTHLY;BYDAY=-1FR", time: "02:30"))
        #expect(PresetSchedule(.recurrence("DTSTART:20260301T180000Z\nRRULE:FREQ=DAILY")) == .recurrence(rule: "FREQ=DAILY", time: "18:00"))
        #expect(PresetSchedule(.afterCompletion(every: 3, unit: .days, firstDueAt: Date())) == .afterCompletion(every: 3, unit: .days))
        #expect(PresetSchedule(.once(dueAt: Date())) == nil)
    }

    @Test func aPresetMatchesWhenEveryWordStartsOneOfItsWords() {
        let preset = ChorePreset(
            id: ChorePreset.builtInID(1), title: "Empty the dishwasher", schedule: nil, steps: ["Plates and bowls"], tagNames: ["Kitchen"],
            ageBand: .tweens)
        #expect(preset.matches(search: "dish") && preset.matches(search: "EMPTY kitch") && preset.matches(search: "bowl") && preset.matches(search: " "))
        #expect(!preset.matches(search: "washer") && !preset.matches(search: "dish laundry"))
        #expect(preset.hasTag(named: "kitchen") && !preset.hasTag(named: "Kitch"))
        #expect(ChorePreset.builtInID(46) == "prs_00000000-0000-4000-8000-00000000002e")
        #expect(GlobalID(rawValue: ChorePreset.builtInID(1))?.kind == .chorePreset)
    }
}
