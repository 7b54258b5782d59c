/** A worker thread that renders artistic QR codes for the pool. */
import { serveMethods } from '../worker-methods.js';
import { TooDense } from './layout.js';
import { renderQrArt, Unscannable } from './render.js';

serveMethods({ render: renderQrArt }, { TooDense, Unscannable });
