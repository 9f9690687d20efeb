import FoundationEssentials
import HearthServices
import HearthStore
import Support

/// A household service (and the chore service over it) over the accounts harness's database,
/// with an in-process bus and a manual clock, for service-level tests of households, onboarding
/// and chores.
public struct HouseholdsHarness: Sendable {
    public let accounts: AccountsHarness
    public let service: HouseholdService
    public let chores: ChoreService
    public let bus: InProcessEventBus
    public var pool: any DatabaseWriter { accounts.pool }
    public var clock: ManualClock { accounts.clock }
    public var mail: RecordingMailQueue { accounts.mail }

    /// Calls `body` with a fresh harness; `configure` adjusts the configuration first,
    /// `configureAccounts` that of the accounts harness under it, `configureChores` the chores';
    /// `readerCount` is the pool's.
    public static func with<T>(
        configure: (inout HouseholdsConfiguration) -> Void = { _ in }, configureAccounts: (inout AccountsConfiguration) -> Void = { _ in },
        configureChores: (inout ChoresConfiguration) -> Void = { _ in }, readerCount: Int = 4, _ body: (HouseholdsHarness) async throws -> T
    ) async throws -> T {
        try await AccountsHarness.with(configure: configureAccounts, readerCount: readerCount) { accounts in
            var configuration = HouseholdsConfiguration()
            configure(&configuration)
            let bus = accounts.bus
            let clock = accounts.clock
            let service = HouseholdService(
                configuration: configuration, pool: accounts.pool, changeLog: accounts.changeLog, accounts: accounts.service,
                analytics: ActivationAnalytics(key: Array(repeating: 7, count: 32)),
                logger: Logger(label: "test", level: .critical, sink: DiscardingLogSink()), clock: clock)
            var choresConfiguration = ChoresConfiguration()
            configureChores(&choresConfiguration)
            let chores = ChoreService(configuration: choresConfiguration, households: service)
            return try await body(HouseholdsHarness(accounts: accounts, service: service, chores: chores, bus: bus))
        }
    }

    /// Registers `username`, confirms the address with the emailed token and, unless told not
    /// to, accepts the current terms (the API refuses almost everything before that); returns
    /// the signed-in viewer.
    public func confirmedViewer(_ username: String, acceptingTerms: Bool = true) async throws -> Viewer {
        let (_, issued) = try await accounts.register(username)
        if let token = mail.latestToken(to: "\(username)@example.com") {
            _ = try await accounts.service.confirmEmail(token: token)
        }
        let viewer = try await accounts.service.authenticate(accessToken: issued.accessToken)
        if acceptingTerms { _ = try await service.acceptTerms(version: service.configuration.termsVersion, viewer: viewer) }
        return viewer
    }
}
