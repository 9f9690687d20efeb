import FoundationEssentials
import HearthDomain
import HearthStore

/// What `startVacation` and `startHouseholdVacation` ask for.
public struct VacationRequest: Sendable {
    /// When it starts; now when absent (or in the past).
    public var startsAt: Date?
    /// When it ends by itself; open-ended when absent.
    public var endsAt: Date?
    /// What happens to the instances the members hold.
    public var handling: VacationHandling
    /// Where account holders' active household moves meanwhile.
    public var destinationHouseholdID: String?

    /// Creates the request.
    public init(startsAt: Date? = nil, endsAt: Date? = nil, handling: VacationHandling, destinationHouseholdID: String? = nil) {
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.handling = handling
        self.destinationHouseholdID = destinationHouseholdID
    }
}

extension VacationService {
    /// Starts a vacation for each of `memberIDs` in `householdID` (FR-19): a member for themself,
    /// an admin for anyone (children and shadows included). See the type for what follows.
    /// - Throws: `NOT_FOUND` for a household the viewer is not in; `FORBIDDEN` (`ADMINS_ONLY`) for a
    ///   member naming anyone but themself; `BAD_USER_INPUT` with the field of each problem:
    ///   `input.memberIds` (`REQUIRED` when empty), `input.memberIds[i]` (`UNKNOWN_VALUE` for no such
    ///   member, `NOT_ALLOWED` for one invited or departed, or already away at that time),
    ///   `input.endsAt` (`OUT_OF_RANGE`: not after the start, or past), `input.destinationHouseholdId`
    ///   (`NOT_ALLOWED`: the origin itself, or not a household every member with an account among
    ///   them belongs to); `CONFLICT` for a reused `clientMutationID`.
    public func startVacation(
        householdID: String, memberIDs: [String], _ request: VacationRequest, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> Outcome {
        let reference = try await instances.chores.mutate("startVacation", by: viewer, replaying: clientMutationID) { [self] database, now in
            let household = try HouseholdScope.check(viewer: viewer, householdID: householdID, in: database)
            var problems: [FieldProblem] = []
            var members: [MemberRecord] = []
            var fields: [String: String] = [:]
            for (index, member) in try Self.named(memberIDs, household, verb: "start", problems: &problems) {
                guard let member else { continue }
                let field = "input.memberIds[\(index)]"
                if fields[member.id] == nil { fields[member.id] = field }
                guard member.status == .active else {
                    problems.append(FieldProblem(
                        field: field, reason: .notAllowed, message: "\(member.displayName) is not an active member of this household."))
                    continue
                }
                if !members.contains(where: { $0.id == member.id }) { members.append(member) }
            }
            if !problems.isEmpty { throw ServiceError.invalid(InputProblems(problems)) }
            return try start(members, request, household, by: viewer, at: now) { fields[$0.id] ?? "input.memberIds" }
        }
        return try await outcome(of: reference, viewer: viewer)
    }

    /// Starts a vacation for every active member of `householdID` (FR-20): admins only. With a
    /// destination, every member with an account must belong to it.
    /// - Throws: what ``startVacation(householdID:memberIDs:_:viewer:clientMutationID:)`` throws, and
    ///   `FORBIDDEN` (`ADMINS_ONLY`) for members.
    public func startHouseholdVacation(
        householdID: String, _ request: VacationRequest, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> Outcome {
        let reference = try await instances.chores.mutate("startHouseholdVacation", by: viewer, replaying: clientMutationID) { [self] database, now in
            let household = try HouseholdScope.check(viewer: viewer, householdID: householdID, in: database)
            guard household.access.role == .admin else {
                throw ServiceError(.forbidden, reason: .adminsOnly, "Only the household's admins may send the whole household on vacation.")
            }
            let members = try household.decode(
                MemberRecord.self, "SELECT \(MemberRecord.columns) FROM members WHERE household_id = {household} AND status = 'active' ORDER BY id")
            // No member ids in this input: the clash is of its dates.
            return try start(members, request, household, by: viewer, at: now) { _ in "input.startsAt" }
        }
        return try await outcome(of: reference, viewer: viewer)
    }

    /// Validates `request` for `members` and stores their vacations, beginning them now or
    /// scheduling their start, and scheduling their end; `field` names the input field of a member
    /// whose vacation would overlap another.
    private func start(
        _ members: [MemberRecord], _ request: VacationRequest, _ household: HouseholdScope, by viewer: Viewer, at now: Date,
        field: (MemberRecord) -> String
    ) throws -> Reference {
        let startsAt = max(request.startsAt ?? now, now)
        var problems: [FieldProblem] = []
        if let endsAt = request.endsAt {
            if endsAt <= now {
                problems.append(FieldProblem(field: "input.endsAt", reason: .outOfRange, message: "The vacation's end is in the past."))
            } else if endsAt <= startsAt {
                problems.append(FieldProblem(field: "input.endsAt", reason: .outOfRange, message: "The vacation must end after it starts."))
            }
        }
        if let destination = request.destinationHouseholdID {
            if let problem = try Self.destinationProblem(destination, for: members, household) { problems.append(problem) }
        }
        let period = VacationPeriod(start: startsAt.timeIntervalSince1970, end: request.endsAt?.timeIntervalSince1970)
        let existing = try VacationRecord.current(of: members.map(\.id), household)
        let limit = instances.configuration.maximumVacationsPerMember
        for member in members where existing.count(where: { $0.memberID == member.id }) >= limit {
            throw ServiceError(
                .conflict, reason: .limitReached,
                "\(member.displayName) has \(limit) vacations under way or scheduled here, the most allowed. End or cancel one first.")
        }
        for member in members {
            guard let clash = existing.first(where: { $0.memberID == member.id && $0.period.overlaps(period) }) else { continue }
            let until = clash.endsAt.map { " until \(Self.text($0))" } ?? " with no end set"
            problems.append(FieldProblem(
                field: field(member), reason: .notAllowed,
                message: "\(member.displayName) already has a vacation from \(Self.text(clash.startsAt))\(until): end it first, or choose other dates."))
        }
        if !problems.isEmpty { throw ServiceError.invalid(InputProblems(problems)) }

        let scope = ChoreAccess(household.access).scope(household.database)
        var ids: [String] = []
        for member in members {
            let id = GlobalID.make(.vacation, now: now).rawValue
            try household.execute(
                """
                INSERT INTO member_vacations (id, household_id, member_id, handling, destination_household_id, starts_at, ends_at, status,
                    created_by, created_at, updated_at)
                VALUES (?, {household}, ?, ?, ?, ?, ?, 'scheduled', ?, ?, ?)
                """,
                [id, member.id, request.handling.rawValue, request.destinationHouseholdID, startsAt, request.endsAt, viewer.userID, now, now])
            ids.append(id)
            guard let vacation = try VacationRecord.find(id: id, household) else { continue }
            if startsAt <= now {
                try begin(vacation, scope, at: now)
            } else {
                try jobs.enqueue(kind: .vacationStart, payload: VacationJobPayload(vacationID: id), dueAt: startsAt, dedupeKey: "start:\(id)", in: household.database)
                try households.record(
                    .memberVacationScheduled, HouseholdChange(householdID: household.access.householdID, memberID: member.id, userID: member.userID),
                    in: household.database)
            }
            if let endsAt = request.endsAt {
                try jobs.enqueue(kind: .vacationEnd, payload: VacationJobPayload(vacationID: id), dueAt: endsAt, dedupeKey: "end:\(id)", in: household.database)
            }
        }
        return Reference(householdID: household.access.householdID, vacationIDs: ids)
    }

    /// Why `destination` cannot be the destination of `members`' vacation from the household of
    /// `household`: the origin itself, or a household not every member with an account belongs to
    /// (the same answer for one that does not exist, so nothing leaks).
    private static func destinationProblem(_ destination: String, for members: [MemberRecord], _ household: HouseholdScope) throws -> FieldProblem? {
        let field = "input.destinationHouseholdId"
        if destination == household.access.householdID {
            return FieldProblem(field: field, reason: .notAllowed, message: "The destination must be another household than the one they leave.")
        }
        var missing: [String] = []
        for member in members {
            guard let owner = Owner(accountOf: member) else { continue }
            let belongs = GlobalID.mayName(.household, destination) ? try OwnerScope(owner, household.database).scalar(
                Bool.self, "SELECT EXISTS (SELECT 1 FROM members WHERE user_id = {owner} AND household_id = ? AND status = 'active')",
                [destination]) ?? false : false
            if !belongs { missing.append(member.displayName) }
        }
        guard !missing.isEmpty else { return nil }
        return FieldProblem(
            field: field, reason: .notAllowed,
            message: "The destination must be a household every member going away with an account belongs to; \(missing.joined(separator: ", ")) \(missing.count == 1 ? "does" : "do") not.")
    }

    /// The members `memberIDs` names in the household of `household`, each with its index in the
    /// list (`nil` for one that is not there, with an `UNKNOWN_VALUE` problem in `problems`), after
    /// the checks every vacation mutation makes: at least one, and only the viewer themself unless
    /// they are an admin; `verb` says what they do ("start", "end").
    static func named(
        _ memberIDs: [String], _ household: HouseholdScope, verb: String, problems: inout [FieldProblem]
    ) throws -> [(Int, MemberRecord?)] {
        guard !memberIDs.isEmpty else {
            throw ServiceError.invalid(InputProblems([FieldProblem(field: "input.memberIds", reason: .required, message: "Name at least one member.")]))
        }
        if household.access.role != .admin, memberIDs.contains(where: { $0 != household.access.memberID }) {
            throw ServiceError(
                .forbidden, reason: .adminsOnly, "Only the household's admins may \(verb) a vacation for someone else: you may \(verb) your own.")
        }
        return try memberIDs.enumerated().map { index, id in
            let member = GlobalID.mayName(.member, id) ? try household.decodeOne(
                MemberRecord.self, "SELECT \(MemberRecord.columns) FROM members WHERE id = ? AND household_id = {household}", [id]) : nil
            if member == nil {
                problems.append(FieldProblem(field: "input.memberIds[\(index)]", reason: .unknownValue, message: "There is no such member in this household."))
            }
            return (index, member)
        }
    }

    /// `date` as RFC 3339 in UTC, for messages.
    static func text(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }
}
