/** The video engine's tools are the engines' shared ffmpeg and ffprobe runner. */
export { lastLine, run, ToolFailed as VideoToolError, withTemp } from '../media-tools.js';
