-- Facts about this database that the server keeps across restarts
-- (instance id, when it was first initialised, generated keys in later issues).
CREATE TABLE server_metadata (
    key        TEXT PRIMARY KEY NOT NULL,
    value      TEXT NOT NULL,
    updated_at TEXT NOT NULL
) STRICT;
