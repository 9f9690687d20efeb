-- One-off chores are archived (FR-37): once their one occurrence is done, or past its due day
-- without being done, the chore leaves the lists of chores to do (`householdChores` and
-- `personalChores` show active chores unless asked for archived ones) and stays readable with
-- its history. `archived_at` is when that happened; NULL for an active chore. Instance planning
-- (InstancePlanner in HearthServices) sets and clears it, from the chore's instances alone:
-- undoing the completion, or moving the due time later, makes the chore active again.
ALTER TABLE chores ADD COLUMN archived_at TEXT COLLATE "C";
