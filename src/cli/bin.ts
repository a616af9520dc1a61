#!/usr/bin/env node
import { BUILD_FOLDER, mapStackTraces } from './stack-traces.js';

mapStackTraces(BUILD_FOLDER);
await import('./main.js');
