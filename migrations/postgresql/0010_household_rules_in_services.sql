-- The business rules of migration 0005's triggers now live in HouseholdService, inside the
-- same write transactions (docs/architecture.md, "Portable SQL": triggers carry no business
-- rules, so a second database needs no equivalent of them).
--
-- SQLite's migration drops the six triggers here. PostgreSQL's twin of 0005 never created them,
-- so this twin has nothing to change; it exists so both dialects number their migrations alike (the statement keeps the script from being empty).
SELECT 1;
