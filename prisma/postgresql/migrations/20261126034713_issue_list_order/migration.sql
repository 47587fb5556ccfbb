-- CreateIndex
CREATE INDEX "Issue_repoId_isClosed_createdAt_id_idx" ON "Issue"("repoId", "isClosed", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Issue_repoId_isPull_isClosed_createdAt_id_idx" ON "Issue"("repoId", "isPull", "isClosed", "createdAt", "id");
