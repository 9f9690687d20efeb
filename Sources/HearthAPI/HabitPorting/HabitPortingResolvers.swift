import GraphQL
import HearthDomain
import HearthServices

/// The resolvers of importing habits from other trackers (`importLoopHabits`).
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
            return ["result": LoopImportValue.json(report)]
        }
    }
}
