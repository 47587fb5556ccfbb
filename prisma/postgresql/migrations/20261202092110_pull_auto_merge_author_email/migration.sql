-- AlterTable
ALTER TABLE "PullAutoMerge" ADD COLUMN     "authorEmail" TEXT NOT NULL DEFAULT '';
