import HearthDomain
import HearthServices
import Synchronization

/// The habits one field returned (a page of `myHabits`, today's habits, one habit), whose figures
/// load together: the first habit whose `adherence` the executor resolves dispatches one read for
/// every habit of the batch that asks, so a page costs the same statements for 3 habits as for 100
/// (``HabitAdherenceService/adherence(of:)``), not two per habit. Made per result set, so nothing is
/// cached across operations (a WebSocket connection runs many).
final class HabitBatch: Sendable {
    /// The adherence loader, made by the first habit that asks (its resolver has the service).
    private let adherenceLoader = Mutex<DataLoader<HabitRecord, HabitAdherence>?>(nil)

    /// An empty batch.
    init() {}

    /// Enqueues `habit`'s adherence with the batch's and returns the work that yields it.
    func adherence(of habit: HabitRecord, from service: HabitAdherenceService) -> @Sendable () async throws -> HabitAdherence? {
        let loader = adherenceLoader.withLock { loader in
            if let loader { return loader }
            let made = DataLoader<HabitRecord, HabitAdherence> { habits in
                let figures = try await service.adherence(of: habits)
                return Dictionary(uniqueKeysWithValues: habits.compactMap { habit in figures[habit.id].map { (habit, $0) } })
            }
            loader = made
            return made
        }
        return loader.load(habit)
    }
}
