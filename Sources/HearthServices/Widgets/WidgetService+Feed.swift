import FoundationEssentials
import HearthDomain
import HearthStore

extension WidgetService {
    /// The statuses a feed shows: what is to do, and what was done today (so the row can tick).
    static let feedStatuses: [ChoreInstanceStatus] = [.pending, .pendingApproval, .completed]

    /// The viewer's widget feed (FR-65): the instances due today in their time zone from their
    /// active household and their personal chores, by due time then id, at most
    /// ``WidgetConfiguration/maximumEntries``. Of the household, the instances `myChores` counts
    /// as theirs (assigned to them, claimed by them, or `SINGLE_ACTION` ones they may claim);
    /// paused, cancelled and archived ones are left out. Each entry that is still to do and has no
    /// steps carries its one-tap action link, expiring at the end of today.
    ///
    /// The same database state and day give the same feed, byte for byte once written: its
    /// `ETag` changes exactly when its content does.
    public func feed(viewer: Viewer) async throws -> WidgetFeed {
        let now = clock.now
        let maximum = configuration.maximumEntries
        return try await pool.readPreferringCallingThread { [self] database in
            let (stamp, zone, active, accesses) = try Self.stamp(viewer, at: now, in: database)
            let day = stamp.day
            let end = day.next.start(in: zone)
            let filter = MyChoresFilter(statuses: Self.feedStatuses, dueAfter: day.start(in: zone))
            var found: [MyChore] = []
            var steppedChores = Set<String>()
            for access in accesses {
                // Due before the next day starts: `through` is inclusive.
                let query = MyChoresQuery(filter: filter, cursor: nil, limit: maximum + 1, through: end.addingTimeInterval(-0.001), access: access)
                let theirs = try query.stored(database) + query.unplanned(instances.planner, database)
                found += theirs
                let choreIDs = Array(Set(theirs.map(\.chore.id))).sorted()
                steppedChores.formUnion(try ChoreDetails.steps(of: choreIDs, access.scope(database)).filter { !$0.value.isEmpty }.keys)
            }
            let ordered = MyChoresQuery.ordered(found)
            let household = active.map { WidgetFeed.Household(id: $0.household.id, name: $0.household.name) }
            let entries = ordered.prefix(maximum).map { found in
                entry(found, household: household, hasSteps: steppedChores.contains(found.chore.id), expiresAt: end, viewer: viewer)
            }
            return WidgetFeed(
                day: day, timeZone: zone.identifier, household: household, entries: entries, hasMore: ordered.count > maximum, stamp: stamp)
        }
    }

    /// The stamp of the viewer's feed now (``WidgetFeedStamp``): what a kept copy of the feed is
    /// checked against, in three statements instead of the feed's reads.
    public func feedStamp(viewer: Viewer) async throws -> WidgetFeedStamp {
        let now = clock.now
        return try await pool.readPreferringCallingThread { database in try Self.stamp(viewer, at: now, in: database).stamp }
    }

    /// The feed's stamp at `now`, with what reading it found: the viewer's zone, active household
    /// and the scopes the feed reads (their personal chores, then the active household's).
    private static func stamp(
        _ viewer: Viewer, at now: Date, in database: Database
    ) throws -> (
        stamp: WidgetFeedStamp, zone: TimeZoneRules, active: (access: HouseholdAccess, household: HouseholdRecord, isActive: Bool)?,
        accesses: [ChoreAccess]
    ) {
        let zone = try OwnerScope(Owner(viewer), database).timeZone()
        let active = try HouseholdAccess.memberships(of: viewer, activeHouseholdOnly: true, in: database).first
        let accesses = [ChoreAccess(personal: Owner(viewer))] + (active.map { [ChoreAccess($0.access)] } ?? [])
        let stamp = WidgetFeedStamp(day: CalendarDay(containing: now, in: zone), timeZone: zone.identifier, view: try ChoreViewStamp.read(accesses, at: now, in: database))
        return (stamp, zone, active, accesses)
    }

    /// The entry of `found`.
    private func entry(_ found: MyChore, household: WidgetFeed.Household?, hasSteps: Bool, expiresAt: Date, viewer: Viewer) -> WidgetFeedEntry {
        let (instance, chore, access) = found
        let completeURL = instance.status == .pending && !hasSteps
            ? baseURL.url(for: Self.actionPath(links.token(for: WidgetActionLinks.Link(
                action: .complete, userID: viewer.userID, instanceID: instance.id, expiresAt: expiresAt))))
            : nil
        return WidgetFeedEntry(
            instanceID: instance.id, choreID: chore.id, title: chore.title, dueAt: instance.dueAt, status: instance.status,
            householdID: access.household?.householdID, householdName: access.isPersonal ? nil : household?.name, hasSteps: hasSteps,
            completeURL: completeURL, appURL: Self.appURL(choreID: chore.id), webURL: baseURL.url(for: Self.webPath(choreID: chore.id)))
    }

    /// The path of an action link's token (`POST` it).
    public static func actionPath(_ token: String) -> String { "/widget/actions/" + token }

    /// The app's deep link to a chore.
    public static func appURL(choreID: String) -> String { "hearth://chore/" + choreID }

    /// The path of a chore's web fallback page.
    public static func webPath(choreID: String) -> String { "/chore/" + choreID }
}

extension WidgetService {
    /// The topics every change of the viewer's feed is recorded on: their own (personal chores,
    /// switching the active household, their time zone) and each household they are an active
    /// member of now.
    public func feedTopics(viewer: Viewer) async throws -> [Topic] {
        try await pool.readPreferringCallingThread { database in
            [.user(viewer.userID)] + (try HouseholdAccess.memberships(of: viewer, in: database).map { .household($0.access.householdID) })
        }
    }
}
