/** A worker thread that runs the ID card engine's steps for the pool. */
import { UnreadableImage } from '../image-codec.js';
import { ModelMissing } from '../model-missing.js';
import { serveMethods } from '../worker-methods.js';
import * as steps from './steps.js';

serveMethods(steps, { UnreadableImage, ModelMissing });
