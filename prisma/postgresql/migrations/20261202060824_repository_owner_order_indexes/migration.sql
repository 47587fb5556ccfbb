-- CreateIndex
CREATE INDEX "Repository_ownerId_createdAt_idx" ON "Repository"("ownerId", "createdAt");

-- CreateIndex
CREATE INDEX "Repository_ownerId_updatedAt_idx" ON "Repository"("ownerId", "updatedAt");

-- CreateIndex
CREATE INDEX "Repository_ownerId_numStars_idx" ON "Repository"("ownerId", "numStars");
