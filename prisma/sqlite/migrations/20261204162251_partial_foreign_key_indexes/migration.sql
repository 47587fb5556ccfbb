-- DropIndex
DROP INDEX "Action_commentId_idx";

-- DropIndex
DROP INDEX "Comment_resolveDoerId_idx";

-- DropIndex
DROP INDEX "Comment_assigneeTeamId_idx";

-- DropIndex
DROP INDEX "Comment_assigneeId_idx";

-- DropIndex
DROP INDEX "Comment_timeId_idx";

-- DropIndex
DROP INDEX "Comment_oldProjectId_idx";

-- DropIndex
DROP INDEX "Comment_projectId_idx";

-- DropIndex
DROP INDEX "Comment_oldMilestoneId_idx";

-- DropIndex
DROP INDEX "Comment_milestoneId_idx";

-- DropIndex
DROP INDEX "Comment_labelId_idx";

-- DropIndex
DROP INDEX "Comment_dependentIssueId_idx";

-- DropIndex
DROP INDEX "Comment_refCommentId_idx";

-- DropIndex
DROP INDEX "Comment_refIssueId_idx";

-- DropIndex
DROP INDEX "Comment_refRepoId_refIssueId_refCommentId_idx";

-- DropIndex
DROP INDEX "Comment_reviewId_treePath_line_idx";

-- DropIndex
DROP INDEX "Issue_originalAuthorId_idx";

-- DropIndex
DROP INDEX "Issue_milestoneId_isClosed_idx";

-- DropIndex
DROP INDEX "Notification_commentId_idx";

-- CreateIndex
CREATE INDEX "Action_commentId_idx" ON "Action"("commentId") WHERE "commentId" IS NOT NULL;

-- CreateIndex
CREATE INDEX "Comment_reviewId_treePath_line_idx" ON "Comment"("reviewId", "treePath", "line") WHERE "reviewId" IS NOT NULL;

-- CreateIndex
CREATE INDEX "Comment_refRepoId_refIssueId_refCommentId_idx" ON "Comment"("refRepoId", "refIssueId", "refCommentId") WHERE "refRepoId" IS NOT NULL;

-- CreateIndex
CREATE INDEX "Comment_refIssueId_idx" ON "Comment"("refIssueId") WHERE "refIssueId" IS NOT NULL;

-- CreateIndex
CREATE INDEX "Comment_refCommentId_idx" ON "Comment"("refCommentId") WHERE "refCommentId" IS NOT NULL;

-- CreateIndex
CREATE INDEX "Comment_dependentIssueId_idx" ON "Comment"("dependentIssueId") WHERE "dependentIssueId" IS NOT NULL;

-- CreateIndex
CREATE INDEX "Comment_labelId_idx" ON "Comment"("labelId") WHERE "labelId" IS NOT NULL;

-- CreateIndex
CREATE INDEX "Comment_milestoneId_idx" ON "Comment"("milestoneId") WHERE "milestoneId" IS NOT NULL;

-- CreateIndex
CREATE INDEX "Comment_oldMilestoneId_idx" ON "Comment"("oldMilestoneId") WHERE "oldMilestoneId" IS NOT NULL;

-- CreateIndex
CREATE INDEX "Comment_projectId_idx" ON "Comment"("projectId") WHERE "projectId" IS NOT NULL;

-- CreateIndex
CREATE INDEX "Comment_oldProjectId_idx" ON "Comment"("oldProjectId") WHERE "oldProjectId" IS NOT NULL;

-- CreateIndex
CREATE INDEX "Comment_timeId_idx" ON "Comment"("timeId") WHERE "timeId" IS NOT NULL;

-- CreateIndex
CREATE INDEX "Comment_assigneeId_idx" ON "Comment"("assigneeId") WHERE "assigneeId" IS NOT NULL;

-- CreateIndex
CREATE INDEX "Comment_assigneeTeamId_idx" ON "Comment"("assigneeTeamId") WHERE "assigneeTeamId" IS NOT NULL;

-- CreateIndex
CREATE INDEX "Comment_resolveDoerId_idx" ON "Comment"("resolveDoerId") WHERE "resolveDoerId" IS NOT NULL;

-- CreateIndex
CREATE INDEX "Issue_milestoneId_isClosed_idx" ON "Issue"("milestoneId", "isClosed") WHERE "milestoneId" IS NOT NULL;

-- CreateIndex
CREATE INDEX "Issue_originalAuthorId_idx" ON "Issue"("originalAuthorId") WHERE "originalAuthorId" IS NOT NULL;

-- CreateIndex
CREATE INDEX "Notification_commentId_idx" ON "Notification"("commentId") WHERE "commentId" IS NOT NULL;
