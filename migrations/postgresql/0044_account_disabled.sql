-- Accounts a self-hoster disabled with `hearth admin disable` (issue 19): a disabled account
-- cannot sign in (any method) or refresh a session; its sessions were ended when it was
-- disabled. `hearth admin enable` clears it. NULL for every account that is not disabled.
ALTER TABLE users ADD COLUMN disabled_at TEXT COLLATE "C";
