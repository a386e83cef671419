-- Consultants now see only their assigned companies (docs/decisions/0007). The provider's own
-- consultants (consultant role, no client) saw every company until now: they keep the companies
-- that exist at this upgrade; companies added later must be assigned. A new database has none.
INSERT INTO "consultant_user_companies" ("user_id", "client_id")
SELECT u."id", c."id"
FROM "users" u
CROSS JOIN "clients" c
WHERE u."role_id" = 2 AND u."client_id" IS NULL AND c."type" = 'company' AND c."interest_status" = 'company'
ON CONFLICT DO NOTHING;
