-- CreateTable
CREATE TABLE "ActionSecret" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "ownerId" INTEGER,
    "repoId" INTEGER,
    "name" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ActionSecret_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ActionSecret_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ActionVariable" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "ownerId" INTEGER,
    "repoId" INTEGER,
    "name" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ActionVariable_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ActionVariable_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "ActionSecret_ownerId_name_key" ON "ActionSecret"("ownerId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "ActionSecret_repoId_name_key" ON "ActionSecret"("repoId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "ActionVariable_ownerId_name_key" ON "ActionVariable"("ownerId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "ActionVariable_repoId_name_key" ON "ActionVariable"("repoId", "name");
