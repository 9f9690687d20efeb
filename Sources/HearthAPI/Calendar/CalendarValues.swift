import FoundationEssentials
import GraphQL
import HearthDomain
import HearthServices

/// An `AvailabilityEvent` of `schema.graphql`.
struct AvailabilityEventValue: Sendable, FieldResolvable, TypeNameResolvable {
    let record: AvailabilityEventRecord

    var graphQLTypeName: String { "AvailabilityEvent" }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": return record.id
        case "title": return record.title
        case "availability": return GraphQLEnum.name(of: record.availability)
        case "isAllDay": return allDays != nil
        case "startsAt": return startAndEnd.start
        case "endsAt": return startAndEnd.end
        case "startsOn": return allDays?.first
        case "endsOn": return allDays?.last
        case "timeZone": return record.timing.timeZone.identifier
        case "recurrence": return record.timing.recurrenceLines.isEmpty ? nil : record.timing.recurrenceLines
        case "sequence": return record.sequence
        case "createdAt": return record.createdAt
        case "updatedAt": return record.updatedAt
        default: return nil
        }
    }

    /// An all-day event's first and last day; `nil` for a timed one.
    private var allDays: (first: CalendarDay, last: CalendarDay)? {
        if case .allDay(let first, let last) = record.timing.span { return (first, last) }
        return nil
    }

    /// The first occurrence's instants (an all-day one's: the local midnights that bound it).
    private var startAndEnd: (start: Date, end: Date) {
        switch record.timing.span {
        case .timed(let start, let end): (start, end)
        case .allDay(let first, let last):
            (AvailabilityTiming.midnight(first, in: record.timing.timeZone),
             AvailabilityTiming.midnight(CalendarDay(dayNumber: last.dayNumber + 1), in: record.timing.timeZone))
        }
    }
}

/// An `AvailabilityOccurrence` of `schema.graphql`: one occurrence of an event.
struct AvailabilityOccurrenceValue: Sendable, FieldResolvable, TypeNameResolvable {
    let event: AvailabilityEventRecord
    let occurrence: AvailabilityTiming.Occurrence

    var graphQLTypeName: String { "AvailabilityOccurrence" }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "event": AvailabilityEventValue(record: event)
        case "startsAt": occurrence.start
        case "endsAt": occurrence.end
        case "startsOn": occurrence.days?.lowerBound
        case "endsOn": occurrence.days?.upperBound
        case "isAllDay": occurrence.days != nil
        case "availability": GraphQLEnum.name(of: event.availability)
        default: nil
        }
    }
}

/// A `Calendar` of `schema.graphql` (FR-59), with the values of its chore instances made once
/// for the whole answer (one batch per household, as lists do).
struct CalendarValue: Sendable, FieldResolvable {
    let view: CalendarView
    let from: CalendarDay
    let to: CalendarDay
    let services: InstanceServices

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "from": return from
        case "to": return to
        case "timeZone": return view.timeZone.identifier
        case "householdId": return view.householdID
        case "days": return days()
        default: return nil
        }
    }

    /// The days, each entry as its value; a chore instance on several days (or with reminders) is one value.
    private func days() -> [[String: any Sendable]] {
        let chores = view.days.flatMap(\.entries).compactMap { entry -> MyChore? in
            switch entry {
            case .chore(let chore): chore
            case .reminder(let reminder): reminder.chore
            case .availability, .imported: nil
            }
        }
        var seen = Set<String>()
        let unique = chores.filter { seen.insert($0.instance.id).inserted }
        let values = Dictionary(uniqueKeysWithValues: ChoreInstanceValue.values(unique, services: services).map { ($0.record.id, $0) })
        return view.days.map { day in
            let entries: [any Sendable] = day.entries.map { entry -> any Sendable in
                switch entry {
                case .chore(let chore): values[chore.instance.id]!
                case .reminder(let reminder): ReminderOccurrenceValue(reminder: reminder, instance: values[reminder.chore.instance.id]!)
                case .availability(let event, let occurrence): AvailabilityOccurrenceValue(event: event, occurrence: occurrence)
                case .imported(let imported): ImportedEventValue(imported: imported)
                }
            }
            return ["date": day.date, "entries": entries]
        }
    }
}

/// A `ReminderOccurrence` of `schema.graphql`: a reminder of a chore instance on the calendar.
struct ReminderOccurrenceValue: Sendable, FieldResolvable, TypeNameResolvable {
    let reminder: CalendarReminder
    /// The instance's value, shared with the calendar's other entries of it.
    let instance: ChoreInstanceValue

    var graphQLTypeName: String { "ReminderOccurrence" }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "firesAt": reminder.firesAt
        case "plannedAt": reminder.plannedAt
        case "deliveryOutcome": reminder.outcome.map { GraphQLEnum.name(of: $0.delivery) }
        case "delayReason": reminder.outcome.flatMap { $0.delivery == .delayed ? $0.cause : nil }.map { GraphQLEnum.name(of: $0) }
        case "skippedReason": reminder.outcome.flatMap { $0.delivery == .skipped ? $0.cause : nil }.map { GraphQLEnum.name(of: $0) }
        case "before": reminder.offset.iso8601
        case "isAtDueTime": reminder.offset.isAtDueTime
        case "choreInstance": instance
        default: nil
        }
    }
}
