-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_CronTask" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "schedule" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "execTimes" INTEGER NOT NULL DEFAULT 0,
    "lastRunAt" DATETIME,
    "nextRunAt" DATETIME,
    "lastError" TEXT NOT NULL DEFAULT '',
    "lastStatus" TEXT NOT NULL DEFAULT 'NONE',
    "lastMessage" TEXT NOT NULL DEFAULT '',
    "lastFinishedAt" DATETIME,
    "lastDurationMs" INTEGER NOT NULL DEFAULT 0,
    "runningBy" TEXT NOT NULL DEFAULT '',
    "runningAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_CronTask" ("createdAt", "enabled", "execTimes", "id", "lastError", "lastRunAt", "name", "nextRunAt", "schedule", "updatedAt") SELECT "createdAt", "enabled", "execTimes", "id", "lastError", "lastRunAt", "name", "nextRunAt", "schedule", "updatedAt" FROM "CronTask";
DROP TABLE "CronTask";
ALTER TABLE "new_CronTask" RENAME TO "CronTask";
CREATE UNIQUE INDEX "CronTask_name_key" ON "CronTask"("name");
CREATE INDEX "CronTask_enabled_nextRunAt_idx" ON "CronTask"("enabled", "nextRunAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "Job_status_updatedAt_idx" ON "Job"("status", "updatedAt");
