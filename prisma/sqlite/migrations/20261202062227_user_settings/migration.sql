-- AlterTable: appended columns (a redefinition of "User" would drop the AuthGeneration triggers on it).
ALTER TABLE "User" ADD COLUMN "theme" TEXT NOT NULL DEFAULT 'gitea-auto';
ALTER TABLE "User" ADD COLUMN "diffViewStyle" TEXT NOT NULL DEFAULT '';
