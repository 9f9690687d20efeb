-- Chore definitions (issue 14: FR-25 – FR-32, FR-38, FR-43 – FR-48): chores of a household or
-- personal ones, their assignees, steps, permission rules, tags and the households' saved presets.
-- Instances, completions, approval and the token ledger build on these tables in a later migration:
-- they refer to `chores.id` and `chore_steps.id`, which stay stable (a deleted chore keeps its row).
--
-- Owners: a household chore has `household_id`, a personal chore (FR-31) `user_id`, never both.
-- Every table here carries both columns with the chore's values (household-only tables only
-- `household_id`), so each statement filters on its owner (ChoreScope in HearthServices) and a
-- household's deletion cascades through all of them.
CREATE TABLE chores (
    id                TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    household_id      TEXT COLLATE "C" REFERENCES households (id) ON DELETE CASCADE,
    user_id           TEXT COLLATE "C" REFERENCES users (id) ON DELETE CASCADE,
    -- 1-80 characters after trimming (counted by the service), and its lowercase sort key.
    title             TEXT COLLATE "C" NOT NULL CHECK (length(trim(title)) > 0),
    title_key         TEXT COLLATE "C" NOT NULL,
    description       TEXT COLLATE "C",
    -- FR-27 - FR-30. Personal chores are their owner's alone: 'individual' without assignees.
    assignment_mode   TEXT COLLATE "C" NOT NULL CHECK (assignment_mode IN ('individual', 'group', 'all_members', 'single_action')),
    -- Exactly one schedule (FR-36, FR-37): 'once' at due_at; 'recurrence', RFC 5545 text (DTSTART,
    -- RRULE, EXDATE lines); 'after_completion', every interval_count interval_unit after the
    -- previous completion, first due at due_at.
    schedule_kind     TEXT COLLATE "C" NOT NULL CHECK (schedule_kind IN ('once', 'recurrence', 'after_completion')),
    due_at            TEXT COLLATE "C",
    recurrence        TEXT COLLATE "C",
    interval_count    BIGINT CHECK (interval_count IS NULL OR interval_count > 0),
    interval_unit     TEXT COLLATE "C" CHECK (interval_unit IS NULL OR interval_unit IN ('days', 'weeks')),
    -- Rewards (FR-ONBOARD-5): whole tokens, and whether a completion waits for an admin's approval.
    tokens            BIGINT NOT NULL DEFAULT 0 CHECK (tokens >= 0),
    requires_approval BIGINT NOT NULL DEFAULT 0 CHECK (requires_approval IN (0, 1)),
    -- The preset it was made from (built-in presets are not rows: no foreign key).
    preset_id         TEXT COLLATE "C",
    created_by        TEXT COLLATE "C" REFERENCES users (id) ON DELETE SET NULL,
    created_at        TEXT COLLATE "C" NOT NULL,
    updated_at        TEXT COLLATE "C" NOT NULL,
    -- FR-34: a deleted chore leaves every list and lookup, and its row stays for its history.
    deleted_at        TEXT COLLATE "C",
    CHECK ((household_id IS NULL) <> (user_id IS NULL)),
    CHECK (user_id IS NULL OR assignment_mode = 'individual'),
    CHECK (CASE schedule_kind
        WHEN 'once' THEN due_at IS NOT NULL AND recurrence IS NULL AND interval_count IS NULL AND interval_unit IS NULL
        WHEN 'recurrence' THEN recurrence IS NOT NULL AND due_at IS NULL AND interval_count IS NULL AND interval_unit IS NULL
        ELSE due_at IS NOT NULL AND recurrence IS NULL AND interval_count IS NOT NULL AND interval_unit IS NOT NULL
    END)
);

CREATE INDEX chores_household ON chores (household_id, title_key, id);
CREATE INDEX chores_user ON chores (user_id, title_key, id);

-- The stored assignees of a household chore, in order: the one of 'individual', the members of
-- 'group', the optional primary one of 'single_action'. 'all_members' stores none: it is every
-- active member at any time.
CREATE TABLE chore_assignees (
    chore_id     TEXT COLLATE "C" NOT NULL REFERENCES chores (id) ON DELETE CASCADE,
    household_id TEXT COLLATE "C" NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    member_id    TEXT COLLATE "C" NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    position     BIGINT NOT NULL CHECK (position >= 0),
    PRIMARY KEY (chore_id, member_id)
);

CREATE INDEX chore_assignees_member ON chore_assignees (member_id);

