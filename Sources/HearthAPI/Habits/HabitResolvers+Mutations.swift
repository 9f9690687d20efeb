import GraphQL
import HearthDomain
import HearthServices

extension HabitResolvers {
    /// The six habit and habit event mutations.
    static func installMutations(into resolvers: inout Resolvers, habits: HabitService) {
        resolvers.resolveMutation("createHabit") { input, context in
            let draft = HabitDraft(
                title: try input.requiredString("title"), reason: input.string("reason"), startsOn: try input.day("startsOn") ?? CalendarDay(dayNumber: 0),
                plan: try input.enumValues("plan") ?? [], visibility: try input.optionalEnumValue("visibility"), id: input.string("id"),
                reminderMinute: reminderMinute(input.string("reminderTime")))
            let habit = try await habits.createHabit(draft, viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["habit": HabitValue(record: habit)]
        }
        resolvers.resolveMutation("updateHabit") { input, context in
            let changes = HabitChanges(
                title: input.string("title"), reason: input.change("reason"), startsOn: try input.day("startsOn"),
                plan: try input.enumValues("plan"), visibility: try input.optionalEnumValue("visibility"),
                reminderMinute: input.change("reminderTime") { reminderMinute(input.string($0)) })
            let habit = try await habits.updateHabit(
                id: try input.requiredString("habitId"), changes, viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["habit": HabitValue(record: habit)]
        }
        resolvers.resolveMutation("deleteHabit") { input, context in
            let id = try await habits.deleteHabit(
                id: try input.requiredString("habitId"), viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["deletedHabitId": id]
        }
        resolvers.resolveMutation("recordHabitEvent") { input, context in
            let draft = HabitEventDraft(
                habitID: try input.requiredString("habitId"), occurredOn: try input.day("occurredOn"), comment: input.string("comment"),
                photo: try input.upload("photo", in: context.uploads) ?? nil, location: location(input.object("location")), id: input.string("id"))
            let event = try await habits.recordHabitEvent(draft, viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["habitEvent": HabitEventValue(record: event, habits: habits)]
        }
        resolvers.resolveMutation("updateHabitEvent") { input, context in
            let changes = HabitEventChanges(
                habitID: input.string("habitId"), occurredOn: try input.day("occurredOn"), comment: input.change("comment"),
                photo: try input.upload("photo", in: context.uploads), location: input.change("location") { _ in location(input.object("location")) })
            let event = try await habits.updateHabitEvent(
                id: try input.requiredString("habitEventId"), changes, viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["habitEvent": HabitEventValue(record: event, habits: habits)]
        }
        resolvers.resolveMutation("deleteHabitEvent") { input, context in
            let id = try await habits.deleteHabitEvent(
                id: try input.requiredString("habitEventId"), viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["deletedHabitEventId": id]
        }
    }

    /// The minute of the day of a `LocalTime` input (the scalar has checked it); `nil` for none.
    private static func reminderMinute(_ localTime: String?) -> Int? {
        localTime.flatMap(QuietHours.minute(localTime:))
    }

    /// A `LocationInput`; `nil` when absent or `null`.
    private static func location(_ input: MutationInput?) -> LocationInput? {
        guard let input, let latitude = input.double("latitude"), let longitude = input.double("longitude") else { return nil }
        return LocationInput(latitude: latitude, longitude: longitude, accuracyMeters: input.double("accuracyMeters"))
    }
}
