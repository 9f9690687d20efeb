/// A bounded FIFO of events that drops its oldest when full.
///
/// Storage grows on demand up to the capacity and is handed over whole on ``drain()``,
/// so an idle subscriber holds no buffer memory and a busy one moves its pending events
/// to the consumer in one batch without copying them.
struct EventRing {
    /// The most events held at once.
    let capacity: Int
    private var storage: [Event] = []
    /// Index of the oldest event once `storage` has wrapped around; 0 before.
    private var head = 0

    init(capacity: Int) {
        precondition(capacity >= 1, "an event buffer holds at least one event")
        self.capacity = capacity
    }

    var isEmpty: Bool { storage.isEmpty }

    /// Appends `event`; returns `false` when the buffer was full and its oldest event was
    /// dropped to make room.
    mutating func append(_ event: Event) -> Bool {
        if storage.count < capacity {
            storage.append(event)
            return true
        }
        storage[head] = event
        head = head + 1 == capacity ? 0 : head + 1
        return false
    }

    /// Removes and returns all events, oldest first.
    mutating func drain() -> [Event] {
        var events: [Event] = []
        swap(&events, &storage)
        if head != 0 {
            events = Array(events[head...] + events[..<head])
            head = 0
        }
        return events
    }

    /// Drops all events and releases the storage.
    mutating func removeAll() {
        storage = []
        head = 0
    }
}
