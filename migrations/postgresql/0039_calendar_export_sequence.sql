-- Calendar export (issue 18, FR-60), second part.
--
-- `ical_sequence` counts the edits of a chore that move or rename it in a calendar (its title,
-- its schedule): the RFC 5545 SEQUENCE of its exported event, so a calendar app that kept an
-- older copy takes the newer one. Other edits (description, tokens, assignees) leave it.
ALTER TABLE chores ADD COLUMN ical_sequence BIGINT NOT NULL DEFAULT 0 CHECK (ical_sequence >= 0);

-- Whether a user's feed also carries the household chores assigned to them (FR-60: "personal
-- chores and optionally assigned household chores"); off for the feeds made before.
ALTER TABLE calendar_feeds ADD COLUMN includes_household_chores BIGINT NOT NULL DEFAULT 0
    CHECK (includes_household_chores IN (0, 1));
