-- CreateTable
CREATE TABLE "ActionArtifact" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "runId" INTEGER NOT NULL,
    "taskId" INTEGER NOT NULL,
    "repoId" INTEGER NOT NULL,
    "ownerId" INTEGER NOT NULL,
    "commitSha" TEXT NOT NULL DEFAULT '',
    "name" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "size" BIGINT NOT NULL DEFAULT 0,
    "compressedSize" BIGINT NOT NULL DEFAULT 0,
    "storagePath" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'UPLOAD_PENDING',
    "expiresAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ActionArtifact_runId_fkey" FOREIGN KEY ("runId") REFERENCES "ActionRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ActionArtifact_repoId_status_idx" ON "ActionArtifact"("repoId", "status");

-- CreateIndex
CREATE INDEX "ActionArtifact_status_expiresAt_idx" ON "ActionArtifact"("status", "expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "ActionArtifact_runId_name_key" ON "ActionArtifact"("runId", "name");
