-- Households, membership, invitations, parental consent, terms, onboarding and activation
-- analytics (issue 6).
--
-- Household scoping: every household-owned table carries `household_id` and cascades from
-- `households`, so deleting a household removes everything it owns in one statement, and
-- every query of household data filters on it (see HouseholdAccess in HearthServices).

-- The terms version an adult last accepted, and whether they allow activation analytics.
ALTER TABLE users ADD COLUMN accepted_terms_version TEXT;
ALTER TABLE users ADD COLUMN terms_accepted_at TEXT;
ALTER TABLE users ADD COLUMN analytics_consented_at TEXT;
-- The IANA time zone new households default to (NULL: UTC).
ALTER TABLE users ADD COLUMN time_zone TEXT;

-- Every terms acceptance, kept as evidence (which version, when).
CREATE TABLE terms_acceptances (
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    version     TEXT NOT NULL,
    accepted_at TEXT NOT NULL,
    PRIMARY KEY (user_id, version)
) STRICT;

CREATE TABLE households (
    id                 TEXT PRIMARY KEY NOT NULL,
    -- 1-80 characters after trimming (checked by HouseholdService, which counts characters
    -- as people see them; SQLite's length() counts code points).
    name               TEXT NOT NULL CHECK (length(trim(name)) > 0),
    emoji              TEXT,
    location_label     TEXT,
    time_zone          TEXT NOT NULL,
    -- The token economy (FR-ONBOARD-5): a decimal string such as '0.10', never a float.
    currency_per_token TEXT NOT NULL DEFAULT '0.10',
    currency_code      TEXT NOT NULL DEFAULT 'USD' CHECK (length(currency_code) = 3),
    earnings_split     TEXT NOT NULL DEFAULT 'fallback' CHECK (earnings_split IN ('fallback', 'equal', 'completer')),
    created_by         TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL
) STRICT;

-- Verifiable parental consent (COPPA) for one child under 13 or of unknown age, written
-- before any of the child's data: it holds no child identity, only who consented, how and
-- under which terms. `members.consent_id` references it once the child is added.
CREATE TABLE parental_consents (
    id             TEXT PRIMARY KEY NOT NULL,
    household_id   TEXT NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    consented_by   TEXT NOT NULL REFERENCES users (id),
    method         TEXT NOT NULL CHECK (method IN ('email_plus', 'card')),
    path           TEXT NOT NULL CHECK (path IN ('own_account', 'supervised')),
    attestation    TEXT NOT NULL CHECK (length(attestation) > 0),
    terms_version  TEXT NOT NULL,
    consented_at   TEXT NOT NULL,
    -- When a child or shadow was added under it. Each consent serves one child, once: it stays
    -- used after that member is removed (the record itself is kept as evidence).
    used_at        TEXT
) STRICT;

CREATE INDEX parental_consents_household ON parental_consents (household_id);

-- The people of a household. A member may exist without an account (a shadow or a child
-- without a login, an invited co-parent before accepting) and be linked to one later.
CREATE TABLE members (
    id            TEXT PRIMARY KEY NOT NULL,
    household_id  TEXT NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    user_id       TEXT REFERENCES users (id) ON DELETE CASCADE,
    kind          TEXT NOT NULL CHECK (kind IN ('parent', 'child', 'shadow', 'co_parent')),
    role          TEXT NOT NULL CHECK (role IN ('admin', 'member')),
    status        TEXT NOT NULL CHECK (status IN ('active', 'invited')),
    display_name  TEXT NOT NULL,
    -- Children and shadows: the age given when added (NULL: unknown), for later account-link
    -- eligibility.
    age           INTEGER CHECK (age IS NULL OR age BETWEEN 0 AND 130),
    consent_id    TEXT UNIQUE REFERENCES parental_consents (id),
    joined_at     TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    UNIQUE (household_id, user_id),
    -- The COPPA gate, enforced by the database as well as by the service: no child or shadow
    -- under 13 or of unknown age without a consent record. (`coalesce`: a CHECK whose result is
    -- NULL passes, and `NULL >= 13` is NULL.)
    CHECK (kind NOT IN ('child', 'shadow') OR coalesce(age >= 13, 0) OR consent_id IS NOT NULL),
    -- Admins are adults.
    CHECK (role = 'member' OR kind IN ('parent', 'co_parent')),
    -- An active adult has an account; an invited one gets it on accepting.
    CHECK (kind NOT IN ('parent', 'co_parent') OR status = 'invited' OR user_id IS NOT NULL)
) STRICT;

CREATE INDEX members_user ON members (user_id);
CREATE INDEX members_household ON members (household_id, joined_at);

-- The consent must be of the child's household, when the member is added and when a consent
-- is given later (updateMember).
CREATE TRIGGER members_consent_same_household
BEFORE INSERT ON members
WHEN NEW.consent_id IS NOT NULL
 AND (SELECT household_id FROM parental_consents WHERE id = NEW.consent_id) IS NOT NEW.household_id
BEGIN
    SELECT RAISE(ABORT, 'parental consent belongs to another household');
END;

CREATE TRIGGER members_consent_same_household_on_update
BEFORE UPDATE OF consent_id, household_id ON members
WHEN NEW.consent_id IS NOT NULL
 AND (SELECT household_id FROM parental_consents WHERE id = NEW.consent_id) IS NOT NEW.household_id
BEGIN
    SELECT RAISE(ABORT, 'parental consent belongs to another household');
END;

-- Each user's active household (FR-11, FR-17): at most one row per user (the primary key),
-- and only for an active membership of theirs (the foreign key, and the trigger below).
-- Switching replaces the row, so the previous one is deactivated by the same statement.
-- When the membership goes (leave, removal, household deleted) the row goes with it and the
-- trigger on members activates the user's most recently joined remaining household, so a
-- user with any household always has exactly one active; a user with none has no row.
CREATE TABLE active_households (
    user_id      TEXT PRIMARY KEY NOT NULL,
    household_id TEXT NOT NULL,
    activated_at TEXT NOT NULL,
    FOREIGN KEY (household_id, user_id) REFERENCES members (household_id, user_id) ON DELETE CASCADE
) STRICT;

CREATE TRIGGER active_households_only_active_members
BEFORE INSERT ON active_households
WHEN NOT EXISTS (
    SELECT 1 FROM members
    WHERE household_id = NEW.household_id AND user_id = NEW.user_id AND status = 'active')
BEGIN
    SELECT RAISE(ABORT, 'the active household must be one the user is an active member of');
END;

-- A user's first household becomes their active one.
CREATE TRIGGER members_first_household_active
AFTER UPDATE OF status, user_id ON members
WHEN NEW.user_id IS NOT NULL AND NEW.status = 'active'
 AND NOT EXISTS (SELECT 1 FROM active_households WHERE user_id = NEW.user_id)
BEGIN
    INSERT INTO active_households (user_id, household_id, activated_at) VALUES (NEW.user_id, NEW.household_id, NEW.updated_at);
END;

CREATE TRIGGER members_first_household_active_on_insert
AFTER INSERT ON members
WHEN NEW.user_id IS NOT NULL AND NEW.status = 'active'
 AND NOT EXISTS (SELECT 1 FROM active_households WHERE user_id = NEW.user_id)
BEGIN
    INSERT INTO active_households (user_id, household_id, activated_at) VALUES (NEW.user_id, NEW.household_id, NEW.joined_at);
END;

-- Leaving the active household activates the most recently joined remaining one. (The
-- foreign key's cascade has already removed the active row when this runs.)
CREATE TRIGGER members_reassign_active_household
AFTER DELETE ON members
WHEN OLD.user_id IS NOT NULL
 AND NOT EXISTS (SELECT 1 FROM active_households WHERE user_id = OLD.user_id)
BEGIN
    INSERT INTO active_households (user_id, household_id, activated_at)
    SELECT user_id, household_id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM members
    WHERE user_id = OLD.user_id AND status = 'active' AND household_id IS NOT OLD.household_id
    ORDER BY joined_at DESC, id DESC LIMIT 1;
END;

-- Pending invitations (FR-12, FR-13, FR-ONBOARD-4), one per invited member record: the
-- member row (status 'invited') is what the roster shows; this row holds the single-use
-- token (as a SHA-256 digest) and the address it is bound to. Accepting, declining or
-- revoking deletes it.
CREATE TABLE invitations (
    id           TEXT PRIMARY KEY NOT NULL,
    household_id TEXT NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    member_id    TEXT NOT NULL UNIQUE REFERENCES members (id) ON DELETE CASCADE,
    email        TEXT NOT NULL,
    email_key    TEXT NOT NULL,
    token_hash   BLOB NOT NULL UNIQUE,
    invited_by   TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at   TEXT NOT NULL,
    sent_at      TEXT NOT NULL,
    send_count   INTEGER NOT NULL DEFAULT 1,
    expires_at   TEXT NOT NULL,
    UNIQUE (household_id, email_key)
) STRICT;

CREATE INDEX invitations_email ON invitations (email_key);

-- The choice made for a departing member's incomplete tasks (FR-14, FR-15), kept until
-- the chores feature consumes it (it also reads the `member.left` / `member.removed`
-- events of the change log).
CREATE TABLE member_departures (
    id                TEXT PRIMARY KEY NOT NULL,
    household_id      TEXT NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    member_id         TEXT NOT NULL,
    user_id           TEXT,
    reason            TEXT NOT NULL CHECK (reason IN ('left', 'removed')),
    task_handling     TEXT NOT NULL CHECK (task_handling IN ('unassign', 'redistribute')),
    decided_by        TEXT REFERENCES users (id) ON DELETE SET NULL,
    departed_at       TEXT NOT NULL,
    tasks_handled_at  TEXT
) STRICT;

CREATE INDEX member_departures_household ON member_departures (household_id, tasks_handled_at);

-- The setup wizard's checklist per household (FR-ONBOARD-7): one row per step once it has
-- been visited, completed or skipped; absent rows are pending.
CREATE TABLE onboarding_steps (
    household_id  TEXT NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    step          TEXT NOT NULL CHECK (step IN ('household', 'admin', 'members', 'economy', 'chore')),
    state         TEXT NOT NULL CHECK (state IN ('pending', 'done', 'skipped')),
    completed_at  TEXT,
    skipped_at    TEXT,
    visit_count   INTEGER NOT NULL DEFAULT 0,
    last_visited_at TEXT,
    updated_at    TEXT NOT NULL,
    PRIMARY KEY (household_id, step)
) STRICT;

-- When a household's wizard was completed (its required steps done), once.
CREATE TABLE onboarding_completions (
    household_id  TEXT PRIMARY KEY NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    completed_at  TEXT NOT NULL
) STRICT;

-- Mutation results by `clientMutationId` (API-CONVENTIONS "Mutations"): a replay by the
-- same user returns the first result and changes nothing. `result` is the JSON of the ids
-- the payload names, read again on replay.
CREATE TABLE mutation_replays (
    user_id            TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    client_mutation_id TEXT NOT NULL,
    mutation           TEXT NOT NULL,
    result             TEXT NOT NULL,
    created_at         TEXT NOT NULL,
    PRIMARY KEY (user_id, client_mutation_id)
) STRICT;

CREATE INDEX mutation_replays_created ON mutation_replays (created_at);

-- Activation analytics (onboarding.md, "Analytics"): internal BI only. No names, no
-- addresses, no child identity: references are keyed hashes (HMAC-SHA-256 with a server
-- secret) and properties are coarse buckets. Not household-owned on purpose: the rows
-- outlive the household (they identify nothing), so the KPI keeps its history.
CREATE TABLE analytics_events (
    id             INTEGER PRIMARY KEY,
    name           TEXT NOT NULL,
    -- The hashed household reference, when the event concerns one.
    household_ref  TEXT,
    -- The hashed reference of the account that caused it.
    actor_ref      TEXT,
    -- Coarse, content-free properties as a JSON object.
    properties     TEXT NOT NULL DEFAULT '{}',
    -- Rounded down to the minute.
    occurred_at    TEXT NOT NULL
) STRICT;

CREATE INDEX analytics_events_name ON analytics_events (name, occurred_at);
CREATE INDEX analytics_events_household ON analytics_events (household_ref, name);
CREATE INDEX analytics_events_actor ON analytics_events (actor_ref, name);
