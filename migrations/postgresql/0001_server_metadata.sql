-- Facts about this database that the server keeps across restarts
-- (instance id, when it was first initialised, generated keys in later issues).
CREATE TABLE server_metadata (
    key        TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    value      TEXT COLLATE "C" NOT NULL,
    updated_at TEXT COLLATE "C" NOT NULL
);
