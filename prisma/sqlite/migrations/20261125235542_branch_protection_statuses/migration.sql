-- CreateTable
CREATE TABLE "CommitStatus" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "index" INTEGER NOT NULL,
    "repoId" INTEGER NOT NULL,
    "state" TEXT NOT NULL,
    "sha" TEXT NOT NULL,
    "targetUrl" TEXT NOT NULL DEFAULT '',
    "description" TEXT NOT NULL DEFAULT '',
    "contextHash" TEXT NOT NULL,
    "context" TEXT NOT NULL DEFAULT '',
    "creatorId" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "CommitStatus_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CommitStatus_creatorId_fkey" FOREIGN KEY ("creatorId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PullAutoMerge" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "pullId" INTEGER NOT NULL,
    "doerId" INTEGER,
    "mergeStyle" TEXT NOT NULL,
    "message" TEXT NOT NULL DEFAULT '',
    "deleteBranchAfterMerge" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PullAutoMerge_pullId_fkey" FOREIGN KEY ("pullId") REFERENCES "PullRequest" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PullAutoMerge_doerId_fkey" FOREIGN KEY ("doerId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "CommitStatus_repoId_sha_contextHash_index_idx" ON "CommitStatus"("repoId", "sha", "contextHash", "index");

-- CreateIndex
CREATE INDEX "CommitStatus_creatorId_idx" ON "CommitStatus"("creatorId");

-- CreateIndex
CREATE UNIQUE INDEX "CommitStatus_repoId_sha_index_key" ON "CommitStatus"("repoId", "sha", "index");

-- CreateIndex
CREATE UNIQUE INDEX "PullAutoMerge_pullId_key" ON "PullAutoMerge"("pullId");

-- CreateIndex
CREATE INDEX "PullAutoMerge_doerId_idx" ON "PullAutoMerge"("doerId");
