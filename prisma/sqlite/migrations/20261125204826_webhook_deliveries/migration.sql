-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_HookTask" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "hookId" INTEGER NOT NULL,
    "uuid" TEXT NOT NULL,
    "payloadContent" TEXT NOT NULL,
    "payloadVersion" INTEGER NOT NULL DEFAULT 2,
    "eventType" TEXT NOT NULL,
    "isDelivered" BOOLEAN NOT NULL DEFAULT false,
    "deliveredAt" DATETIME,
    "requestContent" TEXT NOT NULL DEFAULT '',
    "responseContent" TEXT NOT NULL DEFAULT '',
    "isSucceed" BOOLEAN NOT NULL DEFAULT false,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME,
    "isRedelivery" BOOLEAN NOT NULL DEFAULT false,
    "statusCode" INTEGER NOT NULL DEFAULT 0,
    "durationMs" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "HookTask_hookId_fkey" FOREIGN KEY ("hookId") REFERENCES "Webhook" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_HookTask" ("attempts", "createdAt", "deliveredAt", "eventType", "hookId", "id", "isDelivered", "isSucceed", "nextAttemptAt", "payloadContent", "payloadVersion", "requestContent", "responseContent", "uuid") SELECT "attempts", "createdAt", "deliveredAt", "eventType", "hookId", "id", "isDelivered", "isSucceed", "nextAttemptAt", "payloadContent", "payloadVersion", "requestContent", "responseContent", "uuid" FROM "HookTask";
DROP TABLE "HookTask";
ALTER TABLE "new_HookTask" RENAME TO "HookTask";
CREATE UNIQUE INDEX "HookTask_uuid_key" ON "HookTask"("uuid");
CREATE INDEX "HookTask_hookId_id_idx" ON "HookTask"("hookId", "id");
CREATE INDEX "HookTask_isDelivered_nextAttemptAt_idx" ON "HookTask"("isDelivered", "nextAttemptAt");
CREATE INDEX "HookTask_isDelivered_deliveredAt_idx" ON "HookTask"("isDelivered", "deliveredAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
