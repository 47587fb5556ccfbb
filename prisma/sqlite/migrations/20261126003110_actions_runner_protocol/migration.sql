-- CreateTable
CREATE TABLE "ActionTaskOutput" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "taskId" INTEGER NOT NULL,
    "outputKey" TEXT NOT NULL,
    "outputValue" TEXT NOT NULL,
    CONSTRAINT "ActionTaskOutput_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "ActionTask" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ActionTasksVersion" (
    "ownerId" INTEGER NOT NULL DEFAULT 0,
    "repoId" INTEGER NOT NULL DEFAULT 0,
    "version" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("ownerId", "repoId")
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ActionRunner" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "uuid" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "version" TEXT NOT NULL DEFAULT '',
    "ownerId" INTEGER,
    "repoId" INTEGER,
    "description" TEXT NOT NULL DEFAULT '',
    "tokenHash" TEXT NOT NULL,
    "tokenSalt" TEXT NOT NULL,
    "lastOnline" DATETIME,
    "lastActive" DATETIME,
    "agentLabels" TEXT NOT NULL DEFAULT '[]',
    "ephemeral" BOOLEAN NOT NULL DEFAULT false,
    "hasCancelling" BOOLEAN NOT NULL DEFAULT false,
    "isDisabled" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "deletedAt" DATETIME,
    CONSTRAINT "ActionRunner_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ActionRunner_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_ActionRunner" ("agentLabels", "createdAt", "deletedAt", "description", "ephemeral", "id", "isDisabled", "lastActive", "lastOnline", "name", "ownerId", "repoId", "tokenHash", "tokenSalt", "updatedAt", "uuid", "version") SELECT "agentLabels", "createdAt", "deletedAt", "description", "ephemeral", "id", "isDisabled", "lastActive", "lastOnline", "name", "ownerId", "repoId", "tokenHash", "tokenSalt", "updatedAt", "uuid", "version" FROM "ActionRunner";
DROP TABLE "ActionRunner";
ALTER TABLE "new_ActionRunner" RENAME TO "ActionRunner";
CREATE UNIQUE INDEX "ActionRunner_uuid_key" ON "ActionRunner"("uuid");
CREATE UNIQUE INDEX "ActionRunner_tokenHash_key" ON "ActionRunner"("tokenHash");
CREATE INDEX "ActionRunner_ownerId_repoId_deletedAt_idx" ON "ActionRunner"("ownerId", "repoId", "deletedAt");
CREATE INDEX "ActionRunner_repoId_idx" ON "ActionRunner"("repoId");
CREATE INDEX "ActionRunner_isDisabled_deletedAt_idx" ON "ActionRunner"("isDisabled", "deletedAt");
CREATE INDEX "ActionRunner_lastOnline_idx" ON "ActionRunner"("lastOnline");
CREATE TABLE "new_ActionRunnerToken" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "token" TEXT NOT NULL,
    "tokenSeed" TEXT NOT NULL DEFAULT '',
    "ownerId" INTEGER,
    "repoId" INTEGER,
    "isActive" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "deletedAt" DATETIME,
    CONSTRAINT "ActionRunnerToken_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ActionRunnerToken_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_ActionRunnerToken" ("createdAt", "deletedAt", "id", "isActive", "ownerId", "repoId", "token", "updatedAt") SELECT "createdAt", "deletedAt", "id", "isActive", "ownerId", "repoId", "token", "updatedAt" FROM "ActionRunnerToken";
DROP TABLE "ActionRunnerToken";
ALTER TABLE "new_ActionRunnerToken" RENAME TO "ActionRunnerToken";
CREATE UNIQUE INDEX "ActionRunnerToken_token_key" ON "ActionRunnerToken"("token");
CREATE INDEX "ActionRunnerToken_ownerId_repoId_isActive_idx" ON "ActionRunnerToken"("ownerId", "repoId", "isActive");
CREATE INDEX "ActionRunnerToken_repoId_idx" ON "ActionRunnerToken"("repoId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "ActionTaskOutput_taskId_outputKey_key" ON "ActionTaskOutput"("taskId", "outputKey");
