extension Introspection {
    static func install(into resolvers: inout Resolvers) {}
}
