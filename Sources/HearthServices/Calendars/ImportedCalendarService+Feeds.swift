import FoundationEssentials
import HearthDomain
import HearthStore
import Net
import Support

/// Calendar feeds (FR-61, README "Calendar feeds"): a calendar whose events the server fetches
/// from a URL and refreshes.
///
/// - *Subscribing* fetches the feed at once, so a URL that cannot work is refused with the reason
///   (`subscribeCalendarFeed`), and schedules its refreshes.
/// - *URLs.* `https://` only; `webcal://` (what "subscribe" links use) is read as `https://`.
///   A URL with a user name or password is refused: the server would have to keep the password,
///   and providers publish secret links instead, which are kept as any URL is (readable by the
///   owner only, never logged: log lines and errors name the host alone).
/// - *Permanent redirects* (301, 308) from the feed's URL, once a fetch through them worked, replace
///   the stored URL with where they lead (RFC 9110 §15.4); temporary ones (302, 303, 307) do not.
/// - *Per-host politeness*: scheduled refreshes of feeds on one host are at least
///   ``CalendarFeedConfiguration/hostInterval`` apart; one due sooner is rescheduled for the host's
///   next free turn (``FeedHostTurns``).
/// - *Refreshing* is one job per feed on the durable scheduler, keyed by the feed and its due time;
///   `next_refresh_at` names the one that counts, so a refresh by hand or a replayed job never
///   doubles the chain. Requests are conditional (`If-None-Match`, `If-Modified-Since`); a 304
///   keeps the events. A failure keeps the events of the last success, is recorded on the
///   calendar (`lastRefreshError`, status `FAILING`) and retried with backoff
///   (``CalendarFeedConfiguration/delay(afterFailures:)``); a 410, or a 404 answered
///   ``CalendarFeedConfiguration/missingLimit`` times in a row, makes the feed dead: no more
///   refreshes, and a notice tells the user. A refresh by hand (`refreshImportedCalendar`) tries
///   any feed, a dead one included, and resumes its schedule when it works.
extension ImportedCalendarService {
    /// The mutation name under which replays of subscriptions are kept.
    static let subscribeMutation = "subscribeCalendarFeed"

