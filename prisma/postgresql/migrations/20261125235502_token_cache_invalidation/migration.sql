-- CreateTable
CREATE TABLE "AuthGeneration" (
    "id" INTEGER NOT NULL,
    "value" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "AuthGeneration_pkey" PRIMARY KEY ("id")
);

-- Token cache invalidation (src/db/authInvalidation.ts): every change to a user, and every revocation or
-- re-scoping of a token, notifies every listening instance when the writing transaction commits.
INSERT INTO "AuthGeneration" ("id", "value") VALUES (1, 0);
-- The body's semicolons are written \073: the migration runner splits scripts at every semicolon.
CREATE FUNCTION "forgegraph_auth_changed"() RETURNS trigger LANGUAGE plpgsql
  AS E'BEGIN PERFORM pg_notify(''forgegraph_auth'', '''')\073 RETURN NULL\073 END';
CREATE TRIGGER "AuthGeneration_user" AFTER UPDATE OR DELETE ON "User"
  FOR EACH STATEMENT EXECUTE FUNCTION "forgegraph_auth_changed"();
CREATE TRIGGER "AuthGeneration_token_update" AFTER UPDATE OF "userId", "tokenHash", "scope" ON "AccessToken"
  FOR EACH STATEMENT EXECUTE FUNCTION "forgegraph_auth_changed"();
CREATE TRIGGER "AuthGeneration_token_delete" AFTER DELETE ON "AccessToken"
  FOR EACH STATEMENT EXECUTE FUNCTION "forgegraph_auth_changed"();
