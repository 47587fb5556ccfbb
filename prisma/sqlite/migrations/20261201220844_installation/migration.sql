-- CreateTable
CREATE TABLE "Installation" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "uuid" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- The installation's identity (src/db/installation.ts), random, written once by whoever applies this migration.
INSERT INTO "Installation" ("id", "uuid") VALUES (1, lower(hex(randomblob(16))));
