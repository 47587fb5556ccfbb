-- AlterTable
ALTER TABLE "User" ADD COLUMN     "diffViewStyle" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "theme" TEXT NOT NULL DEFAULT 'gitea-auto';
