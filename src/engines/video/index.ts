/** The local video engine: procedural scenes, camera moves and restyled references, as MP4. */
export { renderVideo } from './render.js';
export { decodeFrames, type DecodedVideo } from './decode.js';
export { VideoToolError } from './tools.js';
export type { CameraMove, CameraPreset, Motion, ReferenceVideo, RenderedVideo, VideoSpec } from './types.js';
export { VideoPool } from './pool.js';
