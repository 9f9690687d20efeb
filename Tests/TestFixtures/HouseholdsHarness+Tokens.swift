import HearthServices

extension HouseholdsHarness {
    /// A token service over the harness's household service, with the default limits.
    public var tokens: TokenService { TokenService(configuration: TokensConfiguration(), households: service) }
}
