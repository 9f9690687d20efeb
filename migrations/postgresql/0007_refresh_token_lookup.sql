-- A refresh that presents the token spent by the latest rotation (a client retrying after
-- a lost response, or a thief) is found by `previous_token_hash`; without an index every
-- unknown token scanned the whole `sessions` table (issue 12).
CREATE INDEX sessions_previous_token ON sessions (previous_token_hash);
