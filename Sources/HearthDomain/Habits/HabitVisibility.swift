/// Who sees a habit and its events besides its owner (`habits.visibility`).
public enum HabitVisibility: String, Sendable, Hashable, CaseIterable, Codable {
    /// Users whose follow the owner accepted (the default).
    case followers
    /// Nobody but the owner.
    case `private`
}
