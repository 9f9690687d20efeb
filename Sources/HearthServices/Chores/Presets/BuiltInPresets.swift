import HearthDomain

/// The preset library built into the binary (FR-43): common household chores for every age, each
/// with a default schedule, steps, tags, tokens and the youngest age band it suits; four of them
/// are the onboarding wizard's quick-start templates (D-ONBOARD-2). Ids are fixed forever
/// (``ChorePreset/builtInID(_:)``): append new presets with new numbers, never renumber.
enum BuiltInPresets {
    /// Every built-in preset, by number.
    static let all: [ChorePreset] = [
        preset(1, "Make your bed", daily("07:30"), tags: ["Bedroom", "Daily"], tokens: 2, mode: .allMembers, .youngKids),
        preset(
            2, "Tidy your room", weekly("SA", "10:00"), "Toys, clothes and books back where they live.",
            steps: ["Pick up the toys", "Put clothes away", "Clear the desk"], tags: ["Bedroom", "Tidying"], tokens: 5,
            mode: .allMembers, .youngKids, quickStart: .youngKids),
        preset(3, "Put your toys away", daily("19:00"), tags: ["Tidying", "Daily"], tokens: 1, mode: .allMembers, .youngKids),
        preset(4, "Feed the pet", daily("08:00"), tags: ["Pets", "Daily"], tokens: 2, .youngKids),
        preset(5, "Set the table", daily("18:00"), tags: ["Kitchen", "Daily"], tokens: 2, .youngKids),
        preset(6, "Clear the table", daily("19:00"), tags: ["Kitchen", "Daily"], tokens: 2, .youngKids),
        preset(7, "Water the plants", weekly("WE", "17:00"), tags: ["Plants"], tokens: 2, .youngKids),
        preset(8, "Dirty clothes in the hamper", daily("20:00"), tags: ["Laundry", "Bedroom", "Daily"], tokens: 1, mode: .allMembers, .youngKids),
        preset(
            9, "Get ready for bed", daily("19:30"), steps: ["Pyjamas on", "Brush your teeth", "Pick a book"], tags: ["Self-care", "Daily"],
            tokens: 1, mode: .allMembers, .youngKids),
        preset(10, "Match the socks", weekly("SU", "16:00"), tags: ["Laundry"], tokens: 2, .youngKids),
        preset(
            11, "Empty the dishwasher", daily("07:00"), steps: ["Plates and bowls", "Glasses", "Cutlery"], tags: ["Kitchen", "Daily"],
            tokens: 3, .tweens, quickStart: .tweens),
        preset(12, "Load the dishwasher", daily("20:00"), tags: ["Kitchen", "Daily"], tokens: 3, .tweens),
        preset(13, "Wash the dishes", daily("19:30"), steps: ["Wash", "Dry", "Put away"], tags: ["Kitchen"], tokens: 4, .tweens),
        preset(14, "Take out the trash", weekly("MO,TH", "19:00"), tags: ["Kitchen", "Outdoor"], tokens: 3, .tweens),
        preset(15, "Bins to the curb", weekly("TU", "19:00"), "The evening before collection.", tags: ["Outdoor"], tokens: 3, .tweens),
        preset(16, "Sort the recycling", weekly("SU", "18:00"), tags: ["Kitchen"], tokens: 2, .tweens),
        preset(17, "Vacuum the living room", weekly("SA", "11:00"), tags: ["Cleaning", "Living room"], tokens: 4, .tweens),
        preset(18, "Dust the shelves", weekly("FR", "17:00"), tags: ["Cleaning"], tokens: 3, .tweens),
        preset(
            19, "Fold and put away laundry", weekly("SU", "17:00"), steps: ["Fold", "Put away"], tags: ["Laundry"], tokens: 4,
            mode: .allMembers, .tweens),
        preset(20, "Walk the dog", daily("17:30"), tags: ["Pets", "Outdoor", "Daily"], tokens: 3, .tweens),
        preset(21, "Clean the litter box", every(2, .days), tags: ["Pets"], tokens: 3, .tweens),
        preset(
            22, "Pack your school bag", weekly("SU,MO,TU,WE,TH", "20:00"), "The evening before a school day.", tags: ["School"],
            tokens: 1, mode: .allMembers, .tweens),
        preset(23, "Homework time", weekly("MO,TU,WE,TH", "16:00"), tags: ["School"], tokens: 2, mode: .allMembers, .tweens),
        preset(24, "Sweep the kitchen floor", weekly("WE", "19:00"), tags: ["Kitchen", "Cleaning"], tokens: 3, .tweens),
        preset(25, "Clean the bathroom sink", weekly("SA", "10:00"), tags: ["Bathroom", "Cleaning"], tokens: 3, .tweens),
        preset(
            26, "Do a load of laundry", every(3, .days), "Load, hang, fold.", steps: ["Load the machine", "Hang it up", "Fold it"],
            tags: ["Laundry"], tokens: 5, .teens),
        preset(
            27, "Clean the bathroom", weekly("SA", "10:00"), steps: ["Toilet", "Sink and mirror", "Shower or bath", "Floor"],
            tags: ["Bathroom", "Cleaning"], tokens: 8, .teens),
        preset(28, "Mop the floors", weekly("SU", "11:00"), steps: ["Sweep", "Mop"], tags: ["Cleaning"], tokens: 6, .teens),
        preset(29, "Mow the lawn", every(1, .weeks), tags: ["Garden", "Outdoor"], tokens: 8, .teens),
        preset(30, "Cook dinner", weekly("WE", "17:30"), steps: ["Plan the meal", "Cook", "Clean up"], tags: ["Kitchen", "Cooking"], tokens: 8, .teens),
        preset(
            31, "Clean out the fridge", every(2, .weeks), steps: ["Throw out old food", "Wipe the shelves"], tags: ["Kitchen", "Cleaning"],
            tokens: 5, .teens),
        preset(
            32, "Change the bed sheets", every(2, .weeks), steps: ["Strip the bed", "Put on clean sheets", "Wash the old ones"],
            tags: ["Bedroom", "Laundry"], tokens: 4, mode: .allMembers, .teens),
        preset(33, "Wash the car", every(2, .weeks), tags: ["Outdoor"], tokens: 6, .teens),
        preset(34, "Weed the garden", weekly("SA", "15:00"), tags: ["Garden", "Outdoor"], tokens: 5, .teens),
        preset(
            35, "Grocery shopping", weekly("SA", "09:00"), steps: ["Make the list", "Shop", "Put it away"], tags: ["Errands"], tokens: 6,
            .adults),
        preset(
            36, "Weekly reset", weekly("SU", "18:00"), "An hour to start the week clean.",
            steps: ["Tidy your room", "Start a wash", "Plan the week"], tags: ["Weekly", "Tidying"], tokens: 5, .teens,
            quickStart: .soloOrTeen),
        preset(37, "Pay the bills", monthly("BYMONTHDAY=1", "09:00"), tags: ["Errands", "Money"], tokens: 0, .adults),
        preset(38, "Clean the oven", monthly("BYDAY=1SA", "10:00"), tags: ["Kitchen", "Cleaning"], tokens: 8, .adults),
        preset(39, "Descale the kettle", monthly("BYMONTHDAY=15", "18:00"), tags: ["Kitchen"], tokens: 3, .adults),
        preset(40, "Test the smoke alarms", monthly("BYDAY=1SA", "11:00"), tags: ["Safety"], tokens: 2, .adults),
        preset(41, "Change the water filter", every(8, .weeks), tags: ["Kitchen"], tokens: 2, .adults),
        preset(42, "Wipe the kitchen counters", daily("21:00"), tags: ["Kitchen", "Daily"], tokens: 2, .tweens),
        preset(43, "Clean the windows", monthly("BYDAY=-1SA", "10:00"), tags: ["Cleaning"], tokens: 6, .teens),
        preset(
            44, "Family clean-up", weekly("SA", "10:00"), "Everyone helps: the little ones pick up, the older ones clean.",
            steps: ["Pick up the toys", "Vacuum", "Wipe the surfaces", "Take out the trash"], tags: ["Cleaning", "Weekly"], tokens: 5,
            mode: .allMembers, .youngKids, quickStart: .mixedAges),
        preset(45, "Read for 20 minutes", daily("19:00"), tags: ["School", "Daily"], tokens: 1, mode: .allMembers, .youngKids),
        preset(46, "Practise your instrument", weekly("MO,WE,FR", "17:00"), tags: ["School"], tokens: 2, mode: .allMembers, .tweens),
    ]