    /// Subscribes `viewer` to the feed at `url` as their calendar `name` (the URL's host when
    /// nil): fetches and stores it, and schedules its refreshes. A `clientMutationId` makes a replay
    /// return the first result and change nothing (the feed is fetched again first).
    /// - Throws: ``ServiceError`` `BAD_USER_INPUT`: on `input.url`, `INVALID_FORMAT` (not an
    ///   https:// or webcal:// URL, or a file the parser refuses, with `extensions.line`),
    ///   `TOO_LONG`, `NOT_ALLOWED` (user name or password in the URL; an address that is not
    ///   public, the feed's or a redirect's), `TOO_LARGE` (`extensions.limit`), `OUT_OF_RANGE`
    ///   (too many redirects, `extensions.limit`), `UNKNOWN_VALUE` (an HTTP error or an unknown
    ///   TZID); on `input.name` as names are checked, and `TAKEN`. `UNAVAILABLE` when the feed
    ///   cannot be reached. `CONFLICT` `LIMIT_REACHED` past `--calendar-feed-max-per-user`.
    public func subscribeToFeed(url text: String, name given: String?, for viewer: Viewer, clientMutationID: String?) async throws -> ImportedCalendar {
        let url = try Self.feedURL(text, maximumBytes: feeds.maximumURLBytes)
        hostTurns.withLock { $0.record(host: url.host, at: households.clock.storedNow) }
        let name: String
        do {
            name = try DisplayText.name(given ?? url.host, field: "input.name")
        } catch {
            throw ServiceError.invalid(InputProblems([error]))
        }
        let fetched: (file: CalendarFile, validators: CalendarFeedFetcher.Validators, url: HTTPURL)
        switch await DetachedThread.run(name: "calendar-feed", { [self] in Result { () throws(CalendarFeedFetcher.Failure) in try fetch(url) } }) {
        case .success(let reply):
            guard case .content(let file, let validators) = reply.answer else {
                throw Self.urlRefusal(.unknownValue, "The feed answered 304 Not Modified to a request without conditions.")
            }
            fetched = (file, validators, movedURL(reply) ?? url)
        case .failure(let failure): throw subscriptionRefusal(failure)
        }
        let now = households.clock.storedNow
        return try await households.mutate(Self.subscribeMutation, by: viewer, replaying: clientMutationID, at: now) { [self] database in
            let owner = OwnerScope(Owner(viewer), database)
            let count = try owner.scalar(Int.self, "SELECT COUNT(*) FROM imported_calendars WHERE user_id = {owner} AND source_url IS NOT NULL") ?? 0
            guard count < feeds.maximumFeedsPerUser else {
                throw ServiceError(
                    .conflict, reason: .limitReached, "You subscribe to \(count) calendar feeds, the most allowed. Delete one you no longer use first.")
            }
            let key = DisplayText.sortKey(name)
            guard try owner.scalar(Bool.self, "SELECT EXISTS (SELECT 1 FROM imported_calendars WHERE user_id = {owner} AND name_key = ?)", [key]) != true
            else {
                throw ServiceError.invalid(InputProblems([FieldProblem(
                    field: "input.name", reason: .taken, message: "You have an imported calendar of this name; choose another name.")]))
            }
            let id = GlobalID.make(.importedCalendar, now: now).rawValue
            try owner.execute(
                """
                INSERT INTO imported_calendars (
                    id, user_id, name, name_key, time_zones, event_count, created_at, imported_at, source_url, etag, last_modified, last_refreshed_at)
                VALUES (?, {owner}, ?, ?, '', 0, ?, ?, ?, ?, ?, ?)
                """, [id, name, key, now, now, fetched.url.description, fetched.validators.etag, fetched.validators.lastModified, now])
            try Self.storeEvents(of: fetched.file, into: id, owner, at: now)
            try scheduleRefresh(of: id, owner, at: now.adding(feeds.refreshInterval))
            try households.changeLog.record(
                topic: .user(viewer.userID), kind: .importedCalendarImported, payload: ImportedCalendarChange(calendarID: id, userID: viewer.userID),
                in: database)
            return try Self.calendar(id, owner)!
        }
    }

    /// Refreshes `viewer`'s feed `id` now, whatever its schedule or status, and answers it as it
    /// is then: a failure is recorded on it (`lastRefreshError`), not thrown.
    /// - Throws: ``ServiceError`` `NOT_FOUND` when it is not theirs; `BAD_USER_INPUT` on
    ///   `input.id` (`NOT_ALLOWED`) for a calendar uploaded as a file, which has nothing to fetch.
    public func refreshCalendar(id: String, for viewer: Viewer) async throws -> ImportedCalendar {
        guard GlobalID.mayName(.importedCalendar, id) else { throw ServiceError(.notFound, "No such imported calendar.") }
        let owner = Owner(viewer)
        guard let calendar = try await pool.read({ database in try Self.calendar(id, OwnerScope(owner, database)) }) else {
            throw ServiceError(.notFound, "No such imported calendar.")
        }
        guard calendar.sourceURL != nil else {
            let message = calendar.googleCalendarID == nil
                ? "This calendar was uploaded as a file; import the file again to update it."
                : "This calendar is synced from Google Calendar on its own (--google-sync-interval)."
            throw ServiceError.invalid(InputProblems([FieldProblem(field: "input.id", reason: .notAllowed, message: message)]))
        }
        try await DetachedThread.run(name: "calendar-feed") { [self] in Result { try refresh(id, of: owner, scheduledFor: nil) } }.get()
        guard let refreshed = try await pool.read({ database in try Self.calendar(id, OwnerScope(owner, database)) }) else {
            throw ServiceError(.notFound, "No such imported calendar.")
        }
        return refreshed
    }

