-- CreateTable
CREATE TABLE "ProtectedTag" (
    "id" SERIAL NOT NULL,
    "repoId" INTEGER NOT NULL,
    "namePattern" TEXT NOT NULL,
    "allowlistUserIds" TEXT NOT NULL DEFAULT '[]',
    "allowlistTeamIds" TEXT NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ProtectedTag_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ProtectedTag_repoId_idx" ON "ProtectedTag"("repoId");

-- AddForeignKey
ALTER TABLE "ProtectedTag" ADD CONSTRAINT "ProtectedTag_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;
