-- CreateTable
CREATE TABLE "Badge" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "slug" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "imageUrl" TEXT NOT NULL DEFAULT ''
);

-- CreateTable
CREATE TABLE "UserBadge" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "badgeId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    CONSTRAINT "UserBadge_badgeId_fkey" FOREIGN KEY ("badgeId") REFERENCES "Badge" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "UserBadge_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ActionRunAttempt" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "runId" INTEGER NOT NULL,
    "attempt" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "started" DATETIME,
    "stopped" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ActionRunAttempt_runId_fkey" FOREIGN KEY ("runId") REFERENCES "ActionRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ActionRunAttemptJob" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "attemptId" INTEGER NOT NULL,
    "jobId" INTEGER NOT NULL,
    "taskId" INTEGER,
    "attempt" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "started" DATETIME,
    "stopped" DATETIME,
    CONSTRAINT "ActionRunAttemptJob_attemptId_fkey" FOREIGN KEY ("attemptId") REFERENCES "ActionRunAttempt" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ActionRunAttemptJob_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "ActionRunJob" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ActionRunAttemptJob_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "ActionTask" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ActionRun" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "title" TEXT NOT NULL,
    "repoId" INTEGER NOT NULL,
    "ownerId" INTEGER NOT NULL,
    "workflowId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "triggerUserId" INTEGER,
    "scheduleId" INTEGER NOT NULL DEFAULT 0,
    "ref" TEXT NOT NULL DEFAULT '',
    "commitSha" TEXT NOT NULL DEFAULT '',
    "isForkPullRequest" BOOLEAN NOT NULL DEFAULT false,
    "needApproval" BOOLEAN NOT NULL DEFAULT false,
    "approvedById" INTEGER,
    "event" TEXT NOT NULL DEFAULT '',
    "eventPayload" TEXT NOT NULL DEFAULT '',
    "triggerEvent" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'UNKNOWN',
    "version" INTEGER NOT NULL DEFAULT 0,
    "started" DATETIME,
    "stopped" DATETIME,
    "previousDuration" INTEGER NOT NULL DEFAULT 0,
    "attempt" INTEGER NOT NULL DEFAULT 1,
    "hookStatus" TEXT NOT NULL DEFAULT 'UNKNOWN',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ActionRun_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ActionRun_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ActionRun_triggerUserId_fkey" FOREIGN KEY ("triggerUserId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "ActionRun_approvedById_fkey" FOREIGN KEY ("approvedById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_ActionRun" ("approvedById", "commitSha", "createdAt", "event", "eventPayload", "hookStatus", "id", "index", "isForkPullRequest", "needApproval", "ownerId", "previousDuration", "ref", "repoId", "scheduleId", "started", "status", "stopped", "title", "triggerEvent", "triggerUserId", "updatedAt", "version", "workflowId") SELECT "approvedById", "commitSha", "createdAt", "event", "eventPayload", "hookStatus", "id", "index", "isForkPullRequest", "needApproval", "ownerId", "previousDuration", "ref", "repoId", "scheduleId", "started", "status", "stopped", "title", "triggerEvent", "triggerUserId", "updatedAt", "version", "workflowId" FROM "ActionRun";
DROP TABLE "ActionRun";
ALTER TABLE "new_ActionRun" RENAME TO "ActionRun";
CREATE INDEX "ActionRun_repoId_status_id_idx" ON "ActionRun"("repoId", "status", "id");
CREATE INDEX "ActionRun_repoId_workflowId_ref_status_idx" ON "ActionRun"("repoId", "workflowId", "ref", "status");
CREATE INDEX "ActionRun_ownerId_idx" ON "ActionRun"("ownerId");
CREATE INDEX "ActionRun_status_id_idx" ON "ActionRun"("status", "id");
CREATE INDEX "ActionRun_event_id_idx" ON "ActionRun"("event", "id");
CREATE INDEX "ActionRun_triggerUserId_id_idx" ON "ActionRun"("triggerUserId", "id");
CREATE INDEX "ActionRun_approvedById_idx" ON "ActionRun"("approvedById");
CREATE INDEX "ActionRun_commitSha_idx" ON "ActionRun"("commitSha");
CREATE INDEX "ActionRun_ref_idx" ON "ActionRun"("ref");
CREATE UNIQUE INDEX "ActionRun_repoId_index_key" ON "ActionRun"("repoId", "index");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "Badge_slug_key" ON "Badge"("slug");

-- CreateIndex
CREATE INDEX "UserBadge_badgeId_idx" ON "UserBadge"("badgeId");

-- CreateIndex
CREATE UNIQUE INDEX "UserBadge_userId_badgeId_key" ON "UserBadge"("userId", "badgeId");

-- CreateIndex
CREATE UNIQUE INDEX "ActionRunAttempt_runId_attempt_key" ON "ActionRunAttempt"("runId", "attempt");

-- CreateIndex
CREATE INDEX "ActionRunAttemptJob_jobId_idx" ON "ActionRunAttemptJob"("jobId");

-- CreateIndex
CREATE INDEX "ActionRunAttemptJob_taskId_idx" ON "ActionRunAttemptJob"("taskId");

-- CreateIndex
CREATE UNIQUE INDEX "ActionRunAttemptJob_attemptId_jobId_key" ON "ActionRunAttemptJob"("attemptId", "jobId");

-- Runs re-run before attempts were recorded: their latest attempt is their jobs' highest.
UPDATE "ActionRun" SET "attempt" = (SELECT MAX(j."attempt") FROM "ActionRunJob" j WHERE j."runId" = "ActionRun"."id")
WHERE EXISTS (SELECT 1 FROM "ActionRunJob" j WHERE j."runId" = "ActionRun"."id" AND j."attempt" > 1);
