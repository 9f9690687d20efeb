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
    /// The job's input: the calendar, its owner and the due time.
    public typealias Payload = ScheduledCalendarWork

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

/// Cleans up after a disconnected account at Google, best effort: deletes the chore events the
/// export made (with an access token the refresh token still gets), then revokes the refresh token
/// at the revocation endpoint. The token travels sealed in the payload; Google unreachable or failing
/// is retried with the scheduler's backoff; an event already gone, or a token already revoked,
/// counts as done. Idempotent: deleting and revoking twice changes nothing more.
public struct GoogleTokenRevocationJob: JobHandler {
    /// The job's input.
    public struct Payload: Codable, Sendable, Hashable {
        /// The refresh token, sealed (``SecretSealer``).
        public var sealedToken: String
        /// The exported events to delete first, as `(calendar id, event id)`.
        public var exportedEvents: [ExportedEvent]?
    }

    /// One event the export made.
    public struct ExportedEvent: Codable, Sendable, Hashable {
        /// Google's id of the calendar.
        public var calendarID: String
        /// The event's id.
        public var eventID: String
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
        let now = google.households.clock.now
        do throws(GoogleFailure) {
            try deleteExportedEvents(input.exportedEvents ?? [], refreshToken: token, api: api, at: now)
            try api.revoke(token, at: now)
        } catch {
            if case .rateLimited(let retryAfter) = error.kind { throw JobFailure(.transient, error.message, retryAfter: retryAfter) }
            throw JobFailure(.transient, error.message)
        }
    }

    /// Deletes `events` at Google; nothing when Google no longer grants an access token (the user
    /// revoked Hearth's access, so it cannot touch their calendars anyway).
    private func deleteExportedEvents(_ events: [ExportedEvent], refreshToken: String, api: GoogleAPIClient, at now: Date) throws(GoogleFailure) {
        guard !events.isEmpty else { return }
        let accessToken: String
        do {
            accessToken = try api.refresh(refreshToken, at: now).access_token
        } catch where error.kind == .invalidGrant {
            return
        }
        for event in events {
            do {
                _ = try api.calendar(
                    "DELETE", "/calendars/\(GoogleAPIClient.segment(event.calendarID))/events/\(GoogleAPIClient.segment(event.eventID))",
                    accessToken: accessToken, at: now)
            } catch where error.kind == .notFound || error.kind == .gone {
                // Deleted at Google already.
            }
        }
    }
}
