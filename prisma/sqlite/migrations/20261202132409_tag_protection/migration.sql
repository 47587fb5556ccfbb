-- CreateTable
CREATE TABLE "ProtectedTag" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "repoId" INTEGER NOT NULL,
    "namePattern" TEXT NOT NULL,
    "allowlistUserIds" TEXT NOT NULL DEFAULT '[]',
    "allowlistTeamIds" TEXT NOT NULL DEFAULT '[]',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ProtectedTag_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ProtectedTag_repoId_idx" ON "ProtectedTag"("repoId");
