import GraphQL
import HearthDomain
import HearthServices

/// `habitEventsNear` (US 06.04.01): ``GeoService`` finds the events in the circle on the geohash
/// grid, ``HabitService`` reads them and their habits as `habitHistory` does, each answered as a
/// `NearbyHabitEvent` (the `HabitEvent` and its distance in metres), nearest first.
enum NearbyResolvers {
    static func install(into resolvers: inout Resolvers, geo: GeoService, habits: HabitService) {
        resolvers.resolveAsync("Query", "habitEventsNear") { _, arguments, context, _ in
            let viewer = try RequestContext.of(context).viewer()
            let nearby = try await geo.habitEventsNear(query(arguments), viewer: viewer)
            // The events and their habits in one read each; one deleted meanwhile is left out.
            let events = try await habits.habitEvents(ids: nearby.map(\.eventID), viewer: viewer)
            let owned = try await habits.habits(ids: nearby.map(\.habitID), viewer: viewer)
            return nearby.compactMap { entry -> [String: any Sendable]? in
                guard let event = events[entry.eventID] else { return nil }
                return ["event": HabitEventValue(record: event, habit: owned[event.habitID], habits: habits), "distanceMeters": entry.distance]
            }
        }
    }

    /// The arguments as a ``NearbyQuery``; the schema's defaults fill `radiusMeters` and `scope`, and
    /// the `DateTime` scalar has checked `since`.
    static func query(_ arguments: Arguments) -> NearbyQuery {
        NearbyQuery(
            latitude: arguments.double("latitude") ?? .nan, longitude: arguments.double("longitude") ?? .nan,
            radius: arguments.double("radiusMeters") ?? 5_000, scope: arguments.string("scope").flatMap(NearbyScope.init(rawValue:)) ?? .both,
            since: arguments.string("since").flatMap(DateTimeScalar.date), first: arguments.int("first"))
    }
}
