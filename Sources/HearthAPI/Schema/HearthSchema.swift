import GraphQL
import HearthServices
import Support

/// Facts about the running server, the value behind `Query.serverInfo`.
public struct ServerInfo: Sendable, FieldResolvable {
    /// The server's version.
    public var version: String
    /// When the process started.
    public var startedAt: WallClock.Instant

    /// Creates the facts.
    public init(version: String, startedAt: WallClock.Instant) {
        self.version = version
        self.startedAt = startedAt
    }

    /// The `ServerInfo` fields of `schema.graphql`.
    public func fieldValue(named name: String) -> Any? {
        switch name {
        case "version": version
        case "startedAt": startedAt
        default: nil
        }
    }
}

/// Hearth's public schema (`schema.graphql`, passed in as text) bound to its resolvers.
public enum HearthSchema {
    /// The custom scalars `schema.graphql` declares, by name.
    public static let scalars: [String: any ScalarCoercing] = ["DateTime": DateTimeScalar()]

    /// Builds and checks the schema.
    /// - Parameter sourceName: The file name error messages give, e.g. `schema.graphql`.
    /// - Throws: `SchemaError` listing every syntax or type-system problem with its location.
    public static func build(sdl: String, sourceName: String = "schema.graphql") throws(SchemaError) -> Schema {
        try buildSchema(sdl: sdl, sourceName: sourceName, options: BuildSchemaOptions(scalars: scalars))
    }

    /// Events a subscriber may fall behind by before it is told it missed some
    /// (`missedEvents`); the bus drops the oldest beyond this.
    public static let subscriptionBufferSize = 256

    /// The resolvers of `schema`; subscriptions read `events`.
    public static func resolvers(schema: Schema, serverInfo: ServerInfo, events: any EventBus) -> Resolvers {
        var resolvers = Resolvers(schema: schema)
        resolvers.resolve("Query", "serverInfo") { _, _, _, _ in serverInfo }
        resolvers.subscribe("serverEvents") { _, _, _, _ in
            EventStream.map(events.subscribe(to: [.server], bufferSize: subscriptionBufferSize)) { event, missedEvents in
                try ServerEventValue(event, missedEvents: missedEvents)
            }
        }
        return resolvers
    }

    /// The GraphQL pipeline serving `sdl`.
    /// - Throws: `SchemaError` when the SDL is invalid or lacks a field the resolvers serve.
    public static func service(
        sdl: String, serverInfo: ServerInfo, events: any EventBus, limits: GraphQLLimits, logger: Logger
    ) throws(SchemaError) -> GraphQLService {
        let schema = try build(sdl: sdl)
        return try GraphQLService(
            resolvers: resolvers(schema: schema, serverInfo: serverInfo, events: events), limits: limits, logger: logger)
    }
}
