-- The business rules of migration 0005's triggers now live in HouseholdService, inside the
-- same write transactions (docs/architecture.md, "Portable SQL": triggers carry no business
-- rules, so a second database needs no equivalent of them):
--
-- - a member's parental consent is of the member's own household: the service looks the
--   consent up in that household wherever it gives one (addMember, updateMember);
-- - active_households rows are for active memberships only, a user's first household becomes
--   their active one, and when the active membership ends the most recently joined remaining
--   household becomes active (ActiveHousehold).
--
-- The constraints stay: the COPPA CHECK on members, the primary key (one active household per
-- user) and the foreign key (only a membership, cascading with it) of active_households.
DROP TRIGGER members_consent_same_household;
DROP TRIGGER members_consent_same_household_on_update;
DROP TRIGGER active_households_only_active_members;
DROP TRIGGER members_first_household_active;
DROP TRIGGER members_first_household_active_on_insert;
DROP TRIGGER members_reassign_active_household;
