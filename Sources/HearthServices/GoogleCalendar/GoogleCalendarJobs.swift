import FoundationEssentials
import HearthStore
import Support

extension JobKind {
    /// Syncs one selected Google calendar (``GoogleCalendarSyncJob``).
    public static let googleCalendarSync: JobKind = "google.calendar_sync"
    /// Exports one user's chores to their Google calendar (``GoogleCalendarExportJob``).
    public static let googleCalendarExport: JobKind = "google.calendar_export"
    /// Revokes a disconnected account's refresh token at Google (``GoogleTokenRevocationJob``).
    public static let googleTokenRevocation: JobKind = "google.revoke_token"
}

/// Syncs a selected Google calendar, one job per calendar and due time (dedupe key
/// `<calendar>@<due ms>`), each scheduling the next (``GoogleCalendarService`` `+Sync`).
///
/// Idempotent: a job runs only while the calendar's `next_sync_at` is its due time, and storing its
/// outcome moves that on in the same transaction, so a job run again after a crash is stale and does
/// nothing (a crash between the listing and the store lists again with the same sync token, which
/// Google answers the same). Google's failures are recorded on the calendar and never fail the job.
public struct GoogleCalendarSyncJob: JobHandler {
    /// The job's input.
    public struct Payload: Codable, Sendable, Hashable {
        /// The imported calendar's id.
        public var calendarID: String
        /// Its owner, read from its row when the sync was scheduled.
        public var userID: String
        /// When the sync was due.
        public var dueAt: Date
    }

    let google: GoogleCalendarService
    let logger: Logger

    public var kind: JobKind { .googleCalendarSync }

    /// Syncs the calendar if the job is still its next sync, and logs the outcome (never a token).
    public func run(_ job: Job) throws {
        let input = try job.decodePayload(Payload.self)
        let outcome = try google.sync(input.calendarID, of: Owner(scheduledWorkOf: input.userID), scheduledFor: input.dueAt)
        guard outcome != .stale else { return }
        let fields = ["google.calendar": input.calendarID, "google.outcome": outcome.rawValue]
        if outcome == .failed { logger.notice("Google calendar sync failed", fields) } else { logger.info("Google calendar synced", fields) }
    }
}

/// Exports a user's chores to their chosen Google calendar, one job per user and due time (dedupe
/// key `<user>@<due ms>`), each scheduling the next while the export is on
/// (``GoogleCalendarService`` `+Export`).
///
/// Idempotent: events have ids Hearth chose, so an insert run twice answers 409 and becomes an
/// update, and what was sent is recorded with a digest of its content; a job whose due time is
/// no longer the connection's `next_export_at` is stale and does nothing.
public struct GoogleCalendarExportJob: JobHandler {
    /// The job's input.
    public struct Payload: Codable, Sendable, Hashable {
        /// The account whose chores are exported.
        public var userID: String
        /// When the export was due.
        public var dueAt: Date
    }

    let google: GoogleCalendarService
    let logger: Logger

    public var kind: JobKind { .googleCalendarExport }

    /// Exports if the job is still the next export, and logs what it sent.
    public func run(_ job: Job) throws {
        let input = try job.decodePayload(Payload.self)
        guard let result = try google.export(of: Owner(scheduledWorkOf: input.userID), scheduledFor: input.dueAt) else { return }
        logger.info("chores exported to Google Calendar", [
            "google.user": input.userID, "google.sent": String(result.sent), "google.deleted": String(result.deleted),
            "google.failed": result.failure ?? "",
        ])
    }
}

/// Revokes a disconnected account's refresh token at Google's revocation endpoint, best effort: the
/// token travels sealed in the payload; Google unreachable or failing is retried with the
/// scheduler's backoff; an answer that the token is unknown (already revoked) counts as done.
/// Idempotent: revoking twice is revoking.
public struct GoogleTokenRevocationJob: JobHandler {
    /// The job's input.
    public struct Payload: Codable, Sendable, Hashable {
        /// The refresh token, sealed (``SecretSealer``).
        public var sealedToken: String
    }

    let google: GoogleCalendarService

    public var kind: JobKind { .googleTokenRevocation }

    /// Revokes the token.
    /// - Throws: ``JobFailure`` transient while Google fails, permanent when no client is configured
    ///   or the token does not open.
    public func run(_ job: Job) throws {
        let input = try job.decodePayload(Payload.self)
        guard let api = google.api else { throw JobFailure(.permanent, "no Google OAuth client is configured") }
        let token: String
        do {
            token = try google.sealer.open(input.sealedToken)
        } catch {
            throw JobFailure(.permanent, "the sealed token does not open: \(error)")
        }
        do throws(GoogleFailure) {
            try api.revoke(token, at: google.households.clock.now)
        } catch {
            if case .rateLimited(let retryAfter) = error.kind { throw JobFailure(.transient, error.message, retryAfter: retryAfter) }
            throw JobFailure(.transient, error.message)
        }
    }
}
