/// How soon a push should reach a device on battery (RFC 8030 §5.3, the `Urgency` header):
/// push services hold back lower urgencies to save power.
public enum PushUrgency: String, Sendable, Hashable, Codable, CaseIterable {
    /// Advertisements and the like.
    case veryLow = "very-low"
    /// Topic updates.
    case low
    /// Chat messages, reminders: the default.
    case normal
    /// Time-sensitive alerts.
    case high
}