    /// One refresh of `owner`'s feed `id`: the job's (`scheduledFor` its due time, nothing done
    /// when the feed's next refresh is not that job's, or it is dead) or the user's (nil). Fetches
    /// with the stored validators and records what came back. Blocking.
    /// - Returns: What it did, for the job's log line.
    @discardableResult
    func refresh(_ id: String, of owner: Owner, scheduledFor due: Date?) throws -> RefreshOutcome {
        struct Feed: Decodable {
            var sourceURL: String
            var etag: String?
            var lastModified: String?
            var nextRefreshAt: Date?
            var feedStatus: CalendarFeedStatus
        }
        guard let feed = try pool.read({ database in
            try OwnerScope(owner, database).decodeOne(
                Feed.self,
                """
                SELECT source_url AS sourceURL, etag, last_modified AS lastModified, next_refresh_at AS nextRefreshAt, feed_status AS feedStatus
                FROM imported_calendars WHERE id = ? AND user_id = {owner} AND source_url IS NOT NULL
                """, [id])
        }) else { return .stale }
        if let due, feed.feedStatus == .dead || !Self.sameMillisecond(feed.nextRefreshAt, due) { return .stale }
        let host = (try? Self.storedURL(feed.sourceURL))?.host ?? ""
        let asked = households.clock.storedNow
        if due == nil {
            hostTurns.withLock { $0.record(host: host, at: asked) }
        } else if let turn = hostTurns.withLock({ $0.take(host: host, calendarID: id, at: asked) }) {
            return try pool.write { [self] database in
                let scope = OwnerScope(owner, database)
                guard let current = try Self.calendar(id, scope), Self.sameMillisecond(current.nextRefreshAt, due) else { return .stale }
                try scheduleRefresh(of: id, scope, at: turn)
                return .deferred
            }
        }
        let validators = CalendarFeedFetcher.Validators(etag: feed.etag, lastModified: feed.lastModified)
        let outcome = Result { () throws(CalendarFeedFetcher.Failure) in try fetch(try Self.storedURL(feed.sourceURL), validators: validators) }
        let now = households.clock.storedNow
        return try pool.write { [self] database in
            let scope = OwnerScope(owner, database)
            // Deleted meanwhile, or refreshed by another run: nothing to record.
            guard let current = try Self.calendar(id, scope), due == nil || Self.sameMillisecond(current.nextRefreshAt, due) else { return .stale }
            let recorded = try record(outcome, of: id, scope, at: now)
            try households.changeLog.record(
                topic: .user(owner.userID), kind: .importedCalendarRefreshed, payload: ImportedCalendarChange(calendarID: id, userID: owner.userID),
                in: database)
            return recorded
        }
    }

    /// What one refresh did.
    enum RefreshOutcome: String, Sendable {
        /// Nothing: the job was not the feed's next refresh (or the feed is gone or dead).
        case stale
        /// Nothing yet: the feed's host was fetched less than `--calendar-feed-host-interval` ago;
        /// the refresh is rescheduled for the host's next free turn (``FeedHostTurns``).
        case deferred
        /// 304: the events stay.
        case notModified = "not_modified"
        /// 200: the events were replaced.
        case updated
        /// The refresh failed; it is retried with backoff.
        case failed
        /// The refresh failed and the feed is dead now.
        case dead
    }

    /// Records a refresh's outcome on the calendar and schedules the next (none for a dead feed).
    private func record(
        _ outcome: Result<FeedReply, CalendarFeedFetcher.Failure>, of id: String, _ owner: OwnerScope, at now: Date
    ) throws -> RefreshOutcome {
        switch outcome {
        case .success(let reply):
            if let moved = movedURL(reply) {
                try owner.execute("UPDATE imported_calendars SET source_url = ? WHERE id = ? AND user_id = {owner}", [moved.description, id])
            }
            let answer = reply.answer
            if case .content(let file, let validators) = answer {
                try Self.storeEvents(of: file, into: id, owner, at: now)
                try owner.execute(
                    "UPDATE imported_calendars SET etag = ?, last_modified = ? WHERE id = ? AND user_id = {owner}",
                    [validators.etag, validators.lastModified, id])
            }
            try owner.execute(
                """
                UPDATE imported_calendars SET last_refreshed_at = ?, last_refresh_error = NULL, feed_status = 'active', refresh_failures = 0,
                    missing_count = 0 WHERE id = ? AND user_id = {owner}
                """, [now, id])
            try scheduleRefresh(of: id, owner, at: now.adding(feeds.refreshInterval))
            if case .content = answer { return .updated }
            return .notModified
        case .failure(let failure):
            let counts = try owner.query(
                "SELECT refresh_failures, missing_count FROM imported_calendars WHERE id = ? AND user_id = {owner}", [id]).first
            let failures: Int = (try counts?["refresh_failures"] ?? 0) + 1
            let missing: Int = failure.kind == .status(404) ? (try counts?["missing_count"] ?? 0) + 1 : 0
            let isDead = failure.kind == .status(410) || missing >= feeds.missingLimit
            try owner.execute(
                """
                UPDATE imported_calendars SET last_refresh_error = ?, feed_status = ?, refresh_failures = ?, missing_count = ?
                WHERE id = ? AND user_id = {owner}
                """, [failure.message, isDead ? CalendarFeedStatus.dead.rawValue : CalendarFeedStatus.failing.rawValue, failures, missing, id])
            if isDead {
                try owner.execute("UPDATE imported_calendars SET next_refresh_at = NULL WHERE id = ? AND user_id = {owner}", [id])
                try notifyDead(id, owner, failure, at: now)
                return .dead
            }
            try scheduleRefresh(of: id, owner, at: now.adding(feeds.delay(afterFailures: failures)))
            return .failed
        }
    }

