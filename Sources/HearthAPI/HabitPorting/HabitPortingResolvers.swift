import GraphQL
import HearthDomain
import HearthServices

/// The resolvers of importing habits from other trackers (`importLoopHabits`: the report, and
/// the habits it created as `Habit` objects, in the export's order; a habit deleted since a
/// replayed import is left out).
enum HabitPortingResolvers {
    /// Installs `importLoopHabits`, reading its archive from the request's uploads.
    static func install(into resolvers: inout Resolvers, importer: LoopImporter) {
        resolvers.resolveMutation("importLoopHabits") { input, context in
            let viewer = try context.viewer()
            let name = try input.requiredString("file")
            guard let file = context.uploads[name] else {
                throw input.problem("file", .required, "Send the archive as a file of a multipart request (graphql-multipart-request-spec).")
            }
            let report = try await importer.importArchive(file.bytes, for: viewer, clientMutationID: input.clientMutationID, field: "input.file")
            let created = try await importer.habits.habits(ids: report.createdHabitIDs, viewer: viewer)
            let batch = HabitBatch()
            return ["result": LoopImportValue.json(report), "habits": report.createdHabitIDs.compactMap { created[$0] }.map { HabitValue(record: $0, batch: batch) }]
        }
    }
}
