-- CreateTable
CREATE TABLE "GpgKey" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "ownerId" INTEGER NOT NULL,
    "parentId" INTEGER,
    "keyId" TEXT NOT NULL,
    "primaryKeyId" TEXT NOT NULL DEFAULT '',
    "content" TEXT NOT NULL,
    "armored" TEXT NOT NULL DEFAULT '',
    "emails" TEXT NOT NULL DEFAULT '[]',
    "verified" BOOLEAN NOT NULL DEFAULT false,
    "canSign" BOOLEAN NOT NULL DEFAULT false,
    "canEncryptComms" BOOLEAN NOT NULL DEFAULT false,
    "canEncryptStorage" BOOLEAN NOT NULL DEFAULT false,
    "canCertify" BOOLEAN NOT NULL DEFAULT false,
    "keyCreatedAt" DATETIME NOT NULL,
    "expiresAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "GpgKey_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "GpgKey_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "GpgKey" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "GpgKey_ownerId_parentId_idx" ON "GpgKey"("ownerId", "parentId");

-- CreateIndex
CREATE INDEX "GpgKey_keyId_idx" ON "GpgKey"("keyId");

-- CreateIndex
CREATE INDEX "GpgKey_parentId_idx" ON "GpgKey"("parentId");
