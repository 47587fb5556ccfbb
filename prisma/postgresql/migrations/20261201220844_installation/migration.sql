-- CreateTable
CREATE TABLE "Installation" (
    "id" INTEGER NOT NULL,
    "uuid" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Installation_pkey" PRIMARY KEY ("id")
);

-- The installation's identity (src/db/installation.ts), random, written once by whoever applies this migration.
INSERT INTO "Installation" ("id", "uuid") VALUES (1, md5(random()::text || clock_timestamp()::text || pg_backend_pid()::text));
