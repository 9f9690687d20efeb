-- Departures keep the member (issue 13): a member who leaves or is removed stays in `members`
-- with status 'departed' and the time, so what they did (completions, ledgers, leaderboards)
-- keeps its name, and rejoining revives the same row (HouseholdService, "Departures").
-- A departed child or shadow is anonymised at once (COPPA: their data goes when they leave):
-- the display name becomes a neutral label, the age and any account link are cleared, and only
-- the parental consent link stays, as evidence of the consent the record was kept under.
--
-- A CHECK cannot be changed in place in SQLite: the table is rebuilt (the documented
-- procedure; the migrator runs migrations with foreign keys off and checks them before commit).
-- `invitations.member_id` and the key of `active_households` refer to `members` by name, so they
-- refer to the new table once it takes the name.
CREATE TABLE members_new (
    id            TEXT PRIMARY KEY NOT NULL,
    household_id  TEXT NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    user_id       TEXT REFERENCES users (id) ON DELETE CASCADE,
    kind          TEXT NOT NULL CHECK (kind IN ('parent', 'child', 'shadow', 'co_parent')),
    role          TEXT NOT NULL CHECK (role IN ('admin', 'member')),
    status        TEXT NOT NULL CHECK (status IN ('active', 'invited', 'departed')),
    display_name  TEXT NOT NULL,
    -- Children and shadows: the age given when added (NULL: unknown, or departed).
    age           INTEGER CHECK (age IS NULL OR age BETWEEN 0 AND 130),
    consent_id    TEXT UNIQUE REFERENCES parental_consents (id),
    joined_at     TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    -- When they left or were removed; set exactly while departed.
    departed_at   TEXT,
    UNIQUE (household_id, user_id),
    CHECK ((status = 'departed') = (departed_at IS NOT NULL)),
    -- The COPPA gate, as before, for every member still holding data: no child or shadow under 13
    -- or of unknown age without a consent record. A departed one holds none (anonymised).
    CHECK (status = 'departed' OR kind NOT IN ('child', 'shadow') OR coalesce(age >= 13, 0) OR consent_id IS NOT NULL),
    -- Admins are adults.
    CHECK (role = 'member' OR kind IN ('parent', 'co_parent')),
    -- An active or departed adult has an account; an invited one gets it on accepting.
    CHECK (kind NOT IN ('parent', 'co_parent') OR status = 'invited' OR user_id IS NOT NULL)
) STRICT;

INSERT INTO members_new (id, household_id, user_id, kind, role, status, display_name, age, consent_id, joined_at, updated_at)
SELECT id, household_id, user_id, kind, role, status, display_name, age, consent_id, joined_at, updated_at FROM members;

DROP TABLE members;
ALTER TABLE members_new RENAME TO members;

CREATE INDEX members_user ON members (user_id);
CREATE INDEX members_household ON members (household_id, joined_at);
