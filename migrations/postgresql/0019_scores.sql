-- Leaderboards and scoreboards (issue 15: FR-56 – FR-58): what each completion counted, and each
-- member's (or, for personal chores, each user's) completions and chore tokens per calendar day,
-- kept in the transaction that records the completion, its approval or its undoing
-- (ScoreKeeper in HearthServices, reacting to the chore instances' completion events), so a board
-- is one small query over a few days' rows.
--
-- Days are day numbers (days since 1970-01-01) of the calendar day the completion was done on in
-- the household's time zone (the owner's, for personal chores) at the time it was counted.
--
-- Owners, as in migration 0012: a household chore's rows carry `household_id` and the member, a
-- personal chore's `user_id` (and no member), never both.

-- Where a household's leaderboard weeks start: 'monday' (ISO 8601, the default) … 'sunday'.
ALTER TABLE households ADD COLUMN first_weekday TEXT COLLATE "C" NOT NULL DEFAULT 'monday'
    CHECK (first_weekday IN ('monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'));

-- What one completion counted, per member it counted for: the completer's row has completions 1,
-- other members credited a share of its tokens (the household's earnings split) have 0. Written
-- when a final completion counts (recorded without needing approval, or approved) and deleted when
-- it is undone, so counting twice or undoing twice changes nothing, and an undo subtracts exactly
-- what was added, on the day it was added to.
CREATE TABLE chore_scores (
    completion_id TEXT COLLATE "C" NOT NULL REFERENCES chore_completions (id) ON DELETE CASCADE,
    household_id  TEXT COLLATE "C" REFERENCES households (id) ON DELETE CASCADE,
    user_id       TEXT COLLATE "C" REFERENCES users (id) ON DELETE CASCADE,
    member_id     TEXT COLLATE "C" REFERENCES members (id) ON DELETE CASCADE,
    day           BIGINT NOT NULL,
    completions   BIGINT NOT NULL CHECK (completions IN (0, 1)),
    tokens        BIGINT NOT NULL CHECK (tokens >= 0),
    CHECK ((household_id IS NULL) <> (user_id IS NULL)),
    CHECK ((member_id IS NULL) = (household_id IS NULL))
);

CREATE UNIQUE INDEX chore_scores_completion ON chore_scores (completion_id, coalesce(member_id, ''));

-- The sums of chore_scores per member (or personal owner) and day: what boards read.
CREATE TABLE chore_score_days (
    household_id  TEXT COLLATE "C" REFERENCES households (id) ON DELETE CASCADE,
    user_id       TEXT COLLATE "C" REFERENCES users (id) ON DELETE CASCADE,
    member_id     TEXT COLLATE "C" REFERENCES members (id) ON DELETE CASCADE,
    day           BIGINT NOT NULL,
    completions   BIGINT NOT NULL CHECK (completions >= 0),
    tokens        BIGINT NOT NULL CHECK (tokens >= 0),
    CHECK ((household_id IS NULL) <> (user_id IS NULL)),
    CHECK ((member_id IS NULL) = (household_id IS NULL))
);

CREATE UNIQUE INDEX chore_score_days_key ON chore_score_days (coalesce(member_id, user_id), day);
-- A household's board: its days in a range, every member's.
CREATE INDEX chore_score_days_household ON chore_score_days (household_id, day, member_id, completions, tokens);
CREATE INDEX chore_score_days_user ON chore_score_days (user_id, day, completions);
