-- AlterTable
ALTER TABLE "ActionRunner" ADD COLUMN     "hasCancelling" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "ActionRunnerToken" ADD COLUMN     "tokenSeed" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "ActionTaskOutput" (
    "id" SERIAL NOT NULL,
    "taskId" INTEGER NOT NULL,
    "outputKey" TEXT NOT NULL,
    "outputValue" TEXT NOT NULL,

    CONSTRAINT "ActionTaskOutput_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ActionTasksVersion" (
    "ownerId" INTEGER NOT NULL DEFAULT 0,
    "repoId" INTEGER NOT NULL DEFAULT 0,
    "version" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ActionTasksVersion_pkey" PRIMARY KEY ("ownerId","repoId")
);

-- CreateIndex
CREATE UNIQUE INDEX "ActionTaskOutput_taskId_outputKey_key" ON "ActionTaskOutput"("taskId", "outputKey");

-- AddForeignKey
ALTER TABLE "ActionTaskOutput" ADD CONSTRAINT "ActionTaskOutput_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "ActionTask"("id") ON DELETE CASCADE ON UPDATE CASCADE;
