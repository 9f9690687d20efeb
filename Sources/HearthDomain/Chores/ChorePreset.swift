import FoundationEssentials

/// A ready-made chore configuration (FR-43 – FR-45): built into the binary, or saved by a
/// household's admin from one of its chores. Creating a chore from it copies these values, which
/// the request may override (FR-44).
public struct ChorePreset: Sendable, Hashable, Codable {
    /// `prs_…`; built-in presets have fixed ids (``builtInID(_:)``).
    public var id: String
    /// The household that saved it; `nil` for a built-in preset.
    public var householdID: String?
    /// The chore's title.
    public var title: String
    /// The chore's description.
    public var description: String?
    /// The default schedule; `nil` when a chore made from it must say (a saved one-off chore).
    public var schedule: PresetSchedule?
    /// Step titles, in order.
    public var steps: [String]
    /// Names of the tags the chore gets.
    public var tagNames: [String]
    /// Tokens earned.
    public var tokens: Int
    /// The suggested assignment mode.
    public var assignmentMode: AssignmentMode
    /// The youngest ages it suits.
    public var ageBand: AgeBand
    /// For the onboarding wizard's first-chore step (D-ONBOARD-2): the audience it is the
    /// quick-start template of.
    public var quickStart: QuickStartAudience?
    /// When a household saved it; `nil` for built-in presets.
    public var createdAt: Date?

    /// Creates a preset.
    public init(
        id: String, householdID: String? = nil, title: String, description: String? = nil, schedule: PresetSchedule?,
        steps: [String] = [], tagNames: [String] = [], tokens: Int = 0, assignmentMode: AssignmentMode = .singleAction,
        ageBand: AgeBand, quickStart: QuickStartAudience? = nil, createdAt: Date? = nil
    ) {
        self.id = id
        self.householdID = householdID
        self.title = title
        self.description = description
        self.schedule = schedule
        self.steps = steps
        self.tagNames = tagNames
        self.tokens = tokens
        self.assignmentMode = assignmentMode
        self.ageBand = ageBand
        self.quickStart = quickStart
        self.createdAt = createdAt
    }

    /// Whether it is built into the binary.
    public var isBuiltIn: Bool { householdID == nil }

    /// The fixed id of built-in preset `number` (1, 2, …): `prs_00000000-0000-4000-8000-<number, 12 hex digits>`.
    /// Stable forever: chores remember the preset they were made from.
    public static func builtInID(_ number: Int) -> String {
        let hex = String(number, radix: 16)
        return "prs_00000000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - hex.count)) + hex
    }

    /// Whether the preset carries tag `name` (case-insensitively).
    public func hasTag(named name: String) -> Bool {
        let key = name.lowercased()
        return tagNames.contains { $0.lowercased() == key }
    }

    /// Whether every word of `search` starts a word of the title, description, steps or tags
    /// (case-insensitively): "dish" finds "Empty the dishwasher"; "bed make" finds "Make your bed".
    public func matches(search: String) -> Bool {
        let wanted = Self.words(search)
        guard !wanted.isEmpty else { return true }
        let words = Self.words(([title, description ?? ""] + steps + tagNames).joined(separator: " "))
        return wanted.allSatisfy { query in words.contains { $0.hasPrefix(query) } }
    }

    /// The lowercased words of `text`: runs of letters and digits.
    private static func words(_ text: String) -> [Substring] {
        text.lowercased().split { !$0.isLetter && !$0.isNumber }
    }
}

/// The youngest ages a preset suits (FR-43's suggested age band). Stored as the raw value.
public enum AgeBand: String, Sendable, CaseIterable, Codable {
    /// About 4 to 7.
    case youngKids = "young_kids"
    /// About 8 to 12.
    case tweens
    /// 13 to 17.
    case teens
    /// Adults.
    case adults
}

/// The audiences of the onboarding wizard's quick-start templates (D-ONBOARD-2), in the order the
/// wizard offers them. Stored as the raw value.
public enum QuickStartAudience: String, Sendable, CaseIterable, Codable {
    /// A household with young children.
    case youngKids = "young_kids"
    /// A household with children of about 8 to 12.
    case tweens
    /// Children of different ages.
    case mixedAges = "mixed_ages"
    /// One adult, or a teenager on their own.
    case soloOrTeen = "solo_or_teen"
}
