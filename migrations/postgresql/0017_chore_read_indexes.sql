-- Two indexes for the chore lists (tools/bench/chores/views.py measures them), where the planner
-- had picked the household's index, which matched more terms of the query but read far more rows.
--
-- Whether a member may complete a chore is asked of every candidate row of myChores (for members
-- who are not admins: MyChoresQuery.isTheirs) with the chore, the action and "no step". The
-- index on chore_id alone lost to chore_grants_household, which matched two of those terms, so
-- each candidate scanned every 'complete' rule of the household (one per chore or more). This
-- one matches all three, and still serves the foreign key's lookups by chore.
DROP INDEX chore_grants_chore;
CREATE INDEX chore_grants_chore ON chore_grants (chore_id, action, step_id);

-- The latest completion of each chain of an `afterCompletion` chore (InstancePlanner
-- .latestCompletions: its next due time, in every list that shows one, and its planning) read
-- every finished instance of the household through chore_instances_household_due: two years of
-- history for each such chore of a list. Here, the chore's finished instances by member and time.
CREATE INDEX chore_instances_completed ON chore_instances (chore_id, member_id, completed_at)
    WHERE status IN ('completed', 'pending_approval');
