-- CreateTable
CREATE TABLE "OAuth2Application" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "clientSecretHash" TEXT NOT NULL,
    "redirectUris" TEXT NOT NULL DEFAULT '[]',
    "confidentialClient" BOOLEAN NOT NULL DEFAULT true,
    "skipSecondaryAuthorization" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OAuth2Application_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OAuth2Grant" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "applicationId" INTEGER NOT NULL,
    "scope" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OAuth2Grant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OAuth2AuthorizationCode" (
    "id" SERIAL NOT NULL,
    "grantId" INTEGER NOT NULL,
    "codeHash" TEXT NOT NULL,
    "redirectUri" TEXT NOT NULL,
    "scope" TEXT NOT NULL DEFAULT '',
    "nonce" TEXT NOT NULL DEFAULT '',
    "codeChallenge" TEXT NOT NULL DEFAULT '',
    "codeChallengeMethod" TEXT NOT NULL DEFAULT '',
    "validUntil" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OAuth2AuthorizationCode_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OAuth2RefreshSession" (
    "id" SERIAL NOT NULL,
    "grantId" INTEGER NOT NULL,
    "counter" INTEGER NOT NULL DEFAULT 1,
    "scope" TEXT NOT NULL DEFAULT '',
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OAuth2RefreshSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OAuth2SigningKey" (
    "id" INTEGER NOT NULL,
    "kid" TEXT NOT NULL,
    "algorithm" TEXT NOT NULL,
    "privateKey" TEXT NOT NULL,
    "publicJwk" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OAuth2SigningKey_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "OAuth2Application_clientId_key" ON "OAuth2Application"("clientId");

-- CreateIndex
CREATE INDEX "OAuth2Application_userId_id_idx" ON "OAuth2Application"("userId", "id");

-- CreateIndex
CREATE INDEX "OAuth2Grant_applicationId_idx" ON "OAuth2Grant"("applicationId");

-- CreateIndex
CREATE UNIQUE INDEX "OAuth2Grant_userId_applicationId_key" ON "OAuth2Grant"("userId", "applicationId");

-- CreateIndex
CREATE UNIQUE INDEX "OAuth2AuthorizationCode_codeHash_key" ON "OAuth2AuthorizationCode"("codeHash");

-- CreateIndex
CREATE INDEX "OAuth2AuthorizationCode_grantId_idx" ON "OAuth2AuthorizationCode"("grantId");

-- CreateIndex
CREATE INDEX "OAuth2AuthorizationCode_validUntil_idx" ON "OAuth2AuthorizationCode"("validUntil");

-- CreateIndex
CREATE INDEX "OAuth2RefreshSession_grantId_idx" ON "OAuth2RefreshSession"("grantId");

-- CreateIndex
CREATE INDEX "OAuth2RefreshSession_expiresAt_idx" ON "OAuth2RefreshSession"("expiresAt");

-- AddForeignKey
ALTER TABLE "OAuth2Application" ADD CONSTRAINT "OAuth2Application_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OAuth2Grant" ADD CONSTRAINT "OAuth2Grant_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OAuth2Grant" ADD CONSTRAINT "OAuth2Grant_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "OAuth2Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OAuth2AuthorizationCode" ADD CONSTRAINT "OAuth2AuthorizationCode_grantId_fkey" FOREIGN KEY ("grantId") REFERENCES "OAuth2Grant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OAuth2RefreshSession" ADD CONSTRAINT "OAuth2RefreshSession_grantId_fkey" FOREIGN KEY ("grantId") REFERENCES "OAuth2Grant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Token cache invalidation (src/db/authInvalidation.ts): revoking a grant revokes its OAuth2 access tokens.
CREATE TRIGGER "AuthGeneration_oauth2_grant_delete" AFTER DELETE ON "OAuth2Grant"
  FOR EACH STATEMENT EXECUTE FUNCTION "forgegraph_auth_changed"();
