#!/usr/bin/env node
// The `forgegraph` command: runs the TypeScript CLI through tsx (there is no build step).
import { register } from 'tsx/esm/api';

register();
await import('../main.ts');
