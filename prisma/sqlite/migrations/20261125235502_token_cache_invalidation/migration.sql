-- CreateTable
CREATE TABLE "AuthGeneration" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "value" INTEGER NOT NULL DEFAULT 0
);

-- Token cache invalidation (src/db/authInvalidation.ts): every change to a user, and every revocation or
-- re-scoping of a token, bumps the generation in the writing transaction, whichever process writes.
INSERT INTO "AuthGeneration" ("id", "value") VALUES (1, 0);
CREATE TRIGGER "AuthGeneration_user_update" AFTER UPDATE ON "User"
BEGIN UPDATE "AuthGeneration" SET "value" = "value" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "AuthGeneration_user_delete" AFTER DELETE ON "User"
BEGIN UPDATE "AuthGeneration" SET "value" = "value" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "AuthGeneration_token_update" AFTER UPDATE OF "userId", "tokenHash", "scope" ON "AccessToken"
BEGIN UPDATE "AuthGeneration" SET "value" = "value" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "AuthGeneration_token_delete" AFTER DELETE ON "AccessToken"
BEGIN UPDATE "AuthGeneration" SET "value" = "value" + 1 WHERE "id" = 1; END;
