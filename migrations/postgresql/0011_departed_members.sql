-- Departures keep the member (issue 13): a member who leaves or is removed stays in `members`
-- with status 'departed' and the time, so what they did (completions, ledgers, leaderboards)
-- keeps its name, and rejoining revives the same row (HouseholdService, "Departures").
-- A departed child or shadow is anonymised at once (COPPA: their data goes when they leave):
-- the display name becomes a neutral label, the age and any account link are cleared, and only
-- the parental consent link stays, as evidence of the consent the record was kept under.
--
-- SQLite rebuilds the table to change its CHECKs; PostgreSQL alters them in place (0005 named the
-- two it replaces), keeping the table, its indexes and the keys that refer to it.
ALTER TABLE members ADD COLUMN departed_at TEXT COLLATE "C";

ALTER TABLE members
    DROP CONSTRAINT members_status_check,
    ADD CONSTRAINT members_status_check CHECK (status IN ('active', 'invited', 'departed')),
    -- When they left or were removed; set exactly while departed.
    ADD CONSTRAINT members_departed_check CHECK ((status = 'departed') = (departed_at IS NOT NULL)),
    -- The COPPA gate, as before, for every member still holding data: no child or shadow under 13
    -- or of unknown age without a consent record. A departed one holds none (anonymised).
    DROP CONSTRAINT members_coppa_check,
    ADD CONSTRAINT members_coppa_check
        CHECK (status = 'departed' OR kind NOT IN ('child', 'shadow') OR coalesce(age >= 13, false) OR consent_id IS NOT NULL);
