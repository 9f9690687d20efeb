-- Emailed links that a copy of the database cannot follow (issue 12).
--
-- A link's token is now base64url(id || tag): the id is 16 random bytes, the only part the
-- database keeps; the tag is HMAC-SHA-256 of the token's kind and id under the link key, a
-- key kept in the key directory, outside the database (LinkTokens in HearthServices). So the
-- columns that held SHA-256 digests of random tokens now hold ids.
ALTER TABLE email_tokens RENAME COLUMN token_hash TO token_id;
ALTER TABLE invitations RENAME COLUMN token_hash TO token_id;

-- Tokens sent before this version were random text whose links sit, readable, in the
-- bodies of mail_outbox: they stop working here (no tag can be made for them). Email tokens
-- expire at once (an unconfirmed address asks for a new link, a reset is asked for again);
-- a pending invitation stays, accepted from the app by its id (myInvitations) or sent again.
UPDATE email_tokens SET expires_at = created_at WHERE used_at IS NULL AND expires_at > created_at;

-- The outbox no longer keeps links: a message with one is stored with a placeholder where its
-- token goes, plus the token's kind and id, from which the delivery worker derives the token
-- again, with the link key, when it sends (the development `log` transport alone keeps the
-- tokens in the bodies, for `hearth mail show`). Both NULL when the message has no link.
ALTER TABLE mail_outbox ADD COLUMN link_kind TEXT COLLATE "C" CHECK (link_kind IN ('email_token', 'invitation'));
ALTER TABLE mail_outbox ADD COLUMN link_id BYTEA;

-- Invitations from before hold a 32-byte digest where an id now goes: give each a fresh id,
-- so the link derived from it (a replayed inviteMember, resendInvitation) is one that works.
-- (16 random bytes: md5 of random text, as PostgreSQL has no randomblob without pgcrypto.)
UPDATE invitations SET token_id = decode(md5(random()::text || id), 'hex') WHERE length(token_id) <> 16;
