/** A worker thread that runs the ID card engine's steps for the pool. */
import { serveMethods } from '../worker-methods.js';
import * as steps from './steps.js';

serveMethods(steps);
