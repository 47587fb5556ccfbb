-- CreateTable
CREATE TABLE "User" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "type" TEXT NOT NULL DEFAULT 'INDIVIDUAL',
    "name" TEXT NOT NULL,
    "lowerName" TEXT NOT NULL,
    "fullName" TEXT NOT NULL DEFAULT '',
    "email" TEXT NOT NULL DEFAULT '',
    "keepEmailPrivate" BOOLEAN NOT NULL DEFAULT false,
    "passwordHash" TEXT NOT NULL DEFAULT '',
    "mustChangePassword" BOOLEAN NOT NULL DEFAULT false,
    "loginSource" INTEGER NOT NULL DEFAULT 0,
    "loginName" TEXT NOT NULL DEFAULT '',
    "location" TEXT NOT NULL DEFAULT '',
    "website" TEXT NOT NULL DEFAULT '',
    "description" TEXT NOT NULL DEFAULT '',
    "language" TEXT NOT NULL DEFAULT '',
    "visibility" TEXT NOT NULL DEFAULT 'PUBLIC',
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "isAdmin" BOOLEAN NOT NULL DEFAULT false,
    "isRestricted" BOOLEAN NOT NULL DEFAULT false,
    "prohibitLogin" BOOLEAN NOT NULL DEFAULT false,
    "allowGitHook" BOOLEAN NOT NULL DEFAULT false,
    "allowImportLocal" BOOLEAN NOT NULL DEFAULT false,
    "allowCreateOrganization" BOOLEAN NOT NULL DEFAULT true,
    "maxRepoCreation" INTEGER NOT NULL DEFAULT -1,
    "keepActivityPrivate" BOOLEAN NOT NULL DEFAULT false,
    "repoAdminChangeTeamAccess" BOOLEAN NOT NULL DEFAULT false,
    "restrictVisibilityChangesToOwners" BOOLEAN NOT NULL DEFAULT false,
    "avatar" TEXT NOT NULL DEFAULT '',
    "numFollowers" INTEGER NOT NULL DEFAULT 0,
    "numFollowing" INTEGER NOT NULL DEFAULT 0,
    "numStars" INTEGER NOT NULL DEFAULT 0,
    "numRepos" INTEGER NOT NULL DEFAULT 0,
    "numTeams" INTEGER NOT NULL DEFAULT 0,
    "numMembers" INTEGER NOT NULL DEFAULT 0,
    "lastLoginAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "EmailAddress" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" INTEGER NOT NULL,
    "email" TEXT NOT NULL,
    "lowerEmail" TEXT NOT NULL,
    "isActivated" BOOLEAN NOT NULL DEFAULT false,
    "isPrimary" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "EmailAddress_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AccessToken" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "tokenLastEight" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "lastUsedAt" DATETIME,
    CONSTRAINT "AccessToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "UserRedirect" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "lowerName" TEXT NOT NULL,
    "redirectUserId" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "UserRedirect_redirectUserId_fkey" FOREIGN KEY ("redirectUserId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Follow" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" INTEGER NOT NULL,
    "followId" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Follow_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Follow_followId_fkey" FOREIGN KEY ("followId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Block" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "blockerId" INTEGER NOT NULL,
    "blockeeId" INTEGER NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Block_blockerId_fkey" FOREIGN KEY ("blockerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Block_blockeeId_fkey" FOREIGN KEY ("blockeeId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PublicKey" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "ownerId" INTEGER,
    "name" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "mode" TEXT NOT NULL DEFAULT 'WRITE',
    "type" TEXT NOT NULL DEFAULT 'USER',
    "loginSourceId" INTEGER NOT NULL DEFAULT 0,
    "verified" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "PublicKey_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "OrgUser" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "orgId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "isPublic" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "OrgUser_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "OrgUser_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Team" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "orgId" INTEGER NOT NULL,
    "lowerName" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "authorize" TEXT NOT NULL DEFAULT 'NONE',
    "numRepos" INTEGER NOT NULL DEFAULT 0,
    "numMembers" INTEGER NOT NULL DEFAULT 0,
    "includesAllRepositories" BOOLEAN NOT NULL DEFAULT false,
    "canCreateOrgRepo" BOOLEAN NOT NULL DEFAULT false,
    "visibility" TEXT NOT NULL DEFAULT 'PRIVATE',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Team_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "TeamUser" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "orgId" INTEGER NOT NULL,
    "teamId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    CONSTRAINT "TeamUser_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "TeamUser_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "TeamUser_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "TeamRepo" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "orgId" INTEGER NOT NULL,
    "teamId" INTEGER NOT NULL,
    "repoId" INTEGER NOT NULL,
    CONSTRAINT "TeamRepo_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "TeamRepo_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "TeamRepo_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "TeamUnit" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "orgId" INTEGER NOT NULL,
    "teamId" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "accessMode" TEXT NOT NULL DEFAULT 'NONE',
    CONSTRAINT "TeamUnit_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "TeamUnit_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Repository" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "ownerId" INTEGER NOT NULL,
    "ownerName" TEXT NOT NULL,
    "lowerName" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "website" TEXT NOT NULL DEFAULT '',
    "originalServiceType" TEXT NOT NULL DEFAULT 'NOT_SET',
    "originalUrl" TEXT NOT NULL DEFAULT '',
    "defaultBranch" TEXT NOT NULL DEFAULT 'main',
    "defaultWikiBranch" TEXT NOT NULL DEFAULT 'main',
    "numWatches" INTEGER NOT NULL DEFAULT 0,
    "numStars" INTEGER NOT NULL DEFAULT 0,
    "numForks" INTEGER NOT NULL DEFAULT 0,
    "numIssues" INTEGER NOT NULL DEFAULT 0,
    "numClosedIssues" INTEGER NOT NULL DEFAULT 0,
    "numPulls" INTEGER NOT NULL DEFAULT 0,
    "numClosedPulls" INTEGER NOT NULL DEFAULT 0,
    "numMilestones" INTEGER NOT NULL DEFAULT 0,
    "numClosedMilestones" INTEGER NOT NULL DEFAULT 0,
    "numProjects" INTEGER NOT NULL DEFAULT 0,
    "numClosedProjects" INTEGER NOT NULL DEFAULT 0,
    "numActionRuns" INTEGER NOT NULL DEFAULT 0,
    "numClosedActionRuns" INTEGER NOT NULL DEFAULT 0,
    "isPrivate" BOOLEAN NOT NULL DEFAULT false,
    "isEmpty" BOOLEAN NOT NULL DEFAULT true,
    "isArchived" BOOLEAN NOT NULL DEFAULT false,
    "isMirror" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL DEFAULT 'READY',
    "isFork" BOOLEAN NOT NULL DEFAULT false,
    "forkId" INTEGER,
    "isTemplate" BOOLEAN NOT NULL DEFAULT false,
    "templateId" INTEGER,
    "size" BIGINT NOT NULL DEFAULT 0,
    "gitSize" BIGINT NOT NULL DEFAULT 0,
    "lfsSize" BIGINT NOT NULL DEFAULT 0,
    "isFsckEnabled" BOOLEAN NOT NULL DEFAULT true,
    "closeIssuesViaCommitInAnyBranch" BOOLEAN NOT NULL DEFAULT false,
    "topics" TEXT NOT NULL DEFAULT '[]',
    "objectFormatName" TEXT NOT NULL DEFAULT 'sha1',
    "trustModel" TEXT NOT NULL DEFAULT 'DEFAULT',
    "avatar" TEXT NOT NULL DEFAULT '',
    "archivedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Repository_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Repository_forkId_fkey" FOREIGN KEY ("forkId") REFERENCES "Repository" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Repository_templateId_fkey" FOREIGN KEY ("templateId") REFERENCES "Repository" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RepoUnit" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "repoId" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "config" TEXT NOT NULL DEFAULT '{}',
    "anonymousAccessMode" TEXT NOT NULL DEFAULT 'NONE',
    "everyoneAccessMode" TEXT NOT NULL DEFAULT 'NONE',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "RepoUnit_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Collaboration" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "repoId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "mode" TEXT NOT NULL DEFAULT 'WRITE',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Collaboration_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Collaboration_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "DeployKey" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "keyId" INTEGER NOT NULL,
    "repoId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "mode" TEXT NOT NULL DEFAULT 'READ',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "DeployKey_keyId_fkey" FOREIGN KEY ("keyId") REFERENCES "PublicKey" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "DeployKey_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RepoRedirect" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "ownerId" INTEGER NOT NULL,
    "lowerName" TEXT NOT NULL,
    "redirectRepoId" INTEGER NOT NULL,
    CONSTRAINT "RepoRedirect_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "RepoRedirect_redirectRepoId_fkey" FOREIGN KEY ("redirectRepoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Star" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" INTEGER NOT NULL,
    "repoId" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Star_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Star_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Watch" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" INTEGER NOT NULL,
    "repoId" INTEGER NOT NULL,
    "mode" TEXT NOT NULL DEFAULT 'NORMAL',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Watch_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Watch_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Topic" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "repoCount" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "RepoTopic" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "repoId" INTEGER NOT NULL,
    "topicId" INTEGER NOT NULL,
    CONSTRAINT "RepoTopic_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "RepoTopic_topicId_fkey" FOREIGN KEY ("topicId") REFERENCES "Topic" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Branch" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "repoId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "commitId" TEXT NOT NULL,
    "commitMessage" TEXT NOT NULL DEFAULT '',
    "pusherId" INTEGER,
    "isDeleted" BOOLEAN NOT NULL DEFAULT false,
    "deletedById" INTEGER,
    "deletedAt" DATETIME,
    "commitTime" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Branch_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Branch_pusherId_fkey" FOREIGN KEY ("pusherId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Branch_deletedById_fkey" FOREIGN KEY ("deletedById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ProtectedBranch" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "repoId" INTEGER NOT NULL,
    "ruleName" TEXT NOT NULL,
    "priority" INTEGER NOT NULL DEFAULT 0,
    "canPush" BOOLEAN NOT NULL DEFAULT false,
    "enableWhitelist" BOOLEAN NOT NULL DEFAULT false,
    "whitelistUserIds" TEXT NOT NULL DEFAULT '[]',
    "whitelistTeamIds" TEXT NOT NULL DEFAULT '[]',
    "enableMergeWhitelist" BOOLEAN NOT NULL DEFAULT false,
    "whitelistDeployKeys" BOOLEAN NOT NULL DEFAULT false,
    "mergeWhitelistUserIds" TEXT NOT NULL DEFAULT '[]',
    "mergeWhitelistTeamIds" TEXT NOT NULL DEFAULT '[]',
    "canForcePush" BOOLEAN NOT NULL DEFAULT false,
    "enableForcePushAllowlist" BOOLEAN NOT NULL DEFAULT false,
    "forcePushAllowlistUserIds" TEXT NOT NULL DEFAULT '[]',
    "forcePushAllowlistTeamIds" TEXT NOT NULL DEFAULT '[]',
    "forcePushAllowlistDeployKeys" BOOLEAN NOT NULL DEFAULT false,
    "enableStatusCheck" BOOLEAN NOT NULL DEFAULT false,
    "statusCheckContexts" TEXT NOT NULL DEFAULT '[]',
    "enableApprovalsWhitelist" BOOLEAN NOT NULL DEFAULT false,
    "approvalsWhitelistUserIds" TEXT NOT NULL DEFAULT '[]',
    "approvalsWhitelistTeamIds" TEXT NOT NULL DEFAULT '[]',
    "requiredApprovals" INTEGER NOT NULL DEFAULT 0,
    "blockOnRejectedReviews" BOOLEAN NOT NULL DEFAULT false,
    "blockOnOfficialReviewRequests" BOOLEAN NOT NULL DEFAULT false,
    "blockOnOutdatedBranch" BOOLEAN NOT NULL DEFAULT false,
    "blockOnCodeownerReviews" BOOLEAN NOT NULL DEFAULT false,
    "dismissStaleApprovals" BOOLEAN NOT NULL DEFAULT false,
    "ignoreStaleApprovals" BOOLEAN NOT NULL DEFAULT false,
    "requireSignedCommits" BOOLEAN NOT NULL DEFAULT false,
    "protectedFilePatterns" TEXT NOT NULL DEFAULT '',
    "unprotectedFilePatterns" TEXT NOT NULL DEFAULT '',
    "blockAdminMergeOverride" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ProtectedBranch_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Mirror" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "repoId" INTEGER NOT NULL,
    "interval" INTEGER NOT NULL DEFAULT 28800,
    "enablePrune" BOOLEAN NOT NULL DEFAULT true,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "nextUpdateAt" DATETIME,
    "lastSyncAt" DATETIME,
    "lfs" BOOLEAN NOT NULL DEFAULT false,
    "lfsEndpoint" TEXT NOT NULL DEFAULT '',
    "remoteAddress" TEXT NOT NULL DEFAULT '',
    "credentialsEncrypted" TEXT NOT NULL DEFAULT '',
    CONSTRAINT "Mirror_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PushMirror" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "repoId" INTEGER NOT NULL,
    "remoteName" TEXT NOT NULL,
    "remoteAddress" TEXT NOT NULL DEFAULT '',
    "credentialsEncrypted" TEXT NOT NULL DEFAULT '',
    "syncOnCommit" BOOLEAN NOT NULL DEFAULT true,
    "interval" INTEGER NOT NULL DEFAULT 28800,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUpdateAt" DATETIME,
    "lastError" TEXT NOT NULL DEFAULT '',
    CONSTRAINT "PushMirror_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "LanguageStat" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "repoId" INTEGER NOT NULL,
    "commitId" TEXT NOT NULL,
    "isPrimary" BOOLEAN NOT NULL DEFAULT false,
    "language" TEXT NOT NULL,
    "size" BIGINT NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "LanguageStat_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RepoLicense" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "repoId" INTEGER NOT NULL,
    "commitId" TEXT NOT NULL,
    "license" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "RepoLicense_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RepoTransfer" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "doerId" INTEGER NOT NULL,
    "recipientId" INTEGER NOT NULL,
    "repoId" INTEGER NOT NULL,
    "teamIds" TEXT NOT NULL DEFAULT '[]',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "RepoTransfer_doerId_fkey" FOREIGN KEY ("doerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "RepoTransfer_recipientId_fkey" FOREIGN KEY ("recipientId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "RepoTransfer_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "IssueIndex" (
    "repoId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "maxIndex" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "IssueIndex_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Issue" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "repoId" INTEGER NOT NULL,
    "index" INTEGER NOT NULL,
    "posterId" INTEGER,
    "originalAuthor" TEXT NOT NULL DEFAULT '',
    "originalAuthorId" INTEGER NOT NULL DEFAULT 0,
    "title" TEXT NOT NULL,
    "content" TEXT NOT NULL DEFAULT '',
    "contentVersion" INTEGER NOT NULL DEFAULT 0,
    "milestoneId" INTEGER,
    "priority" INTEGER NOT NULL DEFAULT 0,
    "isClosed" BOOLEAN NOT NULL DEFAULT false,
    "isPull" BOOLEAN NOT NULL DEFAULT false,
    "numComments" INTEGER NOT NULL DEFAULT 0,
    "ref" TEXT NOT NULL DEFAULT '',
    "pinOrder" INTEGER NOT NULL DEFAULT 0,
    "deadlineAt" DATETIME,
    "timeEstimate" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "closedAt" DATETIME,
    "isLocked" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "Issue_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Issue_posterId_fkey" FOREIGN KEY ("posterId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Issue_milestoneId_fkey" FOREIGN KEY ("milestoneId") REFERENCES "Milestone" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "IssueAssignee" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "issueId" INTEGER NOT NULL,
    "assigneeId" INTEGER NOT NULL,
    CONSTRAINT "IssueAssignee_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "IssueAssignee_assigneeId_fkey" FOREIGN KEY ("assigneeId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Label" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "repoId" INTEGER,
    "orgId" INTEGER,
    "name" TEXT NOT NULL,
    "exclusive" BOOLEAN NOT NULL DEFAULT false,
    "exclusiveOrder" INTEGER NOT NULL DEFAULT 0,
    "description" TEXT NOT NULL DEFAULT '',
    "color" TEXT NOT NULL,
    "numIssues" INTEGER NOT NULL DEFAULT 0,
    "numClosedIssues" INTEGER NOT NULL DEFAULT 0,
    "archivedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Label_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Label_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "IssueLabel" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "issueId" INTEGER NOT NULL,
    "labelId" INTEGER NOT NULL,
    CONSTRAINT "IssueLabel_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "IssueLabel_labelId_fkey" FOREIGN KEY ("labelId") REFERENCES "Label" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Milestone" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "repoId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "content" TEXT NOT NULL DEFAULT '',
    "isClosed" BOOLEAN NOT NULL DEFAULT false,
    "numIssues" INTEGER NOT NULL DEFAULT 0,
    "numClosedIssues" INTEGER NOT NULL DEFAULT 0,
    "completeness" INTEGER NOT NULL DEFAULT 0,
    "deadlineAt" DATETIME,
    "closedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Milestone_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Project" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "ownerId" INTEGER,
    "repoId" INTEGER,
    "creatorId" INTEGER,
    "isClosed" BOOLEAN NOT NULL DEFAULT false,
    "boardType" TEXT NOT NULL DEFAULT 'NONE',
    "cardType" TEXT NOT NULL DEFAULT 'TEXT_ONLY',
    "type" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "closedAt" DATETIME,
    CONSTRAINT "Project_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Project_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Project_creatorId_fkey" FOREIGN KEY ("creatorId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ProjectColumn" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "isDefault" BOOLEAN NOT NULL DEFAULT false,
    "sorting" INTEGER NOT NULL DEFAULT 0,
    "color" TEXT NOT NULL DEFAULT '',
    "creatorId" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ProjectColumn_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ProjectColumn_creatorId_fkey" FOREIGN KEY ("creatorId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ProjectIssue" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "issueId" INTEGER NOT NULL,
    "projectId" INTEGER NOT NULL,
    "projectColumnId" INTEGER,
    "sorting" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "ProjectIssue_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ProjectIssue_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ProjectIssue_projectColumnId_fkey" FOREIGN KEY ("projectColumnId") REFERENCES "ProjectColumn" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Comment" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "type" TEXT NOT NULL DEFAULT 'COMMENT',
    "posterId" INTEGER,
    "originalAuthor" TEXT NOT NULL DEFAULT '',
    "originalAuthorId" INTEGER NOT NULL DEFAULT 0,
    "issueId" INTEGER NOT NULL,
    "labelId" INTEGER,
    "oldProjectId" INTEGER,
    "projectId" INTEGER,
    "oldMilestoneId" INTEGER,
    "milestoneId" INTEGER,
    "timeId" INTEGER,
    "assigneeId" INTEGER,
    "removedAssignee" BOOLEAN NOT NULL DEFAULT false,
    "assigneeTeamId" INTEGER,
    "resolveDoerId" INTEGER,
    "oldTitle" TEXT NOT NULL DEFAULT '',
    "newTitle" TEXT NOT NULL DEFAULT '',
    "oldRef" TEXT NOT NULL DEFAULT '',
    "newRef" TEXT NOT NULL DEFAULT '',
    "dependentIssueId" INTEGER,
    "line" INTEGER NOT NULL DEFAULT 0,
    "treePath" TEXT NOT NULL DEFAULT '',
    "content" TEXT NOT NULL DEFAULT '',
    "contentVersion" INTEGER NOT NULL DEFAULT 0,
    "patch" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "commitSha" TEXT NOT NULL DEFAULT '',
    "reviewId" INTEGER,
    "invalidated" BOOLEAN NOT NULL DEFAULT false,
    "refRepoId" INTEGER,
    "refIssueId" INTEGER,
    "refCommentId" INTEGER,
    "refAction" TEXT NOT NULL DEFAULT 'NONE',
    "refIsPull" BOOLEAN NOT NULL DEFAULT false,
    "commentMetaData" TEXT NOT NULL DEFAULT '',
    CONSTRAINT "Comment_posterId_fkey" FOREIGN KEY ("posterId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Comment_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Comment_labelId_fkey" FOREIGN KEY ("labelId") REFERENCES "Label" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Comment_oldProjectId_fkey" FOREIGN KEY ("oldProjectId") REFERENCES "Project" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Comment_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Comment_oldMilestoneId_fkey" FOREIGN KEY ("oldMilestoneId") REFERENCES "Milestone" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Comment_milestoneId_fkey" FOREIGN KEY ("milestoneId") REFERENCES "Milestone" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Comment_timeId_fkey" FOREIGN KEY ("timeId") REFERENCES "TrackedTime" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Comment_assigneeId_fkey" FOREIGN KEY ("assigneeId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Comment_assigneeTeamId_fkey" FOREIGN KEY ("assigneeTeamId") REFERENCES "Team" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Comment_resolveDoerId_fkey" FOREIGN KEY ("resolveDoerId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Comment_dependentIssueId_fkey" FOREIGN KEY ("dependentIssueId") REFERENCES "Issue" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Comment_reviewId_fkey" FOREIGN KEY ("reviewId") REFERENCES "Review" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Comment_refRepoId_fkey" FOREIGN KEY ("refRepoId") REFERENCES "Repository" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Comment_refIssueId_fkey" FOREIGN KEY ("refIssueId") REFERENCES "Issue" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Comment_refCommentId_fkey" FOREIGN KEY ("refCommentId") REFERENCES "Comment" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Reaction" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "type" TEXT NOT NULL,
    "issueId" INTEGER NOT NULL,
    "commentId" INTEGER NOT NULL DEFAULT 0,
    "userId" INTEGER,
    "originalAuthor" TEXT NOT NULL DEFAULT '',
    "originalAuthorId" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Reaction_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Reaction_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "TrackedTime" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "issueId" INTEGER NOT NULL,
    "userId" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "time" INTEGER NOT NULL,
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "TrackedTime_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "TrackedTime_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Stopwatch" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "issueId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Stopwatch_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Stopwatch_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "IssueDependency" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" INTEGER,
    "issueId" INTEGER NOT NULL,
    "dependencyId" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "IssueDependency_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "IssueDependency_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "IssueDependency_dependencyId_fkey" FOREIGN KEY ("dependencyId") REFERENCES "Issue" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Attachment" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "uuid" TEXT NOT NULL,
    "repoId" INTEGER,
    "issueId" INTEGER,
    "releaseId" INTEGER,
    "uploaderId" INTEGER,
    "commentId" INTEGER,
    "name" TEXT NOT NULL,
    "downloadCount" INTEGER NOT NULL DEFAULT 0,
    "size" BIGINT NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Attachment_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Attachment_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Attachment_releaseId_fkey" FOREIGN KEY ("releaseId") REFERENCES "Release" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Attachment_uploaderId_fkey" FOREIGN KEY ("uploaderId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Attachment_commentId_fkey" FOREIGN KEY ("commentId") REFERENCES "Comment" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "IssueWatch" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" INTEGER NOT NULL,
    "issueId" INTEGER NOT NULL,
    "isWatching" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "IssueWatch_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "IssueWatch_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "IssueUser" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" INTEGER NOT NULL,
    "issueId" INTEGER NOT NULL,
    "isRead" BOOLEAN NOT NULL DEFAULT false,
    "isMentioned" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "IssueUser_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "IssueUser_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PullRequest" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "type" TEXT NOT NULL DEFAULT 'GITEA',
    "status" TEXT NOT NULL DEFAULT 'CHECKING',
    "conflictedFiles" TEXT NOT NULL DEFAULT '[]',
    "commitsAhead" INTEGER NOT NULL DEFAULT 0,
    "commitsBehind" INTEGER NOT NULL DEFAULT 0,
    "changedProtectedFiles" TEXT NOT NULL DEFAULT '[]',
    "issueId" INTEGER NOT NULL,
    "index" INTEGER NOT NULL,
    "headRepoId" INTEGER,
    "baseRepoId" INTEGER NOT NULL,
    "headBranch" TEXT NOT NULL,
    "headCommitId" TEXT NOT NULL DEFAULT '',
    "baseBranch" TEXT NOT NULL,
    "mergeBase" TEXT NOT NULL DEFAULT '',
    "allowMaintainerEdit" BOOLEAN NOT NULL DEFAULT false,
    "hasMerged" BOOLEAN NOT NULL DEFAULT false,
    "mergedCommitId" TEXT NOT NULL DEFAULT '',
    "mergerId" INTEGER,
    "mergedAt" DATETIME,
    "flow" TEXT NOT NULL DEFAULT 'GITHUB',
    "additions" INTEGER,
    "deletions" INTEGER,
    "changedFiles" INTEGER,
    "statsHeadSha" TEXT NOT NULL DEFAULT '',
    "statsBaseSha" TEXT NOT NULL DEFAULT '',
    CONSTRAINT "PullRequest_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PullRequest_headRepoId_fkey" FOREIGN KEY ("headRepoId") REFERENCES "Repository" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "PullRequest_baseRepoId_fkey" FOREIGN KEY ("baseRepoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PullRequest_mergerId_fkey" FOREIGN KEY ("mergerId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Review" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "type" TEXT NOT NULL,
    "reviewerId" INTEGER,
    "reviewerTeamId" INTEGER,
    "originalAuthor" TEXT NOT NULL DEFAULT '',
    "originalAuthorId" INTEGER NOT NULL DEFAULT 0,
    "issueId" INTEGER NOT NULL,
    "content" TEXT NOT NULL DEFAULT '',
    "official" BOOLEAN NOT NULL DEFAULT false,
    "commitId" TEXT NOT NULL DEFAULT '',
    "stale" BOOLEAN NOT NULL DEFAULT false,
    "dismissed" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Review_reviewerId_fkey" FOREIGN KEY ("reviewerId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Review_reviewerTeamId_fkey" FOREIGN KEY ("reviewerTeamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Review_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Release" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "repoId" INTEGER NOT NULL,
    "publisherId" INTEGER,
    "tagName" TEXT NOT NULL,
    "lowerTagName" TEXT NOT NULL,
    "target" TEXT NOT NULL DEFAULT '',
    "title" TEXT NOT NULL DEFAULT '',
    "sha1" TEXT NOT NULL DEFAULT '',
    "numCommits" INTEGER NOT NULL DEFAULT 0,
    "note" TEXT NOT NULL DEFAULT '',
    "isDraft" BOOLEAN NOT NULL DEFAULT false,
    "isPrerelease" BOOLEAN NOT NULL DEFAULT false,
    "isTag" BOOLEAN NOT NULL DEFAULT false,
    "originalAuthor" TEXT NOT NULL DEFAULT '',
    "originalAuthorId" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Release_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Release_publisherId_fkey" FOREIGN KEY ("publisherId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Webhook" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "repoId" INTEGER,
    "ownerId" INTEGER,
    "isSystemWebhook" BOOLEAN NOT NULL DEFAULT false,
    "name" TEXT NOT NULL DEFAULT '',
    "url" TEXT NOT NULL,
    "httpMethod" TEXT NOT NULL DEFAULT 'POST',
    "contentType" TEXT NOT NULL DEFAULT 'JSON',
    "secret" TEXT NOT NULL DEFAULT '',
    "events" TEXT NOT NULL DEFAULT '{}',
    "branchFilter" TEXT NOT NULL DEFAULT '',
    "isActive" BOOLEAN NOT NULL DEFAULT false,
    "type" TEXT NOT NULL DEFAULT 'GITEA',
    "meta" TEXT NOT NULL DEFAULT '',
    "headerAuthorizationEncrypted" TEXT NOT NULL DEFAULT '',
    "lastStatus" TEXT NOT NULL DEFAULT 'NONE',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Webhook_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Webhook_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "HookTask" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "hookId" INTEGER NOT NULL,
    "uuid" TEXT NOT NULL,
    "payloadContent" TEXT NOT NULL,
    "payloadVersion" INTEGER NOT NULL DEFAULT 2,
    "eventType" TEXT NOT NULL,
    "isDelivered" BOOLEAN NOT NULL DEFAULT false,
    "deliveredAt" DATETIME,
    "requestContent" TEXT NOT NULL DEFAULT '',
    "responseContent" TEXT NOT NULL DEFAULT '',
    "isSucceed" BOOLEAN NOT NULL DEFAULT false,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "HookTask_hookId_fkey" FOREIGN KEY ("hookId") REFERENCES "Webhook" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Notification" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" INTEGER NOT NULL,
    "repoId" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'UNREAD',
    "source" TEXT NOT NULL,
    "issueId" INTEGER,
    "commitId" TEXT NOT NULL DEFAULT '',
    "commentId" INTEGER,
    "updatedById" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Notification_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Notification_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Notification_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Notification_commentId_fkey" FOREIGN KEY ("commentId") REFERENCES "Comment" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Notification_updatedById_fkey" FOREIGN KEY ("updatedById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Action" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" INTEGER NOT NULL,
    "opType" TEXT NOT NULL,
    "actUserId" INTEGER NOT NULL,
    "repoId" INTEGER NOT NULL,
    "commentId" INTEGER,
    "isDeleted" BOOLEAN NOT NULL DEFAULT false,
    "refName" TEXT NOT NULL DEFAULT '',
    "isPrivate" BOOLEAN NOT NULL DEFAULT false,
    "content" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Action_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Action_actUserId_fkey" FOREIGN KEY ("actUserId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Action_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Action_commentId_fkey" FOREIGN KEY ("commentId") REFERENCES "Comment" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Package" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "ownerId" INTEGER NOT NULL,
    "repoId" INTEGER,
    "type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "lowerName" TEXT NOT NULL,
    "semverCompatible" BOOLEAN NOT NULL DEFAULT false,
    "isInternal" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "Package_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Package_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PackageVersion" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "packageId" INTEGER NOT NULL,
    "creatorId" INTEGER,
    "version" TEXT NOT NULL,
    "lowerVersion" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "isInternal" BOOLEAN NOT NULL DEFAULT false,
    "metadataJson" TEXT NOT NULL DEFAULT '',
    "downloadCount" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "PackageVersion_packageId_fkey" FOREIGN KEY ("packageId") REFERENCES "Package" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PackageVersion_creatorId_fkey" FOREIGN KEY ("creatorId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PackageFile" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "versionId" INTEGER NOT NULL,
    "blobId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "lowerName" TEXT NOT NULL,
    "compositeKey" TEXT NOT NULL DEFAULT '',
    "isLead" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PackageFile_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "PackageVersion" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PackageFile_blobId_fkey" FOREIGN KEY ("blobId") REFERENCES "PackageBlob" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PackageBlob" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "size" BIGINT NOT NULL DEFAULT 0,
    "hashMd5" TEXT NOT NULL,
    "hashSha1" TEXT NOT NULL,
    "hashSha256" TEXT NOT NULL,
    "hashSha512" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "PackageProperty" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "packageId" INTEGER,
    "versionId" INTEGER,
    "fileId" INTEGER,
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL DEFAULT '',
    CONSTRAINT "PackageProperty_packageId_fkey" FOREIGN KEY ("packageId") REFERENCES "Package" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PackageProperty_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "PackageVersion" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PackageProperty_fileId_fkey" FOREIGN KEY ("fileId") REFERENCES "PackageFile" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ActionRunner" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "uuid" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "version" TEXT NOT NULL DEFAULT '',
    "ownerId" INTEGER,
    "repoId" INTEGER,
    "description" TEXT NOT NULL DEFAULT '',
    "tokenHash" TEXT NOT NULL,
    "tokenSalt" TEXT NOT NULL,
    "lastOnline" DATETIME,
    "lastActive" DATETIME,
    "agentLabels" TEXT NOT NULL DEFAULT '[]',
    "ephemeral" BOOLEAN NOT NULL DEFAULT false,
    "isDisabled" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "deletedAt" DATETIME,
    CONSTRAINT "ActionRunner_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ActionRunner_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ActionRunnerToken" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "token" TEXT NOT NULL,
    "ownerId" INTEGER,
    "repoId" INTEGER,
    "isActive" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "deletedAt" DATETIME,
    CONSTRAINT "ActionRunnerToken_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ActionRunnerToken_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ActionRunIndex" (
    "repoId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "maxIndex" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "ActionRunIndex_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ActionRun" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "title" TEXT NOT NULL,
    "repoId" INTEGER NOT NULL,
    "ownerId" INTEGER NOT NULL,
    "workflowId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "triggerUserId" INTEGER,
    "scheduleId" INTEGER NOT NULL DEFAULT 0,
    "ref" TEXT NOT NULL DEFAULT '',
    "commitSha" TEXT NOT NULL DEFAULT '',
    "isForkPullRequest" BOOLEAN NOT NULL DEFAULT false,
    "needApproval" BOOLEAN NOT NULL DEFAULT false,
    "approvedById" INTEGER,
    "event" TEXT NOT NULL DEFAULT '',
    "eventPayload" TEXT NOT NULL DEFAULT '',
    "triggerEvent" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'UNKNOWN',
    "version" INTEGER NOT NULL DEFAULT 0,
    "started" DATETIME,
    "stopped" DATETIME,
    "previousDuration" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ActionRun_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ActionRun_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ActionRun_triggerUserId_fkey" FOREIGN KEY ("triggerUserId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "ActionRun_approvedById_fkey" FOREIGN KEY ("approvedById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ActionRunJob" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "runId" INTEGER NOT NULL,
    "repoId" INTEGER NOT NULL,
    "ownerId" INTEGER NOT NULL,
    "commitSha" TEXT NOT NULL DEFAULT '',
    "isForkPullRequest" BOOLEAN NOT NULL DEFAULT false,
    "name" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "workflowPayload" TEXT NOT NULL DEFAULT '',
    "jobId" TEXT NOT NULL,
    "needs" TEXT NOT NULL DEFAULT '[]',
    "runsOn" TEXT NOT NULL DEFAULT '[]',
    "taskId" INTEGER,
    "status" TEXT NOT NULL DEFAULT 'UNKNOWN',
    "started" DATETIME,
    "stopped" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ActionRunJob_runId_fkey" FOREIGN KEY ("runId") REFERENCES "ActionRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ActionRunJob_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ActionRunJob_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ActionRunJob_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "ActionTask" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ActionTask" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "jobId" INTEGER NOT NULL,
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "runnerId" INTEGER,
    "status" TEXT NOT NULL DEFAULT 'UNKNOWN',
    "started" DATETIME,
    "stopped" DATETIME,
    "repoId" INTEGER NOT NULL,
    "ownerId" INTEGER NOT NULL,
    "commitSha" TEXT NOT NULL DEFAULT '',
    "isForkPullRequest" BOOLEAN NOT NULL DEFAULT false,
    "tokenHash" TEXT,
    "tokenSalt" TEXT NOT NULL DEFAULT '',
    "tokenLastEight" TEXT NOT NULL DEFAULT '',
    "logFilename" TEXT NOT NULL DEFAULT '',
    "logInStorage" BOOLEAN NOT NULL DEFAULT false,
    "logLength" INTEGER NOT NULL DEFAULT 0,
    "logSize" BIGINT NOT NULL DEFAULT 0,
    "logIndexes" BLOB,
    "logExpired" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ActionTask_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "ActionRunJob" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ActionTask_runnerId_fkey" FOREIGN KEY ("runnerId") REFERENCES "ActionRunner" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "ActionTask_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ActionTask_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ActionTaskStep" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "taskId" INTEGER NOT NULL,
    "index" INTEGER NOT NULL,
    "repoId" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'UNKNOWN',
    "logIndex" INTEGER NOT NULL DEFAULT 0,
    "logLength" INTEGER NOT NULL DEFAULT 0,
    "started" DATETIME,
    "stopped" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ActionTaskStep_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "ActionTask" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ActionTaskStep_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CronTask" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "schedule" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "execTimes" INTEGER NOT NULL DEFAULT 0,
    "lastRunAt" DATETIME,
    "nextRunAt" DATETIME,
    "lastError" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Job" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "kind" TEXT NOT NULL,
    "payload" TEXT NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL DEFAULT 5,
    "runAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedBy" TEXT NOT NULL DEFAULT '',
    "lockedAt" DATETIME,
    "lastError" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "SystemNotice" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "type" TEXT NOT NULL DEFAULT 'REPOSITORY',
    "description" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE UNIQUE INDEX "User_lowerName_key" ON "User"("lowerName");

-- CreateIndex
CREATE INDEX "User_type_id_idx" ON "User"("type", "id");

-- CreateIndex
CREATE INDEX "User_type_visibility_id_idx" ON "User"("type", "visibility", "id");

-- CreateIndex
CREATE INDEX "User_type_isActive_id_idx" ON "User"("type", "isActive", "id");

-- CreateIndex
CREATE INDEX "User_loginSource_loginName_idx" ON "User"("loginSource", "loginName");

-- CreateIndex
CREATE INDEX "User_createdAt_idx" ON "User"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "EmailAddress_lowerEmail_key" ON "EmailAddress"("lowerEmail");

-- CreateIndex
CREATE INDEX "EmailAddress_userId_idx" ON "EmailAddress"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "AccessToken_tokenHash_key" ON "AccessToken"("tokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "AccessToken_userId_name_key" ON "AccessToken"("userId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "UserRedirect_lowerName_key" ON "UserRedirect"("lowerName");

-- CreateIndex
CREATE INDEX "UserRedirect_redirectUserId_idx" ON "UserRedirect"("redirectUserId");

-- CreateIndex
CREATE INDEX "Follow_followId_createdAt_idx" ON "Follow"("followId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Follow_userId_followId_key" ON "Follow"("userId", "followId");

-- CreateIndex
CREATE INDEX "Block_blockeeId_idx" ON "Block"("blockeeId");

-- CreateIndex
CREATE UNIQUE INDEX "Block_blockerId_blockeeId_key" ON "Block"("blockerId", "blockeeId");

-- CreateIndex
CREATE INDEX "PublicKey_ownerId_type_idx" ON "PublicKey"("ownerId", "type");

-- CreateIndex
CREATE INDEX "PublicKey_fingerprint_idx" ON "PublicKey"("fingerprint");

-- CreateIndex
CREATE INDEX "OrgUser_userId_idx" ON "OrgUser"("userId");

-- CreateIndex
CREATE INDEX "OrgUser_orgId_isPublic_idx" ON "OrgUser"("orgId", "isPublic");

-- CreateIndex
CREATE UNIQUE INDEX "OrgUser_orgId_userId_key" ON "OrgUser"("orgId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "Team_orgId_lowerName_key" ON "Team"("orgId", "lowerName");

-- CreateIndex
CREATE INDEX "TeamUser_userId_orgId_idx" ON "TeamUser"("userId", "orgId");

-- CreateIndex
CREATE INDEX "TeamUser_orgId_userId_idx" ON "TeamUser"("orgId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "TeamUser_teamId_userId_key" ON "TeamUser"("teamId", "userId");

-- CreateIndex
CREATE INDEX "TeamRepo_repoId_idx" ON "TeamRepo"("repoId");

-- CreateIndex
CREATE INDEX "TeamRepo_orgId_idx" ON "TeamRepo"("orgId");

-- CreateIndex
CREATE UNIQUE INDEX "TeamRepo_teamId_repoId_key" ON "TeamRepo"("teamId", "repoId");

-- CreateIndex
CREATE INDEX "TeamUnit_orgId_idx" ON "TeamUnit"("orgId");

-- CreateIndex
CREATE UNIQUE INDEX "TeamUnit_teamId_type_key" ON "TeamUnit"("teamId", "type");

-- CreateIndex
CREATE INDEX "Repository_lowerName_idx" ON "Repository"("lowerName");

-- CreateIndex
CREATE INDEX "Repository_ownerId_isPrivate_updatedAt_idx" ON "Repository"("ownerId", "isPrivate", "updatedAt");

-- CreateIndex
CREATE INDEX "Repository_isPrivate_isArchived_updatedAt_idx" ON "Repository"("isPrivate", "isArchived", "updatedAt");

-- CreateIndex
CREATE INDEX "Repository_forkId_idx" ON "Repository"("forkId");

-- CreateIndex
CREATE INDEX "Repository_templateId_idx" ON "Repository"("templateId");

-- CreateIndex
CREATE INDEX "Repository_isMirror_idx" ON "Repository"("isMirror");

-- CreateIndex
CREATE INDEX "Repository_updatedAt_idx" ON "Repository"("updatedAt");

-- CreateIndex
CREATE INDEX "Repository_createdAt_idx" ON "Repository"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Repository_ownerId_lowerName_key" ON "Repository"("ownerId", "lowerName");

-- CreateIndex
CREATE UNIQUE INDEX "RepoUnit_repoId_type_key" ON "RepoUnit"("repoId", "type");

-- CreateIndex
CREATE INDEX "Collaboration_userId_idx" ON "Collaboration"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "Collaboration_repoId_userId_key" ON "Collaboration"("repoId", "userId");

-- CreateIndex
CREATE INDEX "DeployKey_repoId_idx" ON "DeployKey"("repoId");

-- CreateIndex
CREATE UNIQUE INDEX "DeployKey_keyId_repoId_key" ON "DeployKey"("keyId", "repoId");

-- CreateIndex
CREATE INDEX "RepoRedirect_redirectRepoId_idx" ON "RepoRedirect"("redirectRepoId");

-- CreateIndex
CREATE UNIQUE INDEX "RepoRedirect_ownerId_lowerName_key" ON "RepoRedirect"("ownerId", "lowerName");

-- CreateIndex
CREATE INDEX "Star_userId_createdAt_idx" ON "Star"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "Star_repoId_createdAt_idx" ON "Star"("repoId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Star_userId_repoId_key" ON "Star"("userId", "repoId");

-- CreateIndex
CREATE INDEX "Watch_repoId_mode_idx" ON "Watch"("repoId", "mode");

-- CreateIndex
CREATE INDEX "Watch_userId_mode_idx" ON "Watch"("userId", "mode");

-- CreateIndex
CREATE UNIQUE INDEX "Watch_userId_repoId_key" ON "Watch"("userId", "repoId");

-- CreateIndex
CREATE UNIQUE INDEX "Topic_name_key" ON "Topic"("name");

-- CreateIndex
CREATE INDEX "Topic_repoCount_idx" ON "Topic"("repoCount");

-- CreateIndex
CREATE INDEX "RepoTopic_topicId_idx" ON "RepoTopic"("topicId");

-- CreateIndex
CREATE UNIQUE INDEX "RepoTopic_repoId_topicId_key" ON "RepoTopic"("repoId", "topicId");

-- CreateIndex
CREATE INDEX "Branch_repoId_isDeleted_commitTime_idx" ON "Branch"("repoId", "isDeleted", "commitTime");

-- CreateIndex
CREATE INDEX "Branch_isDeleted_deletedAt_idx" ON "Branch"("isDeleted", "deletedAt");

-- CreateIndex
CREATE INDEX "Branch_pusherId_idx" ON "Branch"("pusherId");

-- CreateIndex
CREATE INDEX "Branch_deletedById_idx" ON "Branch"("deletedById");

-- CreateIndex
CREATE UNIQUE INDEX "Branch_repoId_name_key" ON "Branch"("repoId", "name");

-- CreateIndex
CREATE INDEX "ProtectedBranch_repoId_priority_idx" ON "ProtectedBranch"("repoId", "priority");

-- CreateIndex
CREATE UNIQUE INDEX "ProtectedBranch_repoId_ruleName_key" ON "ProtectedBranch"("repoId", "ruleName");

-- CreateIndex
CREATE UNIQUE INDEX "Mirror_repoId_key" ON "Mirror"("repoId");

-- CreateIndex
CREATE INDEX "Mirror_nextUpdateAt_idx" ON "Mirror"("nextUpdateAt");

-- CreateIndex
CREATE INDEX "Mirror_updatedAt_idx" ON "Mirror"("updatedAt");

-- CreateIndex
CREATE INDEX "PushMirror_lastUpdateAt_idx" ON "PushMirror"("lastUpdateAt");

-- CreateIndex
CREATE UNIQUE INDEX "PushMirror_repoId_remoteName_key" ON "PushMirror"("repoId", "remoteName");

-- CreateIndex
CREATE INDEX "LanguageStat_language_idx" ON "LanguageStat"("language");

-- CreateIndex
CREATE UNIQUE INDEX "LanguageStat_repoId_language_key" ON "LanguageStat"("repoId", "language");

-- CreateIndex
CREATE UNIQUE INDEX "RepoLicense_repoId_license_key" ON "RepoLicense"("repoId", "license");

-- CreateIndex
CREATE UNIQUE INDEX "RepoTransfer_repoId_key" ON "RepoTransfer"("repoId");

-- CreateIndex
CREATE INDEX "RepoTransfer_doerId_idx" ON "RepoTransfer"("doerId");

-- CreateIndex
CREATE INDEX "RepoTransfer_recipientId_idx" ON "RepoTransfer"("recipientId");

-- CreateIndex
CREATE INDEX "Issue_repoId_isPull_isClosed_id_idx" ON "Issue"("repoId", "isPull", "isClosed", "id");

-- CreateIndex
CREATE INDEX "Issue_repoId_isPull_isClosed_updatedAt_idx" ON "Issue"("repoId", "isPull", "isClosed", "updatedAt");

-- CreateIndex
CREATE INDEX "Issue_repoId_isPull_isClosed_deadlineAt_idx" ON "Issue"("repoId", "isPull", "isClosed", "deadlineAt");

-- CreateIndex
CREATE INDEX "Issue_repoId_pinOrder_idx" ON "Issue"("repoId", "pinOrder");

-- CreateIndex
CREATE INDEX "Issue_posterId_isPull_isClosed_updatedAt_idx" ON "Issue"("posterId", "isPull", "isClosed", "updatedAt");

-- CreateIndex
CREATE INDEX "Issue_milestoneId_isClosed_idx" ON "Issue"("milestoneId", "isClosed");

-- CreateIndex
CREATE INDEX "Issue_isPull_isClosed_updatedAt_idx" ON "Issue"("isPull", "isClosed", "updatedAt");

-- CreateIndex
CREATE INDEX "Issue_originalAuthorId_idx" ON "Issue"("originalAuthorId");

-- CreateIndex
CREATE UNIQUE INDEX "Issue_repoId_index_key" ON "Issue"("repoId", "index");

-- CreateIndex
CREATE INDEX "IssueAssignee_assigneeId_issueId_idx" ON "IssueAssignee"("assigneeId", "issueId");

-- CreateIndex
CREATE UNIQUE INDEX "IssueAssignee_issueId_assigneeId_key" ON "IssueAssignee"("issueId", "assigneeId");

-- CreateIndex
CREATE INDEX "Label_repoId_name_idx" ON "Label"("repoId", "name");

-- CreateIndex
CREATE INDEX "Label_orgId_name_idx" ON "Label"("orgId", "name");

-- CreateIndex
CREATE INDEX "IssueLabel_labelId_issueId_idx" ON "IssueLabel"("labelId", "issueId");

-- CreateIndex
CREATE UNIQUE INDEX "IssueLabel_issueId_labelId_key" ON "IssueLabel"("issueId", "labelId");

-- CreateIndex
CREATE INDEX "Milestone_repoId_isClosed_deadlineAt_idx" ON "Milestone"("repoId", "isClosed", "deadlineAt");

-- CreateIndex
CREATE INDEX "Milestone_repoId_name_idx" ON "Milestone"("repoId", "name");

-- CreateIndex
CREATE INDEX "Project_repoId_isClosed_id_idx" ON "Project"("repoId", "isClosed", "id");

-- CreateIndex
CREATE INDEX "Project_ownerId_isClosed_id_idx" ON "Project"("ownerId", "isClosed", "id");

-- CreateIndex
CREATE INDEX "Project_creatorId_idx" ON "Project"("creatorId");

-- CreateIndex
CREATE INDEX "ProjectColumn_projectId_sorting_idx" ON "ProjectColumn"("projectId", "sorting");

-- CreateIndex
CREATE INDEX "ProjectColumn_creatorId_idx" ON "ProjectColumn"("creatorId");

-- CreateIndex
CREATE INDEX "ProjectIssue_issueId_idx" ON "ProjectIssue"("issueId");

-- CreateIndex
CREATE INDEX "ProjectIssue_projectColumnId_sorting_idx" ON "ProjectIssue"("projectColumnId", "sorting");

-- CreateIndex
CREATE UNIQUE INDEX "ProjectIssue_projectId_issueId_key" ON "ProjectIssue"("projectId", "issueId");

-- CreateIndex
CREATE INDEX "Comment_issueId_type_id_idx" ON "Comment"("issueId", "type", "id");

-- CreateIndex
CREATE INDEX "Comment_issueId_createdAt_idx" ON "Comment"("issueId", "createdAt");

-- CreateIndex
CREATE INDEX "Comment_issueId_updatedAt_idx" ON "Comment"("issueId", "updatedAt");

-- CreateIndex
CREATE INDEX "Comment_reviewId_treePath_line_idx" ON "Comment"("reviewId", "treePath", "line");

-- CreateIndex
CREATE INDEX "Comment_posterId_idx" ON "Comment"("posterId");

-- CreateIndex
CREATE INDEX "Comment_refRepoId_refIssueId_refCommentId_idx" ON "Comment"("refRepoId", "refIssueId", "refCommentId");

-- CreateIndex
CREATE INDEX "Comment_refIssueId_idx" ON "Comment"("refIssueId");

-- CreateIndex
CREATE INDEX "Comment_refCommentId_idx" ON "Comment"("refCommentId");

-- CreateIndex
CREATE INDEX "Comment_dependentIssueId_idx" ON "Comment"("dependentIssueId");

-- CreateIndex
CREATE INDEX "Comment_labelId_idx" ON "Comment"("labelId");

-- CreateIndex
CREATE INDEX "Comment_milestoneId_idx" ON "Comment"("milestoneId");

-- CreateIndex
CREATE INDEX "Comment_oldMilestoneId_idx" ON "Comment"("oldMilestoneId");

-- CreateIndex
CREATE INDEX "Comment_projectId_idx" ON "Comment"("projectId");

-- CreateIndex
CREATE INDEX "Comment_oldProjectId_idx" ON "Comment"("oldProjectId");

-- CreateIndex
CREATE INDEX "Comment_timeId_idx" ON "Comment"("timeId");

-- CreateIndex
CREATE INDEX "Comment_assigneeId_idx" ON "Comment"("assigneeId");

-- CreateIndex
CREATE INDEX "Comment_assigneeTeamId_idx" ON "Comment"("assigneeTeamId");

-- CreateIndex
CREATE INDEX "Comment_resolveDoerId_idx" ON "Comment"("resolveDoerId");

-- CreateIndex
CREATE INDEX "Comment_updatedAt_idx" ON "Comment"("updatedAt");

-- CreateIndex
CREATE INDEX "Reaction_issueId_commentId_id_idx" ON "Reaction"("issueId", "commentId", "id");

-- CreateIndex
CREATE INDEX "Reaction_userId_idx" ON "Reaction"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "Reaction_type_issueId_commentId_userId_key" ON "Reaction"("type", "issueId", "commentId", "userId");

-- CreateIndex
CREATE INDEX "TrackedTime_issueId_deleted_createdAt_idx" ON "TrackedTime"("issueId", "deleted", "createdAt");

-- CreateIndex
CREATE INDEX "TrackedTime_userId_deleted_createdAt_idx" ON "TrackedTime"("userId", "deleted", "createdAt");

-- CreateIndex
CREATE INDEX "Stopwatch_issueId_idx" ON "Stopwatch"("issueId");

-- CreateIndex
CREATE UNIQUE INDEX "Stopwatch_userId_issueId_key" ON "Stopwatch"("userId", "issueId");

-- CreateIndex
CREATE INDEX "IssueDependency_dependencyId_idx" ON "IssueDependency"("dependencyId");

-- CreateIndex
CREATE INDEX "IssueDependency_userId_idx" ON "IssueDependency"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "IssueDependency_issueId_dependencyId_key" ON "IssueDependency"("issueId", "dependencyId");

-- CreateIndex
CREATE UNIQUE INDEX "Attachment_uuid_key" ON "Attachment"("uuid");

-- CreateIndex
CREATE INDEX "Attachment_issueId_commentId_idx" ON "Attachment"("issueId", "commentId");

-- CreateIndex
CREATE INDEX "Attachment_commentId_idx" ON "Attachment"("commentId");

-- CreateIndex
CREATE INDEX "Attachment_releaseId_idx" ON "Attachment"("releaseId");

-- CreateIndex
CREATE INDEX "Attachment_repoId_idx" ON "Attachment"("repoId");

-- CreateIndex
CREATE INDEX "Attachment_uploaderId_idx" ON "Attachment"("uploaderId");

-- CreateIndex
CREATE INDEX "IssueWatch_issueId_isWatching_idx" ON "IssueWatch"("issueId", "isWatching");

-- CreateIndex
CREATE UNIQUE INDEX "IssueWatch_userId_issueId_key" ON "IssueWatch"("userId", "issueId");

-- CreateIndex
CREATE INDEX "IssueUser_userId_isMentioned_idx" ON "IssueUser"("userId", "isMentioned");

-- CreateIndex
CREATE INDEX "IssueUser_issueId_idx" ON "IssueUser"("issueId");

-- CreateIndex
CREATE UNIQUE INDEX "IssueUser_userId_issueId_key" ON "IssueUser"("userId", "issueId");

-- CreateIndex
CREATE UNIQUE INDEX "PullRequest_issueId_key" ON "PullRequest"("issueId");

-- CreateIndex
CREATE INDEX "PullRequest_baseRepoId_baseBranch_hasMerged_idx" ON "PullRequest"("baseRepoId", "baseBranch", "hasMerged");

-- CreateIndex
CREATE INDEX "PullRequest_headRepoId_headBranch_hasMerged_idx" ON "PullRequest"("headRepoId", "headBranch", "hasMerged");

-- CreateIndex
CREATE INDEX "PullRequest_status_idx" ON "PullRequest"("status");

-- CreateIndex
CREATE INDEX "PullRequest_mergerId_idx" ON "PullRequest"("mergerId");

-- CreateIndex
CREATE INDEX "PullRequest_mergedAt_idx" ON "PullRequest"("mergedAt");

-- CreateIndex
CREATE UNIQUE INDEX "PullRequest_baseRepoId_index_key" ON "PullRequest"("baseRepoId", "index");

-- CreateIndex
CREATE INDEX "Review_issueId_type_id_idx" ON "Review"("issueId", "type", "id");

-- CreateIndex
CREATE INDEX "Review_issueId_reviewerId_type_idx" ON "Review"("issueId", "reviewerId", "type");

-- CreateIndex
CREATE INDEX "Review_reviewerId_type_idx" ON "Review"("reviewerId", "type");

-- CreateIndex
CREATE INDEX "Review_reviewerTeamId_idx" ON "Review"("reviewerTeamId");

-- CreateIndex
CREATE INDEX "Release_repoId_isTag_isDraft_createdAt_idx" ON "Release"("repoId", "isTag", "isDraft", "createdAt");

-- CreateIndex
CREATE INDEX "Release_publisherId_idx" ON "Release"("publisherId");

-- CreateIndex
CREATE UNIQUE INDEX "Release_repoId_lowerTagName_key" ON "Release"("repoId", "lowerTagName");

-- CreateIndex
CREATE INDEX "Webhook_repoId_isActive_idx" ON "Webhook"("repoId", "isActive");

-- CreateIndex
CREATE INDEX "Webhook_ownerId_isActive_idx" ON "Webhook"("ownerId", "isActive");

-- CreateIndex
CREATE INDEX "Webhook_isSystemWebhook_isActive_idx" ON "Webhook"("isSystemWebhook", "isActive");

-- CreateIndex
CREATE UNIQUE INDEX "HookTask_uuid_key" ON "HookTask"("uuid");

-- CreateIndex
CREATE INDEX "HookTask_hookId_id_idx" ON "HookTask"("hookId", "id");

-- CreateIndex
CREATE INDEX "HookTask_isDelivered_nextAttemptAt_idx" ON "HookTask"("isDelivered", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "HookTask_isDelivered_deliveredAt_idx" ON "HookTask"("isDelivered", "deliveredAt");

-- CreateIndex
CREATE INDEX "Notification_userId_status_updatedAt_idx" ON "Notification"("userId", "status", "updatedAt");

-- CreateIndex
CREATE INDEX "Notification_userId_repoId_status_updatedAt_idx" ON "Notification"("userId", "repoId", "status", "updatedAt");

-- CreateIndex
CREATE INDEX "Notification_issueId_idx" ON "Notification"("issueId");

-- CreateIndex
CREATE INDEX "Notification_repoId_idx" ON "Notification"("repoId");

-- CreateIndex
CREATE INDEX "Notification_commentId_idx" ON "Notification"("commentId");

-- CreateIndex
CREATE INDEX "Notification_updatedById_idx" ON "Notification"("updatedById");

-- CreateIndex
CREATE UNIQUE INDEX "Notification_userId_issueId_key" ON "Notification"("userId", "issueId");

-- CreateIndex
CREATE INDEX "Action_userId_createdAt_idx" ON "Action"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "Action_userId_isDeleted_createdAt_idx" ON "Action"("userId", "isDeleted", "createdAt");

-- CreateIndex
CREATE INDEX "Action_repoId_createdAt_idx" ON "Action"("repoId", "createdAt");

-- CreateIndex
CREATE INDEX "Action_actUserId_createdAt_idx" ON "Action"("actUserId", "createdAt");

-- CreateIndex
CREATE INDEX "Action_commentId_idx" ON "Action"("commentId");

-- CreateIndex
CREATE INDEX "Package_ownerId_lowerName_idx" ON "Package"("ownerId", "lowerName");

-- CreateIndex
CREATE INDEX "Package_repoId_idx" ON "Package"("repoId");

-- CreateIndex
CREATE UNIQUE INDEX "Package_ownerId_type_lowerName_key" ON "Package"("ownerId", "type", "lowerName");

-- CreateIndex
CREATE INDEX "PackageVersion_packageId_isInternal_createdAt_idx" ON "PackageVersion"("packageId", "isInternal", "createdAt");

-- CreateIndex
CREATE INDEX "PackageVersion_creatorId_idx" ON "PackageVersion"("creatorId");

-- CreateIndex
CREATE INDEX "PackageVersion_createdAt_idx" ON "PackageVersion"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "PackageVersion_packageId_lowerVersion_key" ON "PackageVersion"("packageId", "lowerVersion");

-- CreateIndex
CREATE INDEX "PackageFile_blobId_idx" ON "PackageFile"("blobId");

-- CreateIndex
CREATE INDEX "PackageFile_createdAt_idx" ON "PackageFile"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "PackageFile_versionId_lowerName_compositeKey_key" ON "PackageFile"("versionId", "lowerName", "compositeKey");

-- CreateIndex
CREATE UNIQUE INDEX "PackageBlob_hashMd5_key" ON "PackageBlob"("hashMd5");

-- CreateIndex
CREATE UNIQUE INDEX "PackageBlob_hashSha1_key" ON "PackageBlob"("hashSha1");

-- CreateIndex
CREATE UNIQUE INDEX "PackageBlob_hashSha256_key" ON "PackageBlob"("hashSha256");

-- CreateIndex
CREATE UNIQUE INDEX "PackageBlob_hashSha512_key" ON "PackageBlob"("hashSha512");

-- CreateIndex
CREATE INDEX "PackageBlob_createdAt_idx" ON "PackageBlob"("createdAt");

-- CreateIndex
CREATE INDEX "PackageProperty_packageId_name_idx" ON "PackageProperty"("packageId", "name");

-- CreateIndex
CREATE INDEX "PackageProperty_versionId_name_idx" ON "PackageProperty"("versionId", "name");

-- CreateIndex
CREATE INDEX "PackageProperty_fileId_name_idx" ON "PackageProperty"("fileId", "name");

-- CreateIndex
CREATE INDEX "PackageProperty_name_value_idx" ON "PackageProperty"("name", "value");

-- CreateIndex
CREATE UNIQUE INDEX "ActionRunner_uuid_key" ON "ActionRunner"("uuid");

-- CreateIndex
CREATE UNIQUE INDEX "ActionRunner_tokenHash_key" ON "ActionRunner"("tokenHash");

-- CreateIndex
CREATE INDEX "ActionRunner_ownerId_repoId_deletedAt_idx" ON "ActionRunner"("ownerId", "repoId", "deletedAt");

-- CreateIndex
CREATE INDEX "ActionRunner_repoId_idx" ON "ActionRunner"("repoId");

-- CreateIndex
CREATE INDEX "ActionRunner_isDisabled_deletedAt_idx" ON "ActionRunner"("isDisabled", "deletedAt");

-- CreateIndex
CREATE INDEX "ActionRunner_lastOnline_idx" ON "ActionRunner"("lastOnline");

-- CreateIndex
CREATE UNIQUE INDEX "ActionRunnerToken_token_key" ON "ActionRunnerToken"("token");

-- CreateIndex
CREATE INDEX "ActionRunnerToken_ownerId_repoId_isActive_idx" ON "ActionRunnerToken"("ownerId", "repoId", "isActive");

-- CreateIndex
CREATE INDEX "ActionRunnerToken_repoId_idx" ON "ActionRunnerToken"("repoId");

-- CreateIndex
CREATE INDEX "ActionRun_repoId_status_id_idx" ON "ActionRun"("repoId", "status", "id");

-- CreateIndex
CREATE INDEX "ActionRun_repoId_workflowId_ref_status_idx" ON "ActionRun"("repoId", "workflowId", "ref", "status");

-- CreateIndex
CREATE INDEX "ActionRun_ownerId_idx" ON "ActionRun"("ownerId");

-- CreateIndex
CREATE INDEX "ActionRun_status_id_idx" ON "ActionRun"("status", "id");

-- CreateIndex
CREATE INDEX "ActionRun_event_id_idx" ON "ActionRun"("event", "id");

-- CreateIndex
CREATE INDEX "ActionRun_triggerUserId_id_idx" ON "ActionRun"("triggerUserId", "id");

-- CreateIndex
CREATE INDEX "ActionRun_approvedById_idx" ON "ActionRun"("approvedById");

-- CreateIndex
CREATE INDEX "ActionRun_commitSha_idx" ON "ActionRun"("commitSha");

-- CreateIndex
CREATE INDEX "ActionRun_ref_idx" ON "ActionRun"("ref");

-- CreateIndex
CREATE UNIQUE INDEX "ActionRun_repoId_index_key" ON "ActionRun"("repoId", "index");

-- CreateIndex
CREATE UNIQUE INDEX "ActionRunJob_taskId_key" ON "ActionRunJob"("taskId");

-- CreateIndex
CREATE INDEX "ActionRunJob_runId_id_idx" ON "ActionRunJob"("runId", "id");

-- CreateIndex
CREATE INDEX "ActionRunJob_repoId_status_idx" ON "ActionRunJob"("repoId", "status");

-- CreateIndex
CREATE INDEX "ActionRunJob_ownerId_idx" ON "ActionRunJob"("ownerId");

-- CreateIndex
CREATE INDEX "ActionRunJob_commitSha_idx" ON "ActionRunJob"("commitSha");

-- CreateIndex
CREATE INDEX "ActionRunJob_status_id_idx" ON "ActionRunJob"("status", "id");

-- CreateIndex
CREATE INDEX "ActionRunJob_status_updatedAt_id_idx" ON "ActionRunJob"("status", "updatedAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "ActionTask_tokenHash_key" ON "ActionTask"("tokenHash");

-- CreateIndex
CREATE INDEX "ActionTask_jobId_idx" ON "ActionTask"("jobId");

-- CreateIndex
CREATE INDEX "ActionTask_runnerId_status_idx" ON "ActionTask"("runnerId", "status");

-- CreateIndex
CREATE INDEX "ActionTask_status_updatedAt_idx" ON "ActionTask"("status", "updatedAt");

-- CreateIndex
CREATE INDEX "ActionTask_stopped_logExpired_idx" ON "ActionTask"("stopped", "logExpired");

-- CreateIndex
CREATE INDEX "ActionTask_repoId_idx" ON "ActionTask"("repoId");

-- CreateIndex
CREATE INDEX "ActionTask_ownerId_idx" ON "ActionTask"("ownerId");

-- CreateIndex
CREATE INDEX "ActionTask_commitSha_idx" ON "ActionTask"("commitSha");

-- CreateIndex
CREATE INDEX "ActionTask_tokenLastEight_idx" ON "ActionTask"("tokenLastEight");

-- CreateIndex
CREATE INDEX "ActionTaskStep_repoId_idx" ON "ActionTaskStep"("repoId");

-- CreateIndex
CREATE INDEX "ActionTaskStep_status_idx" ON "ActionTaskStep"("status");

-- CreateIndex
CREATE UNIQUE INDEX "ActionTaskStep_taskId_index_key" ON "ActionTaskStep"("taskId", "index");

-- CreateIndex
CREATE UNIQUE INDEX "CronTask_name_key" ON "CronTask"("name");

-- CreateIndex
CREATE INDEX "CronTask_enabled_nextRunAt_idx" ON "CronTask"("enabled", "nextRunAt");

-- CreateIndex
CREATE INDEX "Job_status_runAt_idx" ON "Job"("status", "runAt");

-- CreateIndex
CREATE INDEX "Job_status_lockedAt_idx" ON "Job"("status", "lockedAt");

-- CreateIndex
CREATE INDEX "Job_kind_status_idx" ON "Job"("kind", "status");

-- CreateIndex
CREATE INDEX "SystemNotice_createdAt_idx" ON "SystemNotice"("createdAt");
