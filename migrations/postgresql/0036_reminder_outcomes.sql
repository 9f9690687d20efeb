-- Issue 18 phase 2: reminders that avoid busy time (FR-50A/B), habit reminders, and what became
-- of each reminder.

-- The preference to hold reminders back while the user is busy by their imported, connected or
-- availability events (FR-50A); off (0) by default.
ALTER TABLE notification_preferences ADD COLUMN avoid_busy_times BIGINT NOT NULL DEFAULT 0 CHECK (avoid_busy_times IN (0, 1));

-- A habit's daily reminder (its planned days, in the owner's time zone): a minute of the day, or
-- NULL for none.
ALTER TABLE habits ADD COLUMN reminder_minute BIGINT CHECK (reminder_minute BETWEEN 0 AND 1439);

-- What became of a reminder: `original_time` is when it was planned to fire, set when it was
-- delivered later (quiet hours, busy time: `delay_reason`) or not at all (`skipped_reason`, which
-- now also says 'busy'). `habit_id` names the habit of a habit reminder (no foreign key: the record
-- outlives the habit, as it outlives a chore).
ALTER TABLE notifications ADD COLUMN original_time TEXT COLLATE "C";
ALTER TABLE notifications ADD COLUMN delay_reason TEXT COLLATE "C" CHECK (delay_reason IN ('quiet_hours', 'busy'));
ALTER TABLE notifications ADD COLUMN habit_id TEXT COLLATE "C";
