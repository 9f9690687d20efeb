import HearthDomain

/// A place as a client sends it, checked by ``HabitService`` into a ``HabitLocation``.
public struct LocationInput: Sendable {
    /// Degrees north.
    public var latitude: Double
    /// Degrees east.
    public var longitude: Double
    /// The device's accuracy in metres.
    public var accuracyMeters: Double?

    /// Creates a place.
    public init(latitude: Double, longitude: Double, accuracyMeters: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.accuracyMeters = accuracyMeters
    }
}

/// What `recordHabitEvent` is given (US 02.01 – 02.03, US 06.01); checked by ``HabitService``.
public struct HabitEventDraft: Sendable {
    /// The viewer's habit it records doing.
    public var habitID: String
    /// The day it counts for; today in the owner's time zone when absent.
    public var occurredOn: CalendarDay?
    /// 0–20 characters after trimming.
    public var comment: String?
    /// A photo's bytes (PNG, JPEG or WebP).
    public var photo: [UInt8]?
    /// Where it happened.
    public var location: LocationInput?
    /// The id the client made for it offline (`hev_<uuid>`, ``ClientIDs``); the server makes one
    /// when absent. Sending it again (a retried upload) answers the first event, photo and all.
    public var id: String?

    /// Creates a draft.
    public init(
        habitID: String, occurredOn: CalendarDay? = nil, comment: String? = nil, photo: [UInt8]? = nil, location: LocationInput? = nil,
        id: String? = nil
    ) {
        self.id = id
        self.habitID = habitID
        self.occurredOn = occurredOn
        self.comment = comment
        self.photo = photo
        self.location = location
    }
}

/// What `updateHabitEvent` changes (US 02.05): each field given replaces the stored one and
/// absent ones stay; `.some(nil)` (an explicit `null`) removes the comment, the photo or the place.
public struct HabitEventChanges: Sendable {
    /// Another habit of the viewer's it records doing.
    public var habitID: String?
    /// Another day.
    public var occurredOn: CalendarDay?
    /// A new comment; `.some(nil)` removes it.
    public var comment: String??
    /// A new photo's bytes; `.some(nil)` removes the photo.
    public var photo: [UInt8]??
    /// A new place; `.some(nil)` removes it.
    public var location: LocationInput??

    /// Creates changes.
    public init(
        habitID: String? = nil, occurredOn: CalendarDay? = nil, comment: String?? = nil, photo: [UInt8]?? = nil, location: LocationInput?? = nil
    ) {
        self.habitID = habitID
        self.occurredOn = occurredOn
        self.comment = comment
        self.photo = photo
        self.location = location
    }
}
