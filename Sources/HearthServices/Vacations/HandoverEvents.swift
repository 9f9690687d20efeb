import HearthDomain

extension EventKind {
    /// An open instance was paused: the member it is for is away (or gone) with nobody to take it
    /// (FR-22). ``ChoreInstanceChange/memberID`` is whose absence paused it.
    public static let choreInstancePaused: EventKind = "chore_instance.paused"
    /// A paused instance is to do again: its member is back, or someone eligible is available.
    /// ``ChoreInstanceChange/memberID`` holds it now.
    public static let choreInstanceResumed: EventKind = "chore_instance.resumed"
    /// An open instance changed hands: redistributed from a member away or gone (FR-21, FR-14,
    /// FR-15), or given back on their return. ``ChoreInstanceChange/memberID`` holds it now,
    /// ``ChoreInstanceChange/memberIDs`` held it before.
    public static let choreInstanceReassigned: EventKind = "chore_instance.reassigned"
    /// A member's vacation began (FR-19, FR-20): ``HouseholdChange`` naming them.
    public static let memberVacationStarted: EventKind = "member.vacation_started"
    /// A member's vacation ended, by hand or at its end (FR-23, FR-24), or a scheduled one was
    /// cancelled: ``HouseholdChange`` naming them.
    public static let memberVacationEnded: EventKind = "member.vacation_ended"
}