    /// Makes the refresh at `due` the feed's next one and enqueues its job.
    private func scheduleRefresh(of id: String, _ owner: OwnerScope, at due: Date) throws {
        let due = Date(timeIntervalSince1970: (due.timeIntervalSince1970 * 1000).rounded() / 1000)
        try owner.execute("UPDATE imported_calendars SET next_refresh_at = ? WHERE id = ? AND user_id = {owner}", [due, id])
        try jobs.enqueue(
            kind: .calendarFeedRefresh, payload: CalendarFeedRefreshJob.Payload(calendarID: id, userID: owner.key.userID, dueAt: due), dueAt: due,
            dedupeKey: "\(id)@\(Int64((due.timeIntervalSince1970 * 1000).rounded()))", in: owner.database)
    }

    /// Whether `stored` is `due` to the millisecond (dates are stored with milliseconds).
    static func sameMillisecond(_ stored: Date?, _ due: Date?) -> Bool {
        guard let stored, let due else { return false }
        return (stored.timeIntervalSince1970 * 1000).rounded() == (due.timeIntervalSince1970 * 1000).rounded()
    }

    /// Tells the owner their feed died, once per death (the notice is keyed by the failure count).
    private func notifyDead(_ id: String, _ owner: OwnerScope, _ failure: CalendarFeedFetcher.Failure, at now: Date) throws {
        guard let calendar = try Self.calendar(id, owner) else { return }
        let draft = Notifier.Draft(
            kind: .calendarFeedDead, title: "Calendar feed \"\(calendar.name)\" stopped",
            body: "\(failure.message) Its events are kept but no longer refreshed. Refresh it by hand once the feed works again, or delete it.")
        try notifier.notify(draft, dedupeKey: "calendar_feed_dead:\(id):\(Int64(now.timeIntervalSince1970))", owner, at: now)
    }

    /// What a fetch of a feed brought, parsed, and where the feed moved permanently
    /// (``CalendarFeedFetcher/Fetched/movedTo``).
    struct FeedReply: Sendable {
        /// The answer.
        var answer: FeedAnswer
        /// The feed's new URL after permanent redirects; `nil` without.
        var movedTo: HTTPURL?
    }

    /// The URL to store in place of the feed's after `reply`: where it moved permanently, unless
    /// that is longer than feed URLs may be (the old one, which leads there, is kept then).
    private func movedURL(_ reply: FeedReply) -> HTTPURL? {
        reply.movedTo.flatMap { $0.description.utf8.count <= feeds.maximumURLBytes ? $0 : nil }
    }

    /// What a fetch of a feed brought, parsed.
    enum FeedAnswer: Sendable {
        /// 304: the feed is as it was.
        case notModified
        /// The feed's calendar and validators.
        case content(CalendarFile, CalendarFeedFetcher.Validators)
    }

