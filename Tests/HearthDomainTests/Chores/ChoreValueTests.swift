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

    @Test func aPresetRecurrenceStartsOnItsFirstDueDayFromItsCreationInTheZoneNotInUTC() throws {
        let daily = PresetSchedule.recurrence(rule: "FREQ=DAILY", time: "09:30")
        let berlin = try #require(TimeZoneRules.named("Europe/Berlin"))
        func at(_ seconds: Int) -> Date { Date(timeIntervalSince1970: Double(seconds)) }
        // 2026-03-01T07:00Z is 08:00 in Berlin: today's 09:30 is still to come.
        #expect(daily.recurrenceText(createdAt: at(1_772_348_400), in: berlin)
            == "DTSTART;TZID=Europe/Berlin:20260301T093000\nRRULE:FREQ=DAILY")
        // At 10:00 it has passed: the chore starts tomorrow rather than overdue.
        #expect(daily.recurrenceText(createdAt: at(1_772_355_600), in: berlin)
            == "DTSTART;TZID=Europe/Berlin:20260302T093000\nRRULE:FREQ=DAILY")
        // 23:30 UTC on 1 March is 00:30 on 2 March in Berlin.
        #expect(daily.recurrenceText(createdAt: at(1_772_407_800), in: berlin)
            == "DTSTART;TZID=Europe/Berlin:20260302T093000\nRRULE:FREQ=DAILY")
        // West of UTC the local day ends later: 03:00 UTC on 2 March is 22:00 on 1 March in New York.
        let newYork = try #require(TimeZoneRules.named("America/New_York"))
        #expect(PresetSchedule.recurrence(rule: "FREQ=DAILY", time: "23:00").recurrenceText(createdAt: at(1_772_420_400), in: newYork)
            == "DTSTART;TZID=America/New_York:20260301T230000\nRRULE:FREQ=DAILY")
        #expect(PresetSchedule.afterCompletion(every: 2, unit: .weeks).recurrenceText(createdAt: at(1_772_420_400), in: .utc) == nil)
    }

    @Test func aPresetRecurrenceNeverStartsOnADayItsRuleDoesNotMake() throws {
        let saturdays = PresetSchedule.recurrence(rule: "FREQ=WEEKLY;BYDAY=SA", time: "09:30")
        let berlin = try #require(TimeZoneRules.named("Europe/Berlin"))
        func start(_ seconds: Int) -> String? {
            saturdays.recurrenceText(createdAt: Date(timeIntervalSince1970: Double(seconds)), in: berlin)?
                .split(separator: "\n").first.map(String.init)
        }
        // Wednesday 4 March 2026: DTSTART would be an occurrence of its own, so it is Saturday's.
        #expect(start(1_772_625_600) == "DTSTART;TZID=Europe/Berlin:20260307T093000")
        // Saturday 7 March at 08:00 in Berlin, then at 10:00, after the chore's time.
        #expect(start(1_772_866_800) == "DTSTART;TZID=Europe/Berlin:20260307T093000")
        #expect(start(1_772_874_000) == "DTSTART;TZID=Europe/Berlin:20260314T093000")
        let text = try #require(saturdays.recurrenceText(createdAt: Date(timeIntervalSince1970: 1_772_625_600), in: berlin))
        let rule = try RecurrenceRule.parse(text, defaultTimeZone: berlin)
        let dates = rule.occurrences(after: Date(timeIntervalSince1970: 1_772_625_600), limit: 2)
        #expect(dates.count == 2 && dates[1].timeIntervalSince(dates[0]) == 7 * 86_400, "\(dates)")
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
