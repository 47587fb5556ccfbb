-- AlterTable
ALTER TABLE "ActionRun" ADD COLUMN     "attempt" INTEGER NOT NULL DEFAULT 1;

-- CreateTable
CREATE TABLE "Badge" (
    "id" SERIAL NOT NULL,
    "slug" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "imageUrl" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "Badge_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UserBadge" (
    "id" SERIAL NOT NULL,
    "badgeId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,

    CONSTRAINT "UserBadge_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ActionRunAttempt" (
    "id" SERIAL NOT NULL,
    "runId" INTEGER NOT NULL,
    "attempt" INTEGER NOT NULL,
    "status" "ActionStatus" NOT NULL,
    "started" TIMESTAMP(3),
    "stopped" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ActionRunAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ActionRunAttemptJob" (
    "id" SERIAL NOT NULL,
    "attemptId" INTEGER NOT NULL,
    "jobId" INTEGER NOT NULL,
    "taskId" INTEGER,
    "attempt" INTEGER NOT NULL,
    "status" "ActionStatus" NOT NULL,
    "started" TIMESTAMP(3),
    "stopped" TIMESTAMP(3),

    CONSTRAINT "ActionRunAttemptJob_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Badge_slug_key" ON "Badge"("slug");

-- CreateIndex
CREATE INDEX "UserBadge_badgeId_idx" ON "UserBadge"("badgeId");

-- CreateIndex
CREATE UNIQUE INDEX "UserBadge_userId_badgeId_key" ON "UserBadge"("userId", "badgeId");

-- CreateIndex
CREATE UNIQUE INDEX "ActionRunAttempt_runId_attempt_key" ON "ActionRunAttempt"("runId", "attempt");

-- CreateIndex
CREATE INDEX "ActionRunAttemptJob_jobId_idx" ON "ActionRunAttemptJob"("jobId");

-- CreateIndex
CREATE INDEX "ActionRunAttemptJob_taskId_idx" ON "ActionRunAttemptJob"("taskId");

-- CreateIndex
CREATE UNIQUE INDEX "ActionRunAttemptJob_attemptId_jobId_key" ON "ActionRunAttemptJob"("attemptId", "jobId");

-- AddForeignKey
ALTER TABLE "UserBadge" ADD CONSTRAINT "UserBadge_badgeId_fkey" FOREIGN KEY ("badgeId") REFERENCES "Badge"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UserBadge" ADD CONSTRAINT "UserBadge_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ActionRunAttempt" ADD CONSTRAINT "ActionRunAttempt_runId_fkey" FOREIGN KEY ("runId") REFERENCES "ActionRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ActionRunAttemptJob" ADD CONSTRAINT "ActionRunAttemptJob_attemptId_fkey" FOREIGN KEY ("attemptId") REFERENCES "ActionRunAttempt"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ActionRunAttemptJob" ADD CONSTRAINT "ActionRunAttemptJob_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "ActionRunJob"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ActionRunAttemptJob" ADD CONSTRAINT "ActionRunAttemptJob_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "ActionTask"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Runs re-run before attempts were recorded: their latest attempt is their jobs' highest.
UPDATE "ActionRun" SET "attempt" = (SELECT MAX(j."attempt") FROM "ActionRunJob" j WHERE j."runId" = "ActionRun"."id")
WHERE EXISTS (SELECT 1 FROM "ActionRunJob" j WHERE j."runId" = "ActionRun"."id" AND j."attempt" > 1);
