-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_PullAutoMerge" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "pullId" INTEGER NOT NULL,
    "doerId" INTEGER,
    "mergeStyle" TEXT NOT NULL,
    "message" TEXT NOT NULL DEFAULT '',
    "deleteBranchAfterMerge" BOOLEAN NOT NULL DEFAULT false,
    "authorEmail" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PullAutoMerge_pullId_fkey" FOREIGN KEY ("pullId") REFERENCES "PullRequest" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PullAutoMerge_doerId_fkey" FOREIGN KEY ("doerId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_PullAutoMerge" ("createdAt", "deleteBranchAfterMerge", "doerId", "id", "mergeStyle", "message", "pullId") SELECT "createdAt", "deleteBranchAfterMerge", "doerId", "id", "mergeStyle", "message", "pullId" FROM "PullAutoMerge";
DROP TABLE "PullAutoMerge";
ALTER TABLE "new_PullAutoMerge" RENAME TO "PullAutoMerge";
CREATE UNIQUE INDEX "PullAutoMerge_pullId_key" ON "PullAutoMerge"("pullId");
CREATE INDEX "PullAutoMerge_doerId_idx" ON "PullAutoMerge"("doerId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
