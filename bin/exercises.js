#!/usr/bin/env node
// Tiny launcher: everything lives in the compiled CLI so start-up loads one module graph.
import { main } from '../dist/cli.js';

main(process.argv);
