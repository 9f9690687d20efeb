-- Widget tokens (issue 19, FR-65, FR-66): the credential a home-screen widget polls its feed with
-- (`GET /widget/feed`) and sends with its one-tap actions, since a widget cannot refresh a session
-- the way an app does. Made and revoked by the user (`createWidgetToken`, `revokeWidgetToken`),
-- listed with their sessions (`widgetTokens`). The token is shown once; only its SHA-256 is kept,
-- so a copy of the database opens no widget feed. Revoking deletes the row: the next request with
-- the token is refused. A token never expires by itself (a widget cannot sign in again); the
-- account's deletion takes its tokens with it.
CREATE TABLE widget_tokens (
    id          TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    user_id     TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash  TEXT COLLATE "C" NOT NULL UNIQUE,
    label       TEXT COLLATE "C",
    created_at  TEXT COLLATE "C" NOT NULL
);

CREATE INDEX widget_tokens_user ON widget_tokens (user_id, created_at);
