-- Claiming shared chore instances (issue 15: FR-51 – FR-53). `claimant_id` (migration 0013) is
-- the member who said "I'll do it"; `claimed_at` is when. `claimChore` sets both with one
-- conditional UPDATE (`… WHERE claimant_id IS NULL AND status = 'pending'`), so of any number of
-- concurrent claims exactly one changes the row; `releaseChore` clears both.
--
-- `offered_at` is when the instance was offered to its eligible members (the `chore.offer` job at
-- its due time, or a release): the job records the offer once, so running it again (a restart,
-- a retry) offers nothing twice.
ALTER TABLE chore_instances ADD COLUMN claimed_at TEXT COLLATE "C";
ALTER TABLE chore_instances ADD COLUMN offered_at TEXT COLLATE "C";
