import FoundationEssentials
import HearthDomain
import HearthServices
import HearthStore
import TestFixtures
import Testing

/// FR-43 – FR-45, FR-ONBOARD-6, D-ONBOARD-2: the built-in library, chores from presets, household presets.
struct PresetTests {
    private static func all(_ h: HouseholdsHarness, _ viewer: Viewer, householdID: String? = nil, search: String? = nil, tag: String? = nil)
        async throws -> [ChorePreset] {
        try await h.chores.presets(householdID: householdID, search: search, tag: tag, viewer: viewer).presets
    }

    private static func preset(titled title: String, _ h: HouseholdsHarness, _ viewer: Viewer) async throws -> ChorePreset? {
        try await all(h, viewer).first { $0.title == title }
    }

    @Test func theLibraryHasAtLeastFortyValidPresetsWithFixedIDs() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let presets = try await Self.all(h, ana)
            #expect(presets.count >= 40)
            #expect(Set(presets.map(\.id)).count == presets.count && Set(presets.map(\.title)).count == presets.count)
            for preset in presets {
                #expect(preset.isBuiltIn && GlobalID(rawValue: preset.id)?.kind == .chorePreset)
                #expect(throws: Never.self) { try DisplayText.name(preset.title, field: "title") }
                #expect(preset.steps.allSatisfy { !$0.isEmpty } && !preset.tagNames.isEmpty && preset.tokens >= 0)
                #expect(preset.tagNames.allSatisfy { $0.count <= ChoreRules.maximumTagNameLength })
                #expect(preset.assignmentMode == .singleAction || preset.assignmentMode == .allMembers, "needs no assignee")
                #expect(preset.schedule != nil)
            }
            // Every age band is served.
            #expect(Set(presets.map(\.ageBand)) == Set(AgeBand.allCases))
        }
    }

    @Test func everyPresetMakesAValidChore() async throws {
        try await HouseholdsHarness.with(configureChores: { $0.maximumTagsPerOwner = 1000 }) { h in
            let f = try await h.choreFamily()
            for preset in try await Self.all(h, f.admin) {
                let chore = try await h.chores.createChore(.init(householdID: f.householdID, presetID: preset.id), viewer: f.admin).record
                #expect(chore.title == preset.title && chore.tokens == preset.tokens && chore.presetID == preset.id)
                #expect(chore.assignmentMode == preset.assignmentMode)
            }
        }
    }

    @Test func theQuickStartTemplatesAreFourPresetsOnePerAudience() async throws {
        try await HouseholdsHarness.with { h in
            let quickStarts = h.chores.quickStartPresets
            #expect((3...5).contains(quickStarts.count))
            #expect(quickStarts.map(\.quickStart) == QuickStartAudience.allCases.map { $0 })
            #expect(quickStarts.first?.title == "Tidy your room" && quickStarts.first?.tokens == 5)
        }
    }

    @Test func searchFindsPresetsByTheStartsOfWordsAndTagsFilter() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            #expect(try await Self.all(h, ana, search: "dishwasher").map(\.title) == ["Empty the dishwasher", "Load the dishwasher"])
            #expect(try await Self.all(h, ana, search: "wash dish").map(\.title) == ["Wash the dishes"])
            #expect(try await Self.all(h, ana, search: "zebra").isEmpty)
            let pets = try await Self.all(h, ana, tag: "pets")
            #expect(!pets.isEmpty && pets.allSatisfy { $0.hasTag(named: "Pets") })
            #expect(try await Self.all(h, ana, search: "walk", tag: "Pets").map(\.title) == ["Walk the dog"])
        }
    }

    @Test func pagesFollowEachOtherByCursor() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let everything = try await Self.all(h, ana)
            let first = try await h.chores.presets(householdID: nil, first: 10, viewer: ana)
            #expect(first.presets.count == 10 && first.hasNextPage && !first.hasPreviousPage && first.totalCount == everything.count)
            let second = try await h.chores.presets(householdID: nil, first: 100, after: first.presets.last?.id, viewer: ana)
            #expect(first.presets + second.presets == everything && !second.hasNextPage && second.hasPreviousPage)
            for first in [-1, 101] {
                #expect(await h.refusal { try await h.chores.presets(householdID: nil, first: first, viewer: ana) }?.problems.first?.field == "first")
            }
            #expect(await h.refusal { try await h.chores.presets(householdID: nil, after: "prs_nope", viewer: ana) }?.problems.first?.field == "after")
        }
    }

    @Test func aChoreFromAPresetStartsOnTheLocalDateOfItsHouseholdOrOwnerNotOfUTC() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let berlin = try await h.service.createHousehold(.init(name: "Berlin", timeZone: "Europe/Berlin"), viewer: ana).household.id
            let preset = try #require(await Self.preset(titled: "Feed the pet", h, ana))
            // The clock starts at 2026-09-21T14:13:20Z: at 22:30 UTC it is 00:30 on 22 September in Berlin.
            h.clock.advance(seconds: 8 * 3600 + 16 * 60 + 40)
            let household = try await h.chores.createChore(.init(householdID: berlin, presetID: preset.id), viewer: ana).record
            #expect(household.schedule == .recurrence("DTSTART;TZID=Europe/Berlin:20260922T080000\nRRULE:FREQ=DAILY"))
            // A personal chore: its owner's zone. At 22:30 UTC on 21 September it is 07:30 on the 22nd in Tokyo.
            _ = try await h.accounts.service.updateProfile(viewer: ana, ProfileChange(timeZone: "Asia/Tokyo"))
            let personal = try await h.chores.createChore(.init(householdID: nil, presetID: preset.id), viewer: ana).record
            #expect(personal.schedule == .recurrence("DTSTART;TZID=Asia/Tokyo:20260922T080000\nRRULE:FREQ=DAILY"))
            // An hour later it is 08:30 in Tokyo, that day's 08:00 has passed: the chore starts the next day.
            h.clock.advance(seconds: 3600)
            let later = try await h.chores.createChore(.init(householdID: nil, presetID: preset.id), viewer: ana).record
            #expect(later.schedule == .recurrence("DTSTART;TZID=Asia/Tokyo:20260923T080000\nRRULE:FREQ=DAILY"))
        }
    }

    @Test func aChoreFromAPresetTakesItsConfigurationWithOverridesAndItsTags() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let preset = try #require(await Self.preset(titled: "Do a load of laundry", h, f.admin))
            let existing = try await h.chores.createTag(householdID: f.householdID, name: "laundry", viewer: f.admin).tag
            let chore = try await h.chores.createChore(
                .init(householdID: f.householdID, presetID: preset.id, .init(title: "Ben's laundry", assignmentMode: .individual, assigneeIDs: [f.memberID], tokens: 7)),
                viewer: f.admin).record
            #expect(chore.title == "Ben's laundry" && chore.tokens == 7 && chore.assignmentMode == .individual)
            #expect(chore.schedule == .afterCompletion(every: 3, unit: .days, firstDueAt: h.clock.now))
            let access = try await h.chores.chore(id: chore.id, viewer: f.admin).access
            #expect(try await h.chores.steps(of: [chore.id], access: access)[chore.id]?.map(\.title) == preset.steps)
            #expect(try await h.chores.tags(of: [chore.id], access: access)[chore.id]?.map(\.id) == [existing.id], "the tag of that name, whatever its case")

            let weekly = try #require(await Self.preset(titled: "Clean the bathroom", h, f.admin))
            let cleaned = try await h.chores.createChore(.init(householdID: f.householdID, presetID: weekly.id), viewer: f.admin).record
            guard case .recurrence(let text) = cleaned.schedule else { Issue.record("\(cleaned.schedule)"); return }
            #expect(text.hasPrefix("DTSTART;TZID=UTC:") && text.hasSuffix("T100000\nRRULE:FREQ=WEEKLY;BYDAY=SA"))
            #expect(try await h.chores.tags(householdID: f.householdID, viewer: f.admin).tags.map(\.name) == ["Bathroom", "Cleaning", "laundry"])
        }
    }

    @Test func aMemberMakingAChoreFromAPresetGetsOnlyTheTagsThatExist() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            _ = try await h.chores.updateChoreCreationPolicy(householdID: f.householdID, creators: PermissionRule(roles: [.member]), viewer: f.admin)
            _ = try await h.chores.createTag(householdID: f.householdID, name: "Bathroom", viewer: f.admin)
            let preset = try #require(await Self.preset(titled: "Clean the bathroom", h, f.admin))
            let chore = try await h.chores.createChore(.init(householdID: f.householdID, presetID: preset.id), viewer: f.member).record
            let access = try await h.chores.chore(id: chore.id, viewer: f.member).access
            #expect(try await h.chores.tags(of: [chore.id], access: access)[chore.id]?.map(\.name) == ["Bathroom"])
            #expect(try await h.chores.tags(householdID: f.householdID, viewer: f.admin).tags.count == 1)
        }
    }

    @Test func anUnknownOrForeignPresetIsNotFound() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let foreignChore = try await h.chore("Eve's", in: f.outsiderHouseholdID, by: f.outsider)
            let foreign = try await h.chores.saveChorePreset(choreID: foreignChore.id, viewer: f.outsider)
            for id in [foreign.id, "prs_01900000-0000-7000-8000-000000000000", "garbage"] {
                let refused = await h.refusal { try await h.chores.createChore(.init(householdID: f.householdID, presetID: id), viewer: f.admin) }
                #expect(refused?.code == .notFound && refused?.problems.first?.field == "input.presetId")
                #expect(await h.refusal { try await h.chores.preset(id: id, viewer: f.admin) } == .presetNotFound)
            }
        }
    }

    @Test func anAdminSavesAChoreAsAHouseholdPresetThatListsFirstAndMakesChores() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let tag = try await h.chores.createTag(householdID: f.householdID, name: "Garden", viewer: f.admin).tag
            let chore = try await h.chore("Hedges", in: f.householdID, by: f.admin) {
                $0.schedule = .recurrence("DTSTART;TZID=Europe/Berlin:20260301T170000\nRRULE:FREQ=MONTHLY;BYDAY=1SA")
                $0.steps = [.init(title: "Cut"), .init(title: "Sweep")]
                $0.tagIDs = [tag.id]
                $0.tokens = 12
            }
            let preset = try await h.chores.saveChorePreset(choreID: chore.id, title: "Hedge day", viewer: f.admin)
            #expect(!preset.isBuiltIn && preset.householdID == f.householdID && preset.title == "Hedge day")
            #expect(preset.schedule == .recurrence(rule: "FREQ=MONTHLY;BYDAY=1SA", time: "17:00") && preset.steps == ["Cut", "Sweep"])
            #expect(preset.tagNames == ["Garden"] && preset.tokens == 12)
            let listed = try await Self.all(h, f.member, householdID: f.householdID)
            let builtIn = try await Self.all(h, f.member)
            #expect(listed.first?.id == preset.id && listed.count == builtIn.count + 1)
            #expect(!builtIn.contains { $0.id == preset.id }, "without the household: built-in only")
            let made = try await h.chores.createChore(.init(householdID: f.householdID, presetID: preset.id), viewer: f.admin).record
            #expect(made.title == "Hedge day" && made.tokens == 12)
            #expect(await h.refusal { try await h.chores.saveChorePreset(choreID: chore.id, title: "hedge DAY", viewer: f.admin) }?.code == .conflict)
            #expect(await h.refusal { try await h.chores.saveChorePreset(choreID: chore.id, viewer: f.member) }?.reason == .adminsOnly)
            let personal = try await h.chore("Mine", in: nil, by: f.admin)
            #expect(await h.refusal { try await h.chores.saveChorePreset(choreID: personal.id, viewer: f.admin) }?.problems.first?.field == "input.choreId")
            #expect(await h.refusal { try await h.chores.deleteChorePreset(id: preset.id, viewer: f.member) }?.reason == .adminsOnly)
            #expect(try await h.chores.deleteChorePreset(id: preset.id, viewer: f.admin) == preset.id)
            #expect(await h.refusal { try await h.chores.deleteChorePreset(id: ChorePreset.builtInID(1), viewer: f.admin) } == .presetNotFound)
            #expect(try await h.chores.chore(id: made.id, viewer: f.admin).record.presetID == preset.id, "chores made from it stay")
        }
    }

    @Test func thePresetsLimitHoldsAtItsEdge() async throws {
        try await HouseholdsHarness.with(configureChores: { $0.maximumPresetsPerHousehold = 1 }) { h in
            let f = try await h.choreFamily()
            let chore = try await h.chore("Hedges", in: f.householdID, by: f.admin)
            _ = try await h.chores.saveChorePreset(choreID: chore.id, viewer: f.admin)
            let second = await h.refusal { try await h.chores.saveChorePreset(choreID: chore.id, title: "Other", viewer: f.admin) }
            #expect(second?.code == .conflict && second?.reason == .limitReached)
        }
    }
}

