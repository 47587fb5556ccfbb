#!/bin/sh
# Stand-in for Prisma's native schema engine, which cannot be downloaded here (set as
# PRISMA_SCHEMA_ENGINE_BINARY by prisma.config.ts). `prisma generate/validate/format` never run it;
# `prisma migrate …` and `prisma db …` must fail loudly instead of silently doing nothing.
echo "The native Prisma schema engine is not available: use npm run migrate:* (WebAssembly engine) instead." >&2
exit 1
