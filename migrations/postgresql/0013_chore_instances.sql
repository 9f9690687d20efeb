-- Chore instances, completions and history (issue 14: FR-18, FR-33 – FR-39, FR-54; D-ONBOARD-3).
--
-- An instance is one occurrence of a chore, for one member (GROUP, ALL_MEMBERS) or shared
-- (INDIVIDUAL, SINGLE_ACTION, personal chores). Its id is derived from the chore, the occurrence's
-- original due time (iCalendar's RECURRENCE-ID) and the member (ChoreInstanceID in HearthDomain,
-- documented in the README), so it is the same however often instances are recalculated, and an
-- offline client computes it itself. The scheduler writes instances up to a horizon
-- (`--chore-horizon`); later ones are computed when read, and the first completion writes one.
--
-- Owners, as in migration 0012: a household chore's rows carry `household_id`, a personal
-- chore's `user_id`, never both (ChoreScope filters on them).
CREATE TABLE chore_instances (
    id            TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    chore_id      TEXT COLLATE "C" NOT NULL REFERENCES chores (id) ON DELETE CASCADE,
    household_id  TEXT COLLATE "C" REFERENCES households (id) ON DELETE CASCADE,
    user_id       TEXT COLLATE "C" REFERENCES users (id) ON DELETE CASCADE,
    -- The member of a per-member instance (GROUP, ALL_MEMBERS); NULL for a shared one.
    member_id     TEXT COLLATE "C" REFERENCES members (id) ON DELETE CASCADE,
    -- The original due time (RECURRENCE-ID): with the chore and the member, what the id is made of.
    occurrence_at TEXT COLLATE "C" NOT NULL,
    -- When it is due; the occurrence, until rescheduling (vacation, snoozing) moves it.
    due_at        TEXT COLLATE "C" NOT NULL,
    -- 'pending' (to do; steps may be done), 'pending_approval' (done, waiting for an admin),
    -- 'completed', 'cancelled' (its chore was deleted before it was done, FR-34), 'archived'
    -- (a one-off chore's instance once past due, FR-37).
    status        TEXT COLLATE "C" NOT NULL CHECK (status IN ('pending', 'completed', 'pending_approval', 'cancelled', 'archived')),
    -- The member who claimed a shared instance (claiming comes with the next issue).
    claimant_id   TEXT COLLATE "C" REFERENCES members (id) ON DELETE SET NULL,
    -- The completion that finished it, while it is completed or waiting for approval.
    completed_at  TEXT COLLATE "C",
    created_at    TEXT COLLATE "C" NOT NULL,
    updated_at    TEXT COLLATE "C" NOT NULL,
    CHECK ((household_id IS NULL) <> (user_id IS NULL)),
    CHECK (member_id IS NULL OR household_id IS NOT NULL),
    CHECK ((status IN ('completed', 'pending_approval')) = (completed_at IS NOT NULL))
);

-- A chore's instances in time (planning, history of one chore) and a household's by due time
-- (myChores), a member's own ones.
CREATE INDEX chore_instances_chore ON chore_instances (chore_id, occurrence_at);
CREATE INDEX chore_instances_household_due ON chore_instances (household_id, status, due_at, id);
CREATE INDEX chore_instances_user_due ON chore_instances (user_id, status, due_at, id);
CREATE INDEX chore_instances_member ON chore_instances (member_id, status, due_at);

-- Completions (FR-35, FR-38, FR-39): one row per completed instance, and per completed step of a
-- multi-step chore. Rows are never deleted while their household exists: undoing marks one
-- 'undone', a rejected approval 'rejected'; history shows 'completed' and 'pending_approval'.
CREATE TABLE chore_completions (
    id                 TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    instance_id        TEXT COLLATE "C" NOT NULL REFERENCES chore_instances (id) ON DELETE CASCADE,
    chore_id           TEXT COLLATE "C" NOT NULL REFERENCES chores (id) ON DELETE CASCADE,
    household_id       TEXT COLLATE "C" REFERENCES households (id) ON DELETE CASCADE,
    user_id            TEXT COLLATE "C" REFERENCES users (id) ON DELETE CASCADE,
    -- The step, for a step's completion. No foreign key: a step removed from its chore keeps its
    -- completions, with the title and place it had (step_title, step_position).
    step_id            TEXT COLLATE "C",
    step_title         TEXT COLLATE "C",
    step_position      BIGINT,
    -- Whether this completion finished the instance (its last step, or a chore without steps).
    is_final           BIGINT NOT NULL CHECK (is_final IN (0, 1)),
    -- Whose completion it is (for a household chore): the member who did it, a child when a parent
    -- recorded it for them (onBehalfOf). Departed members keep their row, so their name stays.
    member_id          TEXT COLLATE "C" REFERENCES members (id) ON DELETE SET NULL,
    -- Who recorded it: the account, and their member record in a household.
    recorded_by        TEXT COLLATE "C" REFERENCES users (id) ON DELETE SET NULL,
    recorded_by_member TEXT COLLATE "C" REFERENCES members (id) ON DELETE SET NULL,
    completed_at       TEXT COLLATE "C" NOT NULL,
    status             TEXT COLLATE "C" NOT NULL CHECK (status IN ('completed', 'pending_approval', 'rejected', 'undone')),
    -- How FR-18's prompt was answered, when the household was not the recorder's active one.
    cross_household    TEXT COLLATE "C" CHECK (cross_household IS NULL OR cross_household IN ('switch_and_complete', 'complete_anyway')),
    -- Approval (the token economy): who decided, when, and a rejection's reason.
    reviewed_by        TEXT COLLATE "C" REFERENCES members (id) ON DELETE SET NULL,
    reviewed_at        TEXT COLLATE "C",
    review_note        TEXT COLLATE "C",
    -- Undoing (uncompleteChore).
    undone_by          TEXT COLLATE "C" REFERENCES users (id) ON DELETE SET NULL,
    undone_at          TEXT COLLATE "C",
    CHECK ((household_id IS NULL) <> (user_id IS NULL)),
    CHECK ((status = 'undone') = (undone_at IS NOT NULL)),
    CHECK ((step_id IS NULL) = (step_title IS NULL) AND (step_id IS NULL) = (step_position IS NULL))
);

-- At most one live completion per instance and step: concurrent completions of one instance
-- cannot both be recorded, whatever the store.
CREATE UNIQUE INDEX chore_completions_live ON chore_completions (instance_id, coalesce(step_id, ''))
    WHERE status IN ('completed', 'pending_approval');
-- History newest first: per chore, per member, per household and per personal owner.
CREATE INDEX chore_completions_chore ON chore_completions (chore_id, completed_at, id);
CREATE INDEX chore_completions_member ON chore_completions (member_id, completed_at, id);
CREATE INDEX chore_completions_instance ON chore_completions (instance_id, completed_at);

-- How far each chore's instances are written: through `planned_through`; `next_unplanned_at` is
-- the first due time after it (NULL when the schedule has none), so reads compute instances only
-- for the chores that have some beyond what is written.
CREATE TABLE chore_plans (
    chore_id          TEXT COLLATE "C" PRIMARY KEY NOT NULL REFERENCES chores (id) ON DELETE CASCADE,
    household_id      TEXT COLLATE "C" REFERENCES households (id) ON DELETE CASCADE,
    user_id           TEXT COLLATE "C" REFERENCES users (id) ON DELETE CASCADE,
    planned_through   TEXT COLLATE "C" NOT NULL,
    next_unplanned_at TEXT COLLATE "C",
    updated_at        TEXT COLLATE "C" NOT NULL,
    CHECK ((household_id IS NULL) <> (user_id IS NULL))
);

CREATE INDEX chore_plans_household ON chore_plans (household_id, next_unplanned_at);
CREATE INDEX chore_plans_user ON chore_plans (user_id, next_unplanned_at);

-- D-ONBOARD-3 and the activation KPI: a household's first completed chore (approved, when it
-- needed approval), recorded once; the setup checklist is dismissed from then on.
CREATE TABLE household_first_completions (
    household_id  TEXT COLLATE "C" PRIMARY KEY NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    completion_id TEXT COLLATE "C" NOT NULL,
    completed_at  TEXT COLLATE "C" NOT NULL
);
