-- A user's open reset and activation links are void as soon as the account they were mailed for
-- changes its address, its password, its status or its activation (issue 23, finding 7): a link
-- mailed to an old address can no longer set the password of the account under its new one, and a
-- deactivated user's links stay dead when the user is activated again. A trigger, so that every
-- path that changes a user (profile, client users, provider users, invoice users, a script) voids
-- them in its own transaction; a link created after the change (a new activation mail) is open.
CREATE OR REPLACE FUNCTION "void_open_links"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF NEW.email IS DISTINCT FROM OLD.email
     OR NEW.password_hash IS DISTINCT FROM OLD.password_hash
     OR NEW.status IS DISTINCT FROM OLD.status
     OR NEW.activated IS DISTINCT FROM OLD.activated THEN
    UPDATE "auth_tokens" SET "used_at" = now() WHERE "user_id" = NEW.id AND "used_at" IS NULL;
  END IF;
  RETURN NULL;
END
$fn$;--> statement-breakpoint
CREATE TRIGGER "users_void_open_links" AFTER UPDATE OF "email", "password_hash", "status", "activated" ON "users"
  FOR EACH ROW EXECUTE FUNCTION "void_open_links"();
