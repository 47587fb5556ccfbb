-- CreateTable
CREATE TABLE "ActionSecret" (
    "id" SERIAL NOT NULL,
    "ownerId" INTEGER,
    "repoId" INTEGER,
    "name" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ActionSecret_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ActionVariable" (
    "id" SERIAL NOT NULL,
    "ownerId" INTEGER,
    "repoId" INTEGER,
    "name" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ActionVariable_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ActionSecret_ownerId_name_key" ON "ActionSecret"("ownerId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "ActionSecret_repoId_name_key" ON "ActionSecret"("repoId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "ActionVariable_ownerId_name_key" ON "ActionVariable"("ownerId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "ActionVariable_repoId_name_key" ON "ActionVariable"("repoId", "name");

-- AddForeignKey
ALTER TABLE "ActionSecret" ADD CONSTRAINT "ActionSecret_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ActionSecret" ADD CONSTRAINT "ActionSecret_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ActionVariable" ADD CONSTRAINT "ActionVariable_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ActionVariable" ADD CONSTRAINT "ActionVariable_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;
