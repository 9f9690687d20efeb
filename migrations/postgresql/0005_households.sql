-- Households, membership, invitations, parental consent, terms, onboarding and activation
-- analytics (issue 6).
--
-- Household scoping: every household-owned table carries `household_id` and cascades from
-- `households`, so deleting a household removes everything it owns in one statement, and
-- every query of household data filters on it (see HouseholdAccess in HearthServices).

-- The terms version an adult last accepted, and whether they allow activation analytics.
ALTER TABLE users ADD COLUMN accepted_terms_version TEXT COLLATE "C";
ALTER TABLE users ADD COLUMN terms_accepted_at TEXT COLLATE "C";
ALTER TABLE users ADD COLUMN analytics_consented_at TEXT COLLATE "C";
-- The IANA time zone new households default to (NULL: UTC).
ALTER TABLE users ADD COLUMN time_zone TEXT COLLATE "C";

-- Every terms acceptance, kept as evidence (which version, when).
CREATE TABLE terms_acceptances (
    user_id     TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    version     TEXT COLLATE "C" NOT NULL,
    accepted_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (user_id, version)
);

CREATE TABLE households (
    id                 TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    -- 1-80 characters after trimming (checked by HouseholdService, which counts characters
    -- as people see them; length() counts code points).
    name               TEXT COLLATE "C" NOT NULL CHECK (length(trim(name)) > 0),
    emoji              TEXT COLLATE "C",
    location_label     TEXT COLLATE "C",
    time_zone          TEXT COLLATE "C" NOT NULL,
    -- The token economy (FR-ONBOARD-5): a decimal string such as '0.10', never a float.
    currency_per_token TEXT COLLATE "C" NOT NULL DEFAULT '0.10',
    currency_code      TEXT COLLATE "C" NOT NULL DEFAULT 'USD' CHECK (length(currency_code) = 3),
    earnings_split     TEXT COLLATE "C" NOT NULL DEFAULT 'fallback' CHECK (earnings_split IN ('fallback', 'equal', 'completer')),
    created_by         TEXT COLLATE "C" REFERENCES users (id) ON DELETE SET NULL,
    created_at         TEXT COLLATE "C" NOT NULL,
    updated_at         TEXT COLLATE "C" NOT NULL
);

-- Verifiable parental consent (COPPA) for one child under 13 or of unknown age, written
-- before any of the child's data: it holds no child identity, only who consented, how and
-- under which terms. `members.consent_id` references it once the child is added.
CREATE TABLE parental_consents (
    id             TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    household_id   TEXT COLLATE "C" NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    consented_by   TEXT COLLATE "C" NOT NULL REFERENCES users (id),
    method         TEXT COLLATE "C" NOT NULL CHECK (method IN ('email_plus', 'card')),
    path           TEXT COLLATE "C" NOT NULL CHECK (path IN ('own_account', 'supervised')),
    attestation    TEXT COLLATE "C" NOT NULL CHECK (length(attestation) > 0),
    terms_version  TEXT COLLATE "C" NOT NULL,
    consented_at   TEXT COLLATE "C" NOT NULL,
    -- When a child or shadow was added under it. Each consent serves one child, once: it stays
    -- used after that member is removed (the record itself is kept as evidence).
    used_at        TEXT COLLATE "C"
);

CREATE INDEX parental_consents_household ON parental_consents (household_id);

-- The people of a household. A member may exist without an account (a shadow or a child
-- without a login, an invited co-parent before accepting) and be linked to one later.
CREATE TABLE members (
    id            TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    household_id  TEXT COLLATE "C" NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    user_id       TEXT COLLATE "C" REFERENCES users (id) ON DELETE CASCADE,
    kind          TEXT COLLATE "C" NOT NULL CHECK (kind IN ('parent', 'child', 'shadow', 'co_parent')),
    role          TEXT COLLATE "C" NOT NULL CHECK (role IN ('admin', 'member')),
    status        TEXT COLLATE "C" NOT NULL CONSTRAINT members_status_check CHECK (status IN ('active', 'invited')),
    display_name  TEXT COLLATE "C" NOT NULL,
    -- Children and shadows: the age given when added (NULL: unknown), for later account-link
    -- eligibility.
    age           BIGINT CHECK (age IS NULL OR age BETWEEN 0 AND 130),
    consent_id    TEXT COLLATE "C" UNIQUE REFERENCES parental_consents (id),
    joined_at     TEXT COLLATE "C" NOT NULL,
    updated_at    TEXT COLLATE "C" NOT NULL,
    UNIQUE (household_id, user_id),
    -- The COPPA gate, enforced by the database as well as by the service: no child or shadow
    -- under 13 or of unknown age without a consent record. (`coalesce`: a CHECK whose result is
    -- NULL passes, and `NULL >= 13` is NULL.) Named, as is the status CHECK: migration 0011 replaces both.
    CONSTRAINT members_coppa_check CHECK (kind NOT IN ('child', 'shadow') OR coalesce(age >= 13, false) OR consent_id IS NOT NULL),
    -- Admins are adults.
    CHECK (role = 'member' OR kind IN ('parent', 'co_parent')),
    -- An active adult has an account; an invited one gets it on accepting.
    CHECK (kind NOT IN ('parent', 'co_parent') OR status = 'invited' OR user_id IS NOT NULL)
);

CREATE INDEX members_user ON members (user_id);
CREATE INDEX members_household ON members (household_id, joined_at);

