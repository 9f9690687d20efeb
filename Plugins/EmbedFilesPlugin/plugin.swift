import Foundation
import PackagePlugin

/// Embeds `migrations/*.sql` and `schema.graphql` from the package root into the
/// target it is applied to, as the generated `EmbeddedFiles` enum.
@main
struct EmbedFilesPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let migrationsDirectory = root.appending(path: "migrations")
        let schema = root.appending(path: "schema.graphql")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        let tool = try context.tool(named: "EmbedFiles")
        return [
            .buildCommand(
                displayName: "Embedding schema.graphql and migrations/",
                executable: tool.url,
                arguments: [output.path, schema.path, migrationsDirectory.path],
                inputFiles: [schema, migrationsDirectory],
                outputFiles: [output]
            ),
        ]
    }
}
