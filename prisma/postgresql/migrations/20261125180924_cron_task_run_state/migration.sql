-- CreateEnum
CREATE TYPE "CronRunStatus" AS ENUM ('NONE', 'SUCCESS', 'ERROR', 'SKIPPED');

-- AlterTable
ALTER TABLE "CronTask" ADD COLUMN     "lastDurationMs" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "lastFinishedAt" TIMESTAMP(3),
ADD COLUMN     "lastMessage" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "lastStatus" "CronRunStatus" NOT NULL DEFAULT 'NONE',
ADD COLUMN     "runningAt" TIMESTAMP(3),
ADD COLUMN     "runningBy" TEXT NOT NULL DEFAULT '';

-- CreateIndex
CREATE INDEX "Job_status_updatedAt_idx" ON "Job"("status", "updatedAt");
