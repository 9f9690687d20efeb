import GraphQL
import HearthDomain
import HearthServices

/// The resolvers of habits and habit events (US 01.01 – 01.06, US 02, US 04, US 06.01 – 06.02)
/// over ``HabitService``: the mutations, `habit`, `myHabits`, `habitEvent`, `habitHistory`,
/// `habitHistoryGeoJSON`, and the fields of `Habit` and `HabitEvent` that read more.
enum HabitResolvers {
    static func install(into resolvers: inout Resolvers, habits: HabitService) {
        installMutations(into: &resolvers, habits: habits)
        resolvers.resolveAsync("Query", "habit") { _, arguments, context, _ in
            HabitValue(record: try await habits.habit(id: arguments.string("id") ?? "", viewer: try RequestContext.of(context).viewer()))
        }
        resolvers.resolveAsync("Query", "myHabits") { _, arguments, context, _ in
            let page = try await habits.myHabits(
                viewer: try RequestContext.of(context).viewer(), first: arguments.int("first"), after: arguments.string("after"))
            let batch = HabitBatch()
            return TokenResolvers.connection(page) { HabitValue(record: $0, batch: batch) }
        }
        resolvers.resolveAsync("Query", "habitEvent") { _, arguments, context, _ in
            let event = try await habits.habitEvent(id: arguments.string("id") ?? "", viewer: try RequestContext.of(context).viewer())
            return HabitEventValue(record: event, habits: habits)
        }
        resolvers.resolveAsync("Query", "habitHistory") { _, arguments, context, _ in
            let viewer = try RequestContext.of(context).viewer()
            let page = try await habits.habitHistory(
                try filter(arguments), viewer: viewer, first: arguments.int("first"), after: arguments.string("after"))
            // The page's habits in one read: every event's `habit` is one of them.
            let owned = try await habits.habits(ids: page.edges.map(\.item.habitID), viewer: viewer)
            return TokenResolvers.connection(page) { HabitEventValue(record: $0, habit: owned[$0.habitID], habits: habits) }
        }
        resolvers.resolveAsync("Query", "habitHistoryGeoJSON") { _, arguments, context, _ in
            try await habits.habitHistoryGeoJSON(try filter(arguments), viewer: try RequestContext.of(context).viewer())
        }
        resolvers.resolve("Habit", "reminderTime") { source, _, context, _ in
            // The owner's own schedule: nobody else sees it.
            let habit = (source as! HabitValue).record
            guard habit.userID == (try RequestContext.of(context)).optionalViewer?.userID else { return nil }
            return habit.reminderMinute.map(QuietHours.localTime)
        }
        resolvers.resolveAsync("Habit", "owner") { source, _, context, _ in
            let habit = (source as! HabitValue).record
            let viewer = try RequestContext.of(context).viewer()
            return try await habits.households.accounts.user(id: habit.userID).map { UserValue(record: $0, isViewer: $0.id == viewer.userID) }
        }
        resolvers.resolveAsync("HabitEvent", "habit") { source, _, context, _ in
            let event = source as! HabitEventValue
            if let habit = event.habit { return HabitValue(record: habit) }
            return HabitValue(record: try await habits.habit(id: event.record.habitID, viewer: try RequestContext.of(context).viewer()))
        }
    }

    /// The `filter` argument of the history's fields.
    static func filter(_ arguments: Arguments) throws -> HabitHistoryFilter {
        let filter = MutationInput(fields: arguments.object("filter") ?? [:], path: "filter")
        return HabitHistoryFilter(
            habitID: filter.string("habitId"), commentContains: filter.string("commentContains"), near: filter.object("near").map(near))
    }

    /// A `NearFilter`; the schema requires the centre and fills the radius's default.
    private static func near(_ input: MutationInput) -> HabitHistoryFilter.Near {
        HabitHistoryFilter.Near(
            latitude: input.double("latitude") ?? .nan, longitude: input.double("longitude") ?? .nan,
            radius: input.double("radiusMeters") ?? HabitHistoryFilter.Near.defaultRadius)
    }

    /// The habits and habit events among `ids` the viewer may see, for `node`/`nodes`.
    static func nodes(ids: [String], habits: HabitService, context: RequestContext) async throws -> [String: any Sendable] {
        guard let viewer = context.optionalViewer, !ids.isEmpty else { return [:] }
        var found: [String: any Sendable] = [:]
        let batch = HabitBatch()
        for (id, habit) in try await habits.habits(ids: ids, viewer: viewer) { found[id] = HabitValue(record: habit, batch: batch) }
        for (id, event) in try await habits.habitEvents(ids: ids, viewer: viewer) { found[id] = HabitEventValue(record: event, habits: habits) }
        return found
    }
}