-- SQLite's migration 0005 also created six triggers here (the consent's household, the active
-- household's rules); migration 0010 moved their rules into HouseholdService and dropped them.
-- PostgreSQL databases start at today's schema, so this twin never creates them (and 0010's twin
-- has nothing to drop).

-- Each user's active household (FR-11, FR-17): at most one row per user (the primary key),
-- and only for a membership of theirs (the foreign key, cascading with it); which one, and that
-- it is an active membership, is ActiveHousehold's rule in HearthServices.
CREATE TABLE active_households (
    user_id      TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    household_id TEXT COLLATE "C" NOT NULL,
    activated_at TEXT COLLATE "C" NOT NULL,
    FOREIGN KEY (household_id, user_id) REFERENCES members (household_id, user_id) ON DELETE CASCADE
);

-- Pending invitations (FR-12, FR-13, FR-ONBOARD-4), one per invited member record: the
-- member row (status 'invited') is what the roster shows; this row holds the single-use
-- token (as a SHA-256 digest) and the address it is bound to. Accepting, declining or
-- revoking deletes it.
CREATE TABLE invitations (
    id           TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    household_id TEXT COLLATE "C" NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    member_id    TEXT COLLATE "C" NOT NULL UNIQUE REFERENCES members (id) ON DELETE CASCADE,
    email        TEXT COLLATE "C" NOT NULL,
    email_key    TEXT COLLATE "C" NOT NULL,
    token_hash   BYTEA NOT NULL UNIQUE,
    invited_by   TEXT COLLATE "C" REFERENCES users (id) ON DELETE SET NULL,
    created_at   TEXT COLLATE "C" NOT NULL,
    sent_at      TEXT COLLATE "C" NOT NULL,
    send_count   BIGINT NOT NULL DEFAULT 1,
    expires_at   TEXT COLLATE "C" NOT NULL,
    UNIQUE (household_id, email_key)
);

CREATE INDEX invitations_email ON invitations (email_key);

-- The choice made for a departing member's incomplete tasks (FR-14, FR-15), kept until
-- the chores feature consumes it (it also reads the `member.left` / `member.removed`
-- events of the change log).
CREATE TABLE member_departures (
    id                TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    household_id      TEXT COLLATE "C" NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    member_id         TEXT COLLATE "C" NOT NULL,
    user_id           TEXT COLLATE "C",
    reason            TEXT COLLATE "C" NOT NULL CHECK (reason IN ('left', 'removed')),
    task_handling     TEXT COLLATE "C" NOT NULL CHECK (task_handling IN ('unassign', 'redistribute')),
    decided_by        TEXT COLLATE "C" REFERENCES users (id) ON DELETE SET NULL,
    departed_at       TEXT COLLATE "C" NOT NULL,
    tasks_handled_at  TEXT COLLATE "C"
);

CREATE INDEX member_departures_household ON member_departures (household_id, tasks_handled_at);

-- The setup wizard's checklist per household (FR-ONBOARD-7): one row per step once it has
-- been visited, completed or skipped; absent rows are pending.
CREATE TABLE onboarding_steps (
    household_id  TEXT COLLATE "C" NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    step          TEXT COLLATE "C" NOT NULL CHECK (step IN ('household', 'admin', 'members', 'economy', 'chore')),
    state         TEXT COLLATE "C" NOT NULL CHECK (state IN ('pending', 'done', 'skipped')),
    completed_at  TEXT COLLATE "C",
    skipped_at    TEXT COLLATE "C",
    visit_count   BIGINT NOT NULL DEFAULT 0,
    last_visited_at TEXT COLLATE "C",
    updated_at    TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (household_id, step)
);

-- When a household's wizard was completed (its required steps done), once.
CREATE TABLE onboarding_completions (
    household_id  TEXT COLLATE "C" PRIMARY KEY NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    completed_at  TEXT COLLATE "C" NOT NULL
);

-- Mutation results by `clientMutationId` (API-CONVENTIONS "Mutations"): a replay by the
-- same user returns the first result and changes nothing. `result` is the JSON of the ids
-- the payload names, read again on replay.
CREATE TABLE mutation_replays (
    user_id            TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    client_mutation_id TEXT COLLATE "C" NOT NULL,
    mutation           TEXT COLLATE "C" NOT NULL,
    result             TEXT COLLATE "C" NOT NULL,
    created_at         TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (user_id, client_mutation_id)
);

CREATE INDEX mutation_replays_created ON mutation_replays (created_at);

-- Activation analytics (onboarding.md, "Analytics"): internal BI only. No names, no
-- addresses, no child identity: references are keyed hashes (HMAC-SHA-256 with a server
-- secret) and properties are coarse buckets. Not household-owned on purpose: the rows
-- outlive the household (they identify nothing), so the KPI keeps its history.
CREATE TABLE analytics_events (
    id             BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    name           TEXT COLLATE "C" NOT NULL,
    -- The hashed household reference, when the event concerns one.
    household_ref  TEXT COLLATE "C",
    -- The hashed reference of the account that caused it.
    actor_ref      TEXT COLLATE "C",
    -- Coarse, content-free properties as a JSON object.
    properties     TEXT COLLATE "C" NOT NULL DEFAULT '{}',
    -- Rounded down to the minute.
    occurred_at    TEXT COLLATE "C" NOT NULL
);

CREATE INDEX analytics_events_name ON analytics_events (name, occurred_at);
CREATE INDEX analytics_events_household ON analytics_events (household_ref, name);
CREATE INDEX analytics_events_actor ON analytics_events (actor_ref, name);
