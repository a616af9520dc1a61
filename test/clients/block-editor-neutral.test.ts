/** The block editor's everyday calls against `quire serve` in the neutral names, through `quire/editor`'s middleware. */
import { describeEditorCalls } from './block-editor-calls.js';

describeEditorCalls('neutral');
