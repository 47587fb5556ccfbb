-- CreateIndex
CREATE INDEX "Issue_repoId_isPull_createdAt_id_idx" ON "Issue"("repoId", "isPull", "createdAt", "id");
