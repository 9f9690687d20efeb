import Foundation
import PackagePlugin

/// Embeds `migrations/*.sql` (SQLite's), `migrations/postgresql/*.sql`, `schema.graphql` and the files of `resources/` from the package root into the
/// target it is applied to, as the generated `EmbeddedFiles` enum.
@main
struct EmbedFilesPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let migrationsDirectory = root.appending(path: "migrations")
        let postgresMigrationsDirectory = migrationsDirectory.appending(path: "postgresql")
        let schema = root.appending(path: "schema.graphql")
        let resourcesDirectory = root.appending(path: "resources")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        let tool = try context.tool(named: "EmbedFiles")
        return [
            .buildCommand(
                displayName: "Embedding schema.graphql, migrations/ and resources/",
                executable: tool.url,
                arguments: [output.path, schema.path, migrationsDirectory.path, resourcesDirectory.path],
                inputFiles: [schema, migrationsDirectory, resourcesDirectory]
                    + (FileManager.default.fileExists(atPath: postgresMigrationsDirectory.path) ? [postgresMigrationsDirectory] : []),
                outputFiles: [output]
            ),
        ]
    }
}