    /// Fetches `url` (blocking) and parses what came back.
    /// - Throws: ``CalendarFeedFetcher/Failure``, of kind `unreadable` with the parser's error for
    ///   a body that is no calendar file the parser accepts.
    func fetch(_ url: HTTPURL, validators: CalendarFeedFetcher.Validators = .init()) throws(CalendarFeedFetcher.Failure) -> FeedReply {
        let fetched = try CalendarFeedFetcher(configuration: feeds, maximumBytes: limits.maximumBytes).fetch(url, validators: validators)
        switch fetched.answer {
        case .notModified: return FeedReply(answer: .notModified, movedTo: fetched.movedTo)
        case .content(let body, let validators):
            do {
                return FeedReply(answer: .content(try CalendarFile.parse(body, limits: limits), validators), movedTo: fetched.movedTo)
            } catch {
                throw CalendarFeedFetcher.Failure(kind: .unreadable, message: "The feed is no calendar file Hearth can read: \(error.description)", calendarError: error)
            }
        }
    }

    /// A stored feed URL, parsed again.
    private static func storedURL(_ text: String) throws(CalendarFeedFetcher.Failure) -> HTTPURL {
        do {
            return try HTTPURL(text)
        } catch {
            throw CalendarFeedFetcher.Failure(kind: .refused, message: "The feed's URL is not valid: \(error.detail).")
        }
    }

    /// The https URL `text` names (`webcal://` read as `https://`), checked, at most `maximumBytes`
    /// long (``CalendarFeedConfiguration/maximumURLBytes``).
    /// - Throws: ``ServiceError`` `BAD_USER_INPUT` on `input.url` (`REQUIRED`, `TOO_LONG` with the limit,
    ///   `INVALID_FORMAT`, `NOT_ALLOWED` for a user name or password, or a host written as an
    ///   address that is not public).
    static func feedURL(_ text: String, maximumBytes: Int) throws -> HTTPURL {
        let trimmed = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        guard !trimmed.isEmpty else { throw urlRefusal(.required, "Give the feed's URL.") }
        guard trimmed.utf8.count <= maximumBytes else {
            throw urlRefusal(.tooLong, "A feed URL has at most \(maximumBytes) bytes.", limit: maximumBytes)
        }
        let scheme = trimmed.prefix { $0 != ":" }.lowercased()
        guard ["https", "webcal", "webcals"].contains(scheme), trimmed.dropFirst(scheme.count).hasPrefix("://") else {
            throw urlRefusal(.invalidFormat, "A feed URL starts with https:// or webcal://.")
        }
        let rest = trimmed.dropFirst(scheme.count + 3)
        if rest.prefix(while: { $0 != "/" && $0 != "?" && $0 != "#" }).contains("@") {
            throw urlRefusal(
                .notAllowed, "A feed URL may not hold a user name or password; use the calendar's secret link (its private address) instead.")
        }
        do throws(NetworkError) {
            return try HTTPURL("https://" + rest)
        } catch {
            throw urlRefusal(.invalidFormat, "This is no feed URL Hearth can fetch: \(error.detail).")
        }
    }

    /// The refusal of a feed URL, on `input.url`.
    static func urlRefusal(_ reason: FieldProblem.Reason, _ message: String, limit: Int? = nil, line: Int? = nil) -> ServiceError {
        refusal(reason, message, limit: limit, line: line, field: "input.url")
    }

    /// What a subscription answers when its first fetch failed.
    private func subscriptionRefusal(_ failure: CalendarFeedFetcher.Failure) -> ServiceError {
        switch failure.kind {
        case .refused: return Self.urlRefusal(.notAllowed, failure.message)
        case .tooLarge: return Self.urlRefusal(.tooLarge, failure.message, limit: limits.maximumBytes)
        case .tooManyRedirects: return Self.urlRefusal(.outOfRange, failure.message, limit: feeds.maximumRedirects)
        case .status: return Self.urlRefusal(.unknownValue, failure.message)
        case .network: return ServiceError(.unavailable, failure.message)
        case .unreadable:
            guard let error = failure.calendarError else { return Self.urlRefusal(.invalidFormat, failure.message) }
            let refusal = Self.refusal(error, limits: limits)
            return Self.urlRefusal(refusal.problems.first?.reason ?? .invalidFormat, failure.message, limit: refusal.limit, line: refusal.line)
        }
    }
}
