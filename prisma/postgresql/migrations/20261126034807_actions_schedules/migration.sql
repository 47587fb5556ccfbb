-- CreateTable
CREATE TABLE "ActionSchedule" (
    "id" SERIAL NOT NULL,
    "repoId" INTEGER NOT NULL,
    "workflowId" TEXT NOT NULL,
    "spec" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "commitSha" TEXT NOT NULL,
    "triggerUserId" INTEGER,
    "next" TIMESTAMP(3) NOT NULL,
    "prev" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ActionSchedule_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ActionSchedule_next_idx" ON "ActionSchedule"("next");

-- CreateIndex
CREATE INDEX "ActionSchedule_repoId_idx" ON "ActionSchedule"("repoId");

-- CreateIndex
CREATE INDEX "ActionSchedule_triggerUserId_idx" ON "ActionSchedule"("triggerUserId");

-- AddForeignKey
ALTER TABLE "ActionSchedule" ADD CONSTRAINT "ActionSchedule_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ActionSchedule" ADD CONSTRAINT "ActionSchedule_triggerUserId_fkey" FOREIGN KEY ("triggerUserId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
