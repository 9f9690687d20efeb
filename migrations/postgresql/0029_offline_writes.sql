-- Writes a phone can queue (issue 17): ids clients make offline, and what deletes leave behind.
--
-- client_ids: who made each object created with an id the client chose (`input.id` of a create
-- mutation). A create that sends an id already here answers from it: the same user gets the
-- first object back (a retry, even after its replay record was pruned), anyone else
-- `ID_TAKEN`. Rows of live objects stay as long as the object; rows of deleted ones go with
-- their tombstone.
CREATE TABLE client_ids (
    id         TEXT COLLATE "C" PRIMARY KEY,
    kind       TEXT COLLATE "C" NOT NULL,
    user_id    TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TEXT COLLATE "C" NOT NULL
);

-- tombstones: one row per deleted object a client may hold (households, members, chores, tags,
-- presets, rewards, habits, habit events, follows), written by the deleting transaction,
-- cascaded deletes included. `scope` is the change-log topic the object was visible in
-- (`household:<id>`, `user:<id>`); `account_id` is the other account that saw the object: the
-- account a deleted member stood for (so the people of a deleted household still learn their
-- objects were deleted), the followed user of a follow. An edit of a
-- tombstoned id answers `NOT_FOUND` with reason `DELETED` to those who could see it, and a
-- create with it never makes it again. Pruned after the change log's horizon
-- (`--retain-tombstones`), by `deleted_at`.
CREATE TABLE tombstones (
    id         TEXT COLLATE "C" PRIMARY KEY,
    kind       TEXT COLLATE "C" NOT NULL,
    scope      TEXT COLLATE "C" NOT NULL,
    account_id TEXT COLLATE "C",
    deleted_at TEXT COLLATE "C" NOT NULL
);

CREATE INDEX tombstones_deleted ON tombstones (deleted_at);
CREATE INDEX tombstones_scope ON tombstones (scope, kind);
