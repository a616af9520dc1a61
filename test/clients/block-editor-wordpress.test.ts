/** The block editor's everyday calls against `quire serve --names wordpress`: no middleware but the root URL's. */
import { describeEditorCalls } from './block-editor-calls.js';

describeEditorCalls('wordpress');
