-- Vacation mode (issue 15: FR-19 – FR-24) and carrying out a departure's task choice (FR-14, FR-15).
--
-- A vacation is one member's absence from one household: `scheduled` until `starts_at`, `active`
-- while it lasts, `ended` once over (by `endVacation`, by the `vacation.end` job at `ends_at`, or
-- cancelled before it began). The member's record stays `active` (they stay on the leaderboard);
-- "on vacation" is an active row here. `handling` says what happens to the instances they hold:
-- 'pause' or 'redistribute' (VacationService, InstanceHandover). `destination_household_id` is where
-- an account holder's active household moves while away; `switched_active_household` records whether
-- the start did move it, so the end moves it back only then (and only while it is still there).
CREATE TABLE member_vacations (
    id                        TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    household_id              TEXT COLLATE "C" NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    member_id                 TEXT COLLATE "C" NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    handling                  TEXT COLLATE "C" NOT NULL CHECK (handling IN ('pause', 'redistribute')),
    destination_household_id  TEXT COLLATE "C" REFERENCES households (id) ON DELETE SET NULL,
    starts_at                 TEXT COLLATE "C" NOT NULL,
    ends_at                   TEXT COLLATE "C",
    status                    TEXT COLLATE "C" NOT NULL CHECK (status IN ('scheduled', 'active', 'ended')),
    started_at                TEXT COLLATE "C",
    ended_at                  TEXT COLLATE "C",
    switched_active_household BIGINT NOT NULL DEFAULT 0 CHECK (switched_active_household IN (0, 1)),
    created_by                TEXT COLLATE "C" REFERENCES users (id) ON DELETE SET NULL,
    created_at                TEXT COLLATE "C" NOT NULL,
    updated_at                TEXT COLLATE "C" NOT NULL,
    CHECK (ends_at IS NULL OR ends_at > starts_at),
    CHECK ((status = 'ended') = (ended_at IS NOT NULL)),
    CHECK (status = 'scheduled' OR status = 'ended' OR started_at IS NOT NULL)
);

-- A member's vacations (overlap checks, "is on vacation"), and a household's current ones.
CREATE INDEX member_vacations_member ON member_vacations (member_id, status, starts_at);
CREATE INDEX member_vacations_household ON member_vacations (household_id, status);

-- An open instance whose holder is away with nobody to take it is paused: still 'pending' in
-- `status` (so planning, history and completion treat it as open), shown as PAUSED, offered to
-- nobody and out of the lists of what is due. `paused_at` is when.
ALTER TABLE chore_instances ADD COLUMN paused_at TEXT COLLATE "C";
-- The member an open instance was handed to while the member it is for is away or gone
-- (REDISTRIBUTE): they hold it, see it in myChores and may complete it.
ALTER TABLE chore_instances ADD COLUMN reassigned_to TEXT COLLATE "C" REFERENCES members (id) ON DELETE SET NULL;

-- Whether a member back from vacation takes back the open instances handed to others while away
-- (`updateVacationSettings`); off by default: whoever took them keeps them.
ALTER TABLE households ADD COLUMN reclaim_redistributed_on_return BIGINT NOT NULL DEFAULT 0
    CHECK (reclaim_redistributed_on_return IN (0, 1));
