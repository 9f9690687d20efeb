-- The token economy (issue 14, "Approval and the token economy"; FR-ONBOARD-5): each member's
-- append-only ledger of whole tokens with its balance kept beside it, the household's rewards
-- store and the members' requests for rewards (TokenService in HearthServices).
--
-- Every table is household-owned (`household_id`, cascading from `households`) and reached
-- through the household's scope. Rows refer to members by id; members are never deleted while
-- their household exists (a departed member keeps the row), so a departed member keeps their
-- ledger and requests.

-- Rewards the household's admins offer (`createReward`). A deleted reward keeps its row
-- (`deleted_at`) for the requests that name it.
CREATE TABLE rewards (
    id            TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    household_id  TEXT COLLATE "C" NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    -- 1-80 characters after trimming (counted by the service), and its lowercase sort key.
    name          TEXT COLLATE "C" NOT NULL CHECK (length(trim(name)) > 0),
    name_key      TEXT COLLATE "C" NOT NULL,
    description   TEXT COLLATE "C",
    -- Whole tokens; a per-member price in reward_members replaces it for that member.
    token_cost    BIGINT NOT NULL CHECK (token_cost >= 0),
    -- How many are left; NULL: unlimited. Taken when asked for, given back on rejection.
    stock         BIGINT CHECK (stock IS NULL OR stock >= 0),
    -- 1: only the members listed in reward_members may ask for it.
    is_restricted BIGINT NOT NULL DEFAULT 0 CHECK (is_restricted IN (0, 1)),
    created_by    TEXT COLLATE "C" REFERENCES members (id) ON DELETE SET NULL,
    created_at    TEXT COLLATE "C" NOT NULL,
    updated_at    TEXT COLLATE "C" NOT NULL,
    deleted_at    TEXT COLLATE "C"
);

CREATE INDEX rewards_household ON rewards (household_id, name_key, id);

-- The members a reward names: those it is restricted to, and per-member prices.
CREATE TABLE reward_members (
    reward_id     TEXT COLLATE "C" NOT NULL REFERENCES rewards (id) ON DELETE CASCADE,
    household_id  TEXT COLLATE "C" NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    member_id     TEXT COLLATE "C" NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    -- This member's price; NULL: the reward's.
    token_cost    BIGINT CHECK (token_cost IS NULL OR token_cost >= 0),
    PRIMARY KEY (reward_id, member_id)
);

-- Requests for rewards (`redeemReward`): the price when asked, and the decision.
CREATE TABLE reward_redemptions (
    id            TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    household_id  TEXT COLLATE "C" NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    reward_id     TEXT COLLATE "C" NOT NULL REFERENCES rewards (id) ON DELETE CASCADE,
    -- Whose tokens pay for it.
    member_id     TEXT COLLATE "C" NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    -- Who asked: the member, or a parent on a child's behalf.
    requested_by  TEXT COLLATE "C" REFERENCES members (id) ON DELETE SET NULL,
    token_cost    BIGINT NOT NULL CHECK (token_cost >= 0),
    status        TEXT COLLATE "C" NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
    -- The optional reason of a rejection.
    reason        TEXT COLLATE "C",
    reviewed_by   TEXT COLLATE "C" REFERENCES members (id) ON DELETE SET NULL,
    requested_at  TEXT COLLATE "C" NOT NULL,
    reviewed_at   TEXT COLLATE "C",
    CHECK ((status = 'pending') = (reviewed_at IS NULL)),
    CHECK (reason IS NULL OR status = 'rejected')
);

CREATE INDEX reward_redemptions_household ON reward_redemptions (household_id, requested_at, id);
CREATE INDEX reward_redemptions_member ON reward_redemptions (member_id, status);

-- Each member's ledger, append-only: entries are inserted, never changed or deleted (until the
-- household is). `position` numbers a member's entries 1, 2, 3, … in the order they were
-- written (the newest-first order of `Member.tokenLedger` and its cursor); `balance_after` is
-- the sum of the member's entries up to and including this one.
CREATE TABLE token_ledger (
    id                 TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    household_id       TEXT COLLATE "C" NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    member_id          TEXT COLLATE "C" NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    position           BIGINT NOT NULL CHECK (position > 0),
    kind               TEXT COLLATE "C" NOT NULL CHECK (kind IN (
        'credit', 'reversal', 'adjustment', 'bonus', 'payout', 'redemption_hold', 'redemption_debit', 'redemption_release')),
    amount             BIGINT NOT NULL,
    balance_after      BIGINT NOT NULL CHECK (balance_after >= 0),
    note               TEXT COLLATE "C",
    -- Credits and reversals: the completion (chore_completions, which arrives with chore
    -- instances: no foreign key) and its chore.
    completion_id      TEXT COLLATE "C",
    chore_id           TEXT COLLATE "C",
    redemption_id      TEXT COLLATE "C" REFERENCES reward_redemptions (id) ON DELETE CASCADE,
    -- Payouts: the rate in force then, the money paid (amount tokens at that rate, exactly) and
    -- the currency, as decimal text such as '0.10' and '1.50', never a float.
    currency_per_token TEXT COLLATE "C",
    money_amount       TEXT COLLATE "C",
    currency_code      TEXT COLLATE "C",
    -- The member who made the change (an admin, or whoever completed or asked); NULL when the
    -- server did, or the member's row went with their account.
    recorded_by        TEXT COLLATE "C" REFERENCES members (id) ON DELETE SET NULL,
    created_at         TEXT COLLATE "C" NOT NULL,
    UNIQUE (member_id, position),
    -- Crediting or reversing one completion twice is refused here too: the service relies on
    -- it to make both idempotent (ON CONFLICT DO NOTHING).
    UNIQUE (completion_id, member_id, kind),
    CHECK (CASE kind
        WHEN 'credit' THEN amount > 0 AND completion_id IS NOT NULL
        WHEN 'reversal' THEN amount < 0 AND completion_id IS NOT NULL
        WHEN 'adjustment' THEN amount <> 0 AND note IS NOT NULL
        WHEN 'bonus' THEN amount > 0 AND note IS NOT NULL
        WHEN 'payout' THEN amount < 0 AND currency_per_token IS NOT NULL AND money_amount IS NOT NULL AND currency_code IS NOT NULL
        WHEN 'redemption_hold' THEN amount <= 0 AND redemption_id IS NOT NULL
        WHEN 'redemption_debit' THEN amount = 0 AND redemption_id IS NOT NULL
        ELSE amount >= 0 AND redemption_id IS NOT NULL
    END)
);

CREATE INDEX token_ledger_household ON token_ledger (household_id, created_at);
CREATE INDEX token_ledger_redemption ON token_ledger (redemption_id);

-- Each member's balance, the sum of their ledger entries, kept in the same transaction as every
-- entry: the conditional update that moves it (`balance + amount >= 0`) is what keeps it from
-- going negative, whatever requests run at once, and the CHECK backs it. `entry_count` is the
-- position of the member's latest entry.
CREATE TABLE token_balances (
    member_id     TEXT COLLATE "C" PRIMARY KEY NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    household_id  TEXT COLLATE "C" NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    balance       BIGINT NOT NULL CHECK (balance >= 0),
    entry_count   BIGINT NOT NULL CHECK (entry_count >= 0),
    updated_at    TEXT COLLATE "C" NOT NULL
);

CREATE INDEX token_balances_household ON token_balances (household_id);