    /// The preset with `id`, if built in.
    static func preset(id: String) -> ChorePreset? {
        byID[id]
    }

    private static let byID = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })

    private static func preset(
        _ number: Int, _ title: String, _ schedule: PresetSchedule, _ description: String? = nil, steps: [String] = [],
        tags: [String], tokens: Int, mode: AssignmentMode = .singleAction, _ ageBand: AgeBand, quickStart: QuickStartAudience? = nil
    ) -> ChorePreset {
        ChorePreset(
            id: ChorePreset.builtInID(number), title: title, description: description, schedule: schedule, steps: steps, tagNames: tags,
            tokens: tokens, assignmentMode: mode, ageBand: ageBand, quickStart: quickStart)
    }

    private static func daily(_ time: String) -> PresetSchedule { .recurrence(rule: "FREQ=DAILY", time: time) }
    private static func weekly(_ days: String, _ time: String) -> PresetSchedule { .recurrence(rule: "FREQ=WEEKLY;BYDAY=\(days)", time: time) }
    private static func monthly(_ day: String, _ time: String) -> PresetSchedule { .recurrence(rule: "FREQ=MONTHLY;\(day)", time: time) }
    private static func every(_ count: Int, _ unit: IntervalUnit) -> PresetSchedule { .afterCompletion(every: count, unit: unit) }
}
