#!/usr/bin/env node
// Before anything of quire loads, so stack traces name the src/ files and lines of the bundled modules.
process.setSourceMapsEnabled(true);
await import('./main.js');
