import Synchronization

/// The channels notices are delivered on, registered while the services are wired (the live
/// stream and email here; push where it is configured). Each notice goes to the registered
/// channels its user chose.
public final class NotificationChannels: Sendable {
    private let channels = Mutex<[any NotificationChannel]>([])

    /// No channels.
    public init() {}

    /// Adds `channel`. Register at start.
    public func register(_ channel: any NotificationChannel) {
        channels.withLock { $0.append(channel) }
    }

    /// The registered channels among `kinds`.
    func chosen(_ kinds: Set<NotificationChannelKind>) -> [any NotificationChannel] {
        channels.withLock { $0.filter { kinds.contains($0.kind) } }
    }
}
