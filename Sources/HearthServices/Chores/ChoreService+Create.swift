import FoundationEssentials
import HearthDomain
import HearthStore

/// A chore with the access the viewer has to it: what reads and mutations return.
public typealias AccessibleChore = (record: ChoreRecord, access: ChoreAccess)

extension ChoreService {
    /// Creates a chore (FR-32): in `request.householdID`, or a personal chore of `viewer` (FR-31)
    /// when it is `nil`; from a preset when `request.presetID` names one (FR-44: the request's
    /// fields override the preset's). The household's first chore completes the checklist's
    /// `chore` step (FR-ONBOARD-6).
    /// - Throws: `BAD_USER_INPUT` listing every problem; `NOT_FOUND` for a household the viewer is
    ///   not in, or a member, tag or preset that is unknown or another household's (alike);
    ///   `FORBIDDEN` (reason `CHORE_CREATION_POLICY`, or `ADMINS_ONLY` for permission rules set by
    ///   others than admins); `CONFLICT` at the chores limit or for a reused `clientMutationID`;
    ///   for `request.id`, as ``ClientIDs/claim(_:_:field:_:at:)`` (the same id again answers the
    ///   first chore).
    public func createChore(_ request: NewChore, viewer: Viewer, clientMutationID: String? = nil) async throws -> AccessibleChore {
        let fields = try request.fields.checked(maximumSteps: configuration.maximumStepsPerChore, reminderLimits: configuration.reminderLimits)
        let created = try await mutate("createChore", by: viewer, replaying: clientMutationID) { [self] database, now in
            let access = try ChoreAccess.check(viewer: viewer, householdID: request.householdID, in: database)
            let scope = access.scope(database)
            let id: String
            switch try ClientIDs.claim(request.id, .chore, OwnerScope(Owner(viewer), database), at: now) {
            case .existing(let made): return ChoreReference(choreID: made)
            case .create(let new): id = new
            }
            try ensureMayCreate(scope)
            if Self.setsRules(fields) { try ensureManager(scope, "set who may complete or edit a chore") }
            let preset = try request.presetID.map { try self.preset(id: $0, scope) }
            try ensureRoomForChore(scope)
            var base = try base(from: preset, scope, at: now)
            if fields.editors == nil, let member = access.household?.member, !access.isManager {
                // A member the policy lets create a chore may edit what they made.
                base.editors = PermissionRule(memberIDs: [member.id])
            }
            var draft = try draft(fields, over: base, isNew: true, scope, at: now)
            if fields.tagIDs == nil, let preset {
                draft.tagIDs = try tagIDs(named: preset.tagNames, creatingMissing: access.isManager, scope, at: now)
            }
            try ChoreWriter(scope: scope).insert(draft, id: id, createdBy: viewer.userID, at: now)
            if let household = scope.household { try households.markOnboardingStepDone(.chore, household, at: now) }
            try record(.choreCreated, access, choreID: id, in: database)
            return ChoreReference(choreID: id)
        }
        return try await Tombstones.answer(about: created.choreID, viewer: viewer, in: households.pool) { try await chore(id: created.choreID, viewer: viewer) }
    }

    /// What a new chore starts from: `preset`'s configuration (its recurrence starting today in the
    /// chore's time zone: the household's local date, or the owner's, not UTC's) or the defaults.
    private func base(from preset: ChorePreset?, _ scope: ChoreScope, at now: Date) throws -> ChoreDraft.Base {
        let personal = scope.access.isPersonal
        guard let preset else { return ChoreDraft.Base(assignmentMode: personal ? .individual : .singleAction) }
        var base = ChoreDraft.Base(
            title: preset.title, description: preset.description, assignmentMode: personal ? .individual : preset.assignmentMode,
            steps: preset.steps.map { ChoreService.StepRequest(title: $0) }, tokens: preset.tokens, presetID: preset.id)
        switch preset.schedule {
        case .afterCompletion(let every, let unit)?:
            base.schedule = .requested(.afterCompletion(every: every, unit: unit, firstDueAt: nil))
        case let schedule?:
            let zone = try RecurrenceZone.timeZone(named: try timeZoneName(scope))
            base.schedule = schedule.recurrenceText(createdAt: now, in: zone).map { .requested(.recurrence($0)) }
        case nil:
            break
        }
        return base
    }

    /// Whether `fields` set permission rules, which only admins may.
    static func setsRules(_ fields: ChoreFields) -> Bool {
        fields.completers != nil || fields.editors != nil || (fields.steps ?? []).contains { $0.completers?.isEmpty == false }
    }

    /// Refuses a chore beyond ``ChoresConfiguration/maximumChoresPerOwner``.
    /// - Throws: `CONFLICT` with reason `LIMIT_REACHED`.
    private func ensureRoomForChore(_ scope: ChoreScope) throws {
        let count = try scope.scalar(Int.self, "SELECT count(*) FROM chores WHERE {scope} AND deleted_at IS NULL") ?? 0
        guard count < configuration.maximumChoresPerOwner else {
            throw ServiceError(.conflict, reason: .limitReached, "There are \(count) chores here, the most allowed. Delete one first.")
        }
    }

    /// Whether `text` is a typed id of `kind` (not a legacy bare UUID: kinds added since have none).
    static func isTyped(_ kind: GlobalID.Kind, _ text: String) -> Bool {
        GlobalID(rawValue: text)?.kind == kind
    }
}
