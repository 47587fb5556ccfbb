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
    "hookStatus" TEXT NOT NULL DEFAULT 'UNKNOWN',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ActionRun_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ActionRun_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ActionRun_triggerUserId_fkey" FOREIGN KEY ("triggerUserId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "ActionRun_approvedById_fkey" FOREIGN KEY ("approvedById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_ActionRun" ("approvedById", "commitSha", "createdAt", "event", "eventPayload", "id", "index", "isForkPullRequest", "needApproval", "ownerId", "previousDuration", "ref", "repoId", "scheduleId", "started", "status", "stopped", "title", "triggerEvent", "triggerUserId", "updatedAt", "version", "workflowId") SELECT "approvedById", "commitSha", "createdAt", "event", "eventPayload", "id", "index", "isForkPullRequest", "needApproval", "ownerId", "previousDuration", "ref", "repoId", "scheduleId", "started", "status", "stopped", "title", "triggerEvent", "triggerUserId", "updatedAt", "version", "workflowId" FROM "ActionRun";
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
CREATE TABLE "new_ActionRunJob" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "runId" INTEGER NOT NULL,
    "repoId" INTEGER NOT NULL,
    "ownerId" INTEGER NOT NULL,
    "commitSha" TEXT NOT NULL DEFAULT '',
    "isForkPullRequest" BOOLEAN NOT NULL DEFAULT false,
    "name" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "workflowPayload" TEXT NOT NULL DEFAULT '',
    "jobId" TEXT NOT NULL,
    "needs" TEXT NOT NULL DEFAULT '[]',
    "runsOn" TEXT NOT NULL DEFAULT '[]',
    "taskId" INTEGER,
    "status" TEXT NOT NULL DEFAULT 'UNKNOWN',
    "hookStatus" TEXT NOT NULL DEFAULT 'UNKNOWN',
    "started" DATETIME,
    "stopped" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ActionRunJob_runId_fkey" FOREIGN KEY ("runId") REFERENCES "ActionRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ActionRunJob_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ActionRunJob_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ActionRunJob_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "ActionTask" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_ActionRunJob" ("attempt", "commitSha", "createdAt", "id", "isForkPullRequest", "jobId", "name", "needs", "ownerId", "repoId", "runId", "runsOn", "started", "status", "stopped", "taskId", "updatedAt", "workflowPayload") SELECT "attempt", "commitSha", "createdAt", "id", "isForkPullRequest", "jobId", "name", "needs", "ownerId", "repoId", "runId", "runsOn", "started", "status", "stopped", "taskId", "updatedAt", "workflowPayload" FROM "ActionRunJob";
DROP TABLE "ActionRunJob";
ALTER TABLE "new_ActionRunJob" RENAME TO "ActionRunJob";
CREATE UNIQUE INDEX "ActionRunJob_taskId_key" ON "ActionRunJob"("taskId");
CREATE INDEX "ActionRunJob_runId_id_idx" ON "ActionRunJob"("runId", "id");
CREATE INDEX "ActionRunJob_repoId_status_idx" ON "ActionRunJob"("repoId", "status");
CREATE INDEX "ActionRunJob_ownerId_idx" ON "ActionRunJob"("ownerId");
CREATE INDEX "ActionRunJob_commitSha_idx" ON "ActionRunJob"("commitSha");
CREATE INDEX "ActionRunJob_status_id_idx" ON "ActionRunJob"("status", "id");
CREATE INDEX "ActionRunJob_status_updatedAt_id_idx" ON "ActionRunJob"("status", "updatedAt", "id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
