/**
 * What a video channel to an upstream is asked and answers. A job is the validated body of one of
 * our video operations (our field names, defaults applied); the answer is the finished video as
 * the upstream describes it, for the caller to turn into its result item.
 *
 * Failures fall in two kinds, on purpose. Until the upstream has accepted a task, a refusal is an
 * `UpstreamFailure` (status and all), so that the router can retry or try the next channel.
 * Once a task exists upstream, every failure is a `ServiceError` (`upstream_error`, or `timeout`
 * when the channel's time limit passes): the router passes those on as they are, so a video is
 * never generated, and paid for, twice.
 */
export type VideoFamily = 'clip' | 'dance' | 'maxi';

export interface VideoJob {
  family: VideoFamily;
  /** The validated request body of our API, in our field names. */
  body: Record<string, unknown>;
  signal: AbortSignal;
  /** Told when the upstream reports its task queued or running (once per change). */
  onProgress?: (state: 'queued' | 'running') => void;
}

export interface UpstreamVideo {
  videoUrl: string;
  coverUrl?: string;
  lastFrameUrl?: string;
  /** Seconds. */
  duration?: number;
  width?: number;
  height?: number;
  fps?: number;
  seed?: number;
  /** The dance item's resolution and ratio (`720p`, `16:9`) as the upstream reports them. */
  resolution?: string;
  ratio?: string;
  /** Tokens the upstream charged, for the dance item's `usage`. */
  usage?: { completion_tokens: number; total_tokens: number };
  upstreamTaskId: string;
  /** The upstream's own id of the video, where it has one: what a later extension names. */
  upstreamVideoId?: string;
}

export interface VideoBackend {
  /**
   * Submits the job, polls until the upstream task is terminal and returns its video. Throws as
   * the header of this file says; a job whose signal aborts ends at once.
   */
  generate(job: VideoJob): Promise<UpstreamVideo>;
}

/** The configuration a video channel is built from. */
export interface VideoChannel {
  name: string;
  base_url?: string;
  api_key?: string;
  /** Our model name to the upstream's: `{requested: upstream}`. */
  model_map: Record<string, string>;
  /** The longest a whole generation may take, submission and polling together. */
  timeout_seconds: number;
}

export interface VideoChannelOptions {
  /** The first wait between polls, in milliseconds (default 2000); later waits grow to a cap. */
  pollMs?: number;
}
