-- The members list (MemberPage.swift) shows a household's members admins first, then by when
-- they joined, then by id, a page at a time. This index holds them in that order, so a page is
-- read in order and stops at its limit, instead of every page sorting all the household's
-- members in a temporary table (which was most of the home screen's SQL work). The second key
-- is MemberCursor.rankSQL, written the same way so the planner matches it.
--
-- Numbered after the migrations other branches hold (0011 rebuilds `members`, which would drop
-- an index made before it).
CREATE INDEX members_page ON members (household_id, (role <> 'admin'), joined_at, id);
