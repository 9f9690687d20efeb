// swift-tools-version:6.0
// Hearth: one binary, no packages from outside the toolchain. The targets and the direction of their
// dependencies are docs/architecture.md; `tools/check-dependencies` (run by `make test`) compares both with the imports.
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
        .systemLibrary(name: "CPostgreSQL", path: "Sources/CPostgreSQL"),

        // Shared by all: logging, lifecycle, clocks.
        .target(name: "Support", dependencies: ["CSystem", "COpenSSL"]),

        // Liftable libraries: no Hearth types inside.
        .target(name: "HearthHTTP", dependencies: ["CSystem", "CZlib", "Support"]),
        .target(name: "HearthStore", dependencies: ["CPostgreSQL", "CSQLite", "Support"]),
        .target(name: "Net", dependencies: ["CSystem", "COpenSSL", "Support"]),
        .target(name: "SMTP", dependencies: ["Net"]),
        .target(name: "GraphQL"),
        .target(name: "JOSE", dependencies: ["Support", "COpenSSL"]),

        // Pure rules and value types: validation, rate limits. No I/O.
        .target(name: "HearthDomain", dependencies: ["Support"]),

        // Use cases per area: transactions, events, repositories.
        .target(name: "HearthServices", dependencies: ["CZlib", "HearthDomain", "HearthStore", "JOSE", "Net", "SMTP", "Support"]),

        // GraphQL over HTTP, production limits, persisted queries, batching, and the resolvers of schema.graphql.
        .target(name: "HearthAPI", dependencies: ["GraphQL", "HearthDomain", "HearthHTTP", "HearthServices", "Support"]),

        // Composition root and the binary.
        .target(
            name: "HearthApp",
            dependencies: ["Support", "HearthDomain", "HearthHTTP", "HearthStore", "HearthServices", "GraphQL", "HearthAPI", "JOSE", "Net", "SMTP"],
            plugins: ["EmbedFilesPlugin"]
        ),
        .executableTarget(name: "hearth", dependencies: ["HearthApp", "Support"]),

        // Build-time embedding of migrations/ and schema.graphql into the binary.
        .executableTarget(name: "EmbedFiles", path: "Sources/EmbedFiles"),
        .plugin(name: "EmbedFilesPlugin", capability: .buildTool(), dependencies: ["EmbedFiles"]),

        // Engine benchmark (tools/bench/graphql, run by `make bench`).
        .executableTarget(name: "GraphQLBench", dependencies: ["GraphQL"], path: "tools/bench/graphql/Sources"),
        // Recurrence benchmark, the Swift side of tools/bench/chores/run.py (`make bench`).
        .executableTarget(name: "RecurrenceBench", dependencies: ["HearthDomain"], path: "tools/bench/chores/Sources"),
        // "Within 5 km" in process, the Swift side of tools/bench/geo/run.py (`make bench`).
        .executableTarget(
            name: "GeoBench", dependencies: ["HearthDomain", "HearthServices", "HearthStore", "Support"], path: "tools/bench/geo/Sources"),
        .executableTarget(name: "PushBench", dependencies: ["HearthServices", "JOSE", "Net", "Support"], path: "tools/bench/push/Sources"),
        // The heap cached documents hold, measured in a process of its own (DocumentCacheMemoryTests runs it).
        .executableTarget(name: "MemoryProbe", dependencies: ["GraphQL", "HearthAPI", "Support"], path: "tools/memory-probe/Sources"),

        // Shared by test targets: the test virtualenv's Python (oracles and protocol peers).
        .target(name: "TestPython", dependencies: ["TestProcess"], path: "Tests/TestPython"),
        // Shared by test targets: child processes on posix_spawn and waitpid (no Foundation Process, no Dispatch).
        .target(name: "TestProcess", dependencies: ["CSystem"], path: "Tests/TestProcess"),
        // Shared by test targets: migrated temporary databases, an accounts service with a clock tests move.
        .target(name: "TestFixtures", dependencies: ["HearthDomain", "HearthServices", "HearthStore", "Support"], path: "Tests/TestFixtures"),

        .testTarget(name: "SupportTests", dependencies: ["Support"]),
        .testTarget(name: "HearthHTTPTests", dependencies: ["HearthHTTP", "CSystem", "CZlib", "Support", "TestPython"]),
        .testTarget(name: "HearthStoreTests", dependencies: ["HearthStore", "CSQLite", "TestPython"]),
        .testTarget(name: "NetTests", dependencies: ["Net", "TestPython"]),
        .testTarget(name: "SMTPTests", dependencies: ["SMTP", "TestPython"]),
        .testTarget(name: "GraphQLTests", dependencies: ["GraphQL", "TestPython"]),
        .testTarget(name: "JOSETests", dependencies: ["JOSE", "Support", "COpenSSL", "TestPython"]),
        .testTarget(name: "HearthDomainTests", dependencies: ["HearthDomain", "Support", "TestFixtures", "TestPython"]),
        .testTarget(name: "HearthServicesTests", dependencies: ["HearthServices", "HearthDomain", "HearthStore", "JOSE", "Net", "SMTP", "Support", "TestFixtures", "TestPython"]),
        .testTarget(name: "HearthAPITests", dependencies: ["HearthAPI", "GraphQL", "HearthDomain", "HearthHTTP", "HearthServices", "HearthStore", "Support", "TestFixtures", "TestProcess", "TestPython"]),
        .testTarget(name: "HearthAppTests", dependencies: ["HearthApp", "HearthAPI", "GraphQL", "HearthDomain", "HearthHTTP", "HearthServices", "HearthStore", "JOSE", "SMTP", "Support"]),
        .testTarget(name: "EndToEndTests", dependencies: ["Support", "HearthHTTP", "HearthStore", "HearthDomain", "GraphQL", "JOSE", "TestFixtures", "TestProcess", "TestPython"]),
        .testTarget(name: "TestProcessTests", dependencies: ["TestProcess"]),
    ],
    swiftLanguageModes: [.v6]
)