-- Ordered named steps (FR-38). A step keeps its id while the chore is edited (completions of a
-- step name it); a step removed from the chore is deleted.
CREATE TABLE chore_steps (
    id           TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    chore_id     TEXT COLLATE "C" NOT NULL REFERENCES chores (id) ON DELETE CASCADE,
    household_id TEXT COLLATE "C" REFERENCES households (id) ON DELETE CASCADE,
    user_id      TEXT COLLATE "C" REFERENCES users (id) ON DELETE CASCADE,
    position     BIGINT NOT NULL CHECK (position >= 0),
    title        TEXT COLLATE "C" NOT NULL CHECK (length(trim(title)) > 0),
    -- Who does this step, instead of the chore's assignees.
    assignee_id  TEXT COLLATE "C" REFERENCES members (id) ON DELETE SET NULL,
    CHECK ((household_id IS NULL) <> (user_id IS NULL))
);

CREATE INDEX chore_steps_chore ON chore_steps (chore_id, position);

-- Permission rules (FR-25), one row per role, member kind or member a rule admits, in household
-- chores only (personal chores are their owner's): 'create', the household's chore-creation
-- policy (no chore); 'complete', who besides the assignees may complete a chore, or one step
-- (step_id) instead of the chore's rule; 'edit', who besides admins may edit a chore.
CREATE TABLE chore_grants (
    household_id TEXT COLLATE "C" NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    chore_id     TEXT COLLATE "C" REFERENCES chores (id) ON DELETE CASCADE,
    step_id      TEXT COLLATE "C" REFERENCES chore_steps (id) ON DELETE CASCADE,
    action       TEXT COLLATE "C" NOT NULL CHECK (action IN ('create', 'complete', 'edit')),
    role         TEXT COLLATE "C" CHECK (role IN ('admin', 'member')),
    member_kind  TEXT COLLATE "C" CHECK (member_kind IN ('parent', 'child', 'shadow', 'co_parent')),
    member_id    TEXT COLLATE "C" REFERENCES members (id) ON DELETE CASCADE,
    CHECK ((action = 'create') = (chore_id IS NULL)),
    CHECK (step_id IS NULL OR action = 'complete'),
    CHECK (
        (role IS NOT NULL AND member_kind IS NULL AND member_id IS NULL)
        OR (role IS NULL AND member_kind IS NOT NULL AND member_id IS NULL)
        OR (role IS NULL AND member_kind IS NULL AND member_id IS NOT NULL))
);

CREATE INDEX chore_grants_chore ON chore_grants (chore_id);
CREATE INDEX chore_grants_household ON chore_grants (household_id, action);
CREATE INDEX chore_grants_member ON chore_grants (member_id);

-- Tags (FR-46 - FR-48): a household's (admins manage them) or one user's for their personal
-- chores. Names are unique per owner whatever their case (name_key, lowercase).
CREATE TABLE tags (
    id           TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    household_id TEXT COLLATE "C" REFERENCES households (id) ON DELETE CASCADE,
    user_id      TEXT COLLATE "C" REFERENCES users (id) ON DELETE CASCADE,
    name         TEXT COLLATE "C" NOT NULL CHECK (length(trim(name)) > 0),
    name_key     TEXT COLLATE "C" NOT NULL,
    -- '#rrggbb', lowercase.
    color        TEXT COLLATE "C",
    created_at   TEXT COLLATE "C" NOT NULL,
    updated_at   TEXT COLLATE "C" NOT NULL,
    CHECK ((household_id IS NULL) <> (user_id IS NULL)),
    UNIQUE (household_id, name_key),
    UNIQUE (user_id, name_key)
);

-- Which chores carry which tags. Deleting a tag removes it from its chores, never the chores.
CREATE TABLE chore_tags (
    chore_id     TEXT COLLATE "C" NOT NULL REFERENCES chores (id) ON DELETE CASCADE,
    tag_id       TEXT COLLATE "C" NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    household_id TEXT COLLATE "C" REFERENCES households (id) ON DELETE CASCADE,
    user_id      TEXT COLLATE "C" REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (chore_id, tag_id),
    CHECK ((household_id IS NULL) <> (user_id IS NULL))
);

CREATE INDEX chore_tags_tag ON chore_tags (tag_id);

-- Presets a household's admins saved from its chores (FR-45); the built-in library is in the
-- binary. `configuration` is the preset as JSON, decoded by the service.
CREATE TABLE chore_presets (
    id            TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    household_id  TEXT COLLATE "C" NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    title         TEXT COLLATE "C" NOT NULL CHECK (length(trim(title)) > 0),
    title_key     TEXT COLLATE "C" NOT NULL,
    configuration TEXT COLLATE "C" NOT NULL,
    created_by    TEXT COLLATE "C" REFERENCES users (id) ON DELETE SET NULL,
    created_at    TEXT COLLATE "C" NOT NULL,
    UNIQUE (household_id, title_key)
);
