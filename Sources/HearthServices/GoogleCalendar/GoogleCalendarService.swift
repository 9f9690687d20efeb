import FoundationEssentials
import HearthDomain
import HearthStore
import Support

/// Google Calendar connections (FR-62, README "Google Calendar"): a user connects their Google
/// account with OAuth 2.0's authorization code flow and PKCE (`+Connection`), picks which of its
/// calendars are synced into Hearth (`+Calendars`), whose events are then kept in step
/// incrementally with sync tokens by the scheduler (`+Sync`), and may have their chores exported to
/// one Google calendar (`+Export`), soon after they change (`+ExportSoon`).
///
/// - *Secrets.* The refresh and access tokens and the PKCE verifier are stored only sealed
///   (``SecretSealer``, a key outside the database); the state travels only in the authorization
///   URL, and only its SHA-256 is stored. Log lines and errors never carry a token.
/// - *Selected calendars are imported calendars* (with `google_calendar_id`): their events are
///   stored as VEVENT text (``GoogleCalendarEvent``) beside those of files and feeds, so the
///   calendar view, busy time and offline sync treat them alike.
/// - *Without `--google-client-id`* every operation answers `UNAVAILABLE`.
public final class GoogleCalendarService: Sendable {
    /// The settings; nil when no OAuth client is configured.
    public let configuration: GoogleCalendarConfiguration?
    /// Where selected calendars are stored (and the store, clock and change log, through its households).
    let calendars: ImportedCalendarService
    /// Seals tokens and verifiers.
    let sealer: SecretSealer
    /// Google's endpoints; nil when no OAuth client is configured.
    let api: GoogleAPIClient?

    /// A service over `calendars`' store, sealing secrets with `sealer`; `configuration` nil leaves
    /// the feature off.
    public init(configuration: GoogleCalendarConfiguration?, calendars: ImportedCalendarService, sealer: SecretSealer) {
        self.configuration = configuration
        self.calendars = calendars
        self.sealer = sealer
        api = configuration.map(GoogleAPIClient.init(configuration:))
        if let configuration { registerExportSoon(on: calendars.households.changeLog, delay: configuration.exportDelay) }
    }

    var households: HouseholdService { calendars.households }
    var pool: any DatabaseWriter { calendars.pool }
    var jobs: JobQueue { calendars.jobs }

    /// The configuration and the client, when the feature is on.
    /// - Throws: ``ServiceError`` `UNAVAILABLE` when no OAuth client is configured.
    func enabled() throws -> (GoogleCalendarConfiguration, GoogleAPIClient) {
        guard let configuration, let api else {
            throw ServiceError(.unavailable, "This server has no Google OAuth client configured (--google-client-id), so Google Calendar cannot be connected.")
        }
        return (configuration, api)
    }

    /// The jobs of Google Calendar, to register with the scheduler, logging on `logger`.
    public func jobHandlers(logger: Logger) -> [any JobHandler] {
        [GoogleCalendarSyncJob(google: self, logger: logger), GoogleCalendarExportJob(google: self, logger: logger), GoogleTokenRevocationJob(google: self)]
    }

    /// `viewer`'s connection; nil when they have none.
    public func connection(for viewer: Viewer) async throws -> GoogleConnection? {
        try await pool.readPreferringCallingThread { database in
            try Self.connection(OwnerScope(Owner(viewer), database))
        }
    }

    /// Those of `ids` that name `viewer`'s connection (`node(id:)`); other ids are left out without a read.
    public func connections(ids: [String], for viewer: Viewer) async throws -> [String: GoogleConnection] {
        guard ids.contains(where: { GlobalID.mayName(.googleConnection, $0) }), let connection = try await connection(for: viewer) else { return [:] }
        return ids.contains(connection.id) ? [connection.id: connection] : [:]
    }

    /// `owner`'s connection, or nil.
    static func connection(_ owner: OwnerScope) throws -> GoogleConnection? {
        try owner.decodeOne(GoogleConnection.self, "SELECT \(GoogleConnection.columns) FROM google_connections WHERE user_id = {owner}")
    }

    /// The refusal of an operation that needs a connection `viewer` does not have (or that needs
    /// connecting again).
    static let notConnected = ServiceError(.notFound, "Connect your Google account first (startGoogleCalendarConnection).")

    /// The result `viewer`'s first run of `mutation` with `clientMutationID` recorded, or nil when
    /// this is the first (or there is no id): a replay answers it and changes nothing
    /// (``MutationReplay``; the first run records it in its last transaction).
    /// - Throws: ``ServiceError`` `CONFLICT` for an id used for another mutation, `BAD_USER_INPUT` for an overlong one.
    func replayed<Result: Codable & Sendable>(_ mutation: String, _ clientMutationID: String?, for viewer: Viewer) async throws -> Result? {
        guard let clientMutationID, !clientMutationID.isEmpty else { return nil }
        return try await pool.read { database in
            try MutationReplay.stored(clientMutationID: clientMutationID, mutation: mutation, OwnerScope(Owner(viewer), database))
        }
    }

    /// `viewer`'s connection `id`, as a replay of a mutation that answered it shows it now.
    /// - Throws: ``notConnected`` when it is gone (disconnected since).
    func replayedConnection(_ id: String, for viewer: Viewer) async throws -> GoogleConnection {
        guard let connection = try await connection(for: viewer), connection.id == id else { throw Self.notConnected }
        return connection
    }

    /// Runs `work` (blocking: it talks to Google) on a thread of its own, suspending the caller.
    func offLoop<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await DetachedThread.run(name: "hearth-google") { Result { try work() } }.get()
    }

    /// The `UNAVAILABLE` refusal of what Google failed to do, for a request that waits on it.
    static func unavailable(_ failure: GoogleFailure) -> ServiceError {
        var error = ServiceError(.unavailable, "Google Calendar did not answer as expected; try again later. (\(failure.message))")
        if case .rateLimited(let retryAfter?) = failure.kind { error.retryAfter = Int(retryAfter.components.seconds) }
        return error
    }
}
