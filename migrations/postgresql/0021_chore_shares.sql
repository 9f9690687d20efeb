-- Sharing personal chores (issue 15: FR-40 – FR-42): an owner shares chosen personal chores, or
-- every personal chore of theirs carrying one tag (now and later), read-only, with another account
-- or with a household the owner belongs to.
--
-- A share with an account is addressed to an email address and waits for the account whose
-- confirmed address it is to accept it ('pending' → 'accepted', binding `recipient_user_id`, or
-- 'declined'); a share with a household is 'accepted' when made, and reaches whoever is an active
-- member of it (the owner too must still be one). Revoking deletes the share. The visibility rule
-- itself is `ChoreShares` in HearthServices.
CREATE TABLE chore_shares (
    id                     TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    -- The owner: shares are rows of their account (`{owner}`).
    user_id                TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- A tag share: every personal chore of the owner carrying this tag. NULL: the chosen chores
    -- (`chore_share_chores`).
    tag_id                 TEXT COLLATE "C" REFERENCES tags (id) ON DELETE CASCADE,
    -- An account's share: the address as typed, its lowercased key, and the account that accepted.
    recipient_email        TEXT COLLATE "C",
    recipient_email_key    TEXT COLLATE "C",
    recipient_user_id      TEXT COLLATE "C" REFERENCES users (id) ON DELETE CASCADE,
    -- A household's share.
    recipient_household_id TEXT COLLATE "C" REFERENCES households (id) ON DELETE CASCADE,
    status                 TEXT COLLATE "C" NOT NULL CHECK (status IN ('pending', 'accepted', 'declined')),
    created_at             TEXT COLLATE "C" NOT NULL,
    answered_at            TEXT COLLATE "C",
    CHECK ((recipient_email_key IS NULL) <> (recipient_household_id IS NULL)),
    CHECK (recipient_user_id IS NULL OR status = 'accepted')
);

CREATE INDEX chore_shares_owner ON chore_shares (user_id, created_at);
CREATE INDEX chore_shares_recipient ON chore_shares (recipient_user_id, created_at);
CREATE INDEX chore_shares_address ON chore_shares (recipient_email_key, status, created_at);
CREATE INDEX chore_shares_household ON chore_shares (recipient_household_id, created_at);
CREATE INDEX chore_shares_tag ON chore_shares (tag_id);

-- The chores of a share of chosen chores (its owner's personal chores).
CREATE TABLE chore_share_chores (
    share_id TEXT COLLATE "C" NOT NULL REFERENCES chore_shares (id) ON DELETE CASCADE,
    chore_id TEXT COLLATE "C" NOT NULL REFERENCES chores (id) ON DELETE CASCADE,
    user_id  TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (share_id, chore_id)
);

CREATE INDEX chore_share_chores_chore ON chore_share_chores (chore_id);
