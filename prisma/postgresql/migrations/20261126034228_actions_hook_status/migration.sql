-- AlterTable
ALTER TABLE "ActionRun" ADD COLUMN     "hookStatus" "ActionStatus" NOT NULL DEFAULT 'UNKNOWN';

-- AlterTable
ALTER TABLE "ActionRunJob" ADD COLUMN     "hookStatus" "ActionStatus" NOT NULL DEFAULT 'UNKNOWN';
