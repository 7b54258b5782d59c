/**
 * A model an engine needs whose npm package is not installed, or is installed without its model
 * files: the operator's to install, answered as unavailable, never with a made-up result.
 */
export class ModelMissing extends Error {}

/** The error naming the package that `purpose` needs, with the first line of why it failed to load. */
export function missingModel(packageName: string, purpose: string, cause?: unknown): ModelMissing {
  const why = cause instanceof Error ? `: ${cause.message.split('\n')[0]}` : '';
  return new ModelMissing(
    `${purpose} needs the npm package ${packageName}, which is missing or incomplete${why}`,
  );
}
