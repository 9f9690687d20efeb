// swift-tools-version:6.0
// Hearth: one binary, no packages from outside the toolchain (see ../shared/DESIGN.md).
import PackageDescription

let package = Package(
    name: "Hearth",
    products: [
        .executable(name: "hearth", targets: ["hearth"]),
    ],
    targets: [
        // C shims: system calls Swift cannot reach directly, and Debian's C libraries.
        .target(name: "CSystem"),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL"),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),

        // Shared by all: logging, lifecycle, clocks.
        .target(name: "Support", dependencies: ["CSystem", "COpenSSL"]),

        // Liftable libraries: no Hearth types inside.
        .target(name: "HearthHTTP", dependencies: ["CSystem", "CZlib", "Support"]),
        .target(name: "HearthStore", dependencies: ["CSQLite", "Support"]),
        .target(name: "GraphQL"),

        // Use cases per area: transactions, events, repositories.
        .target(name: "HearthServices", dependencies: ["HearthStore", "Support"]),

        // GraphQL over HTTP, production limits, persisted queries, batching, and the resolvers of schema.graphql.
        .target(name: "HearthAPI", dependencies: ["GraphQL", "HearthHTTP", "HearthServices", "HearthStore", "Support"]),

        // Composition root and the binary.
        .target(
            name: "HearthApp",
            dependencies: ["Support", "HearthHTTP", "HearthStore", "HearthServices", "GraphQL", "HearthAPI"],
            plugins: ["EmbedFilesPlugin"]
        ),
        .executableTarget(name: "hearth", dependencies: ["HearthApp"]),

        // Build-time embedding of migrations/ and schema.graphql into the binary.
        .executableTarget(name: "EmbedFiles", path: "Sources/EmbedFiles"),
        .plugin(name: "EmbedFilesPlugin", capability: .buildTool(), dependencies: ["EmbedFiles"]),

        // Engine benchmark (tools/bench/graphql, run by `make bench`).
        .executableTarget(name: "GraphQLBench", dependencies: ["GraphQL"], path: "tools/bench/graphql/Sources"),

        // Shared by test targets: the test virtualenv's Python (oracles and protocol peers).
        .target(name: "TestPython", path: "Tests/TestPython"),

        .testTarget(name: "SupportTests", dependencies: ["Support"]),
        .testTarget(name: "HearthHTTPTests", dependencies: ["HearthHTTP", "TestPython"]),
        .testTarget(name: "HearthStoreTests", dependencies: ["HearthStore"]),
        .testTarget(name: "GraphQLTests", dependencies: ["GraphQL", "TestPython"]),
        .testTarget(name: "HearthServicesTests", dependencies: ["HearthServices", "HearthStore"]),
        .testTarget(name: "HearthAPITests", dependencies: ["HearthAPI", "GraphQL", "HearthHTTP", "HearthServices", "HearthStore", "Support", "TestPython"]),
        .testTarget(name: "HearthAppTests", dependencies: ["HearthApp", "HearthAPI", "HearthHTTP"]),
        .testTarget(name: "EndToEndTests", dependencies: ["Support", "HearthHTTP", "HearthStore", "GraphQL", "TestPython"]),
    ],
    swiftLanguageModes: [.v6]
)
