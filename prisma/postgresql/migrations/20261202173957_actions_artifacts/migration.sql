-- CreateEnum
CREATE TYPE "ActionArtifactStatus" AS ENUM ('UPLOAD_PENDING', 'UPLOAD_CONFIRMED', 'EXPIRED');

-- CreateTable
CREATE TABLE "ActionArtifact" (
    "id" SERIAL NOT NULL,
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
    "status" "ActionArtifactStatus" NOT NULL DEFAULT 'UPLOAD_PENDING',
    "expiresAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ActionArtifact_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ActionArtifact_repoId_status_idx" ON "ActionArtifact"("repoId", "status");

-- CreateIndex
CREATE INDEX "ActionArtifact_status_expiresAt_idx" ON "ActionArtifact"("status", "expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "ActionArtifact_runId_name_key" ON "ActionArtifact"("runId", "name");

-- AddForeignKey
ALTER TABLE "ActionArtifact" ADD CONSTRAINT "ActionArtifact_runId_fkey" FOREIGN KEY ("runId") REFERENCES "ActionRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;
