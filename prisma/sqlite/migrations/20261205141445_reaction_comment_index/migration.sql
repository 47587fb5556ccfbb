-- CreateIndex
CREATE INDEX "Reaction_commentId_id_idx" ON "Reaction"("commentId", "id");
