/**
 * Probes of the local engines: what each needs from the machine, checked the way it will use it,
 * so that an engine whose tool went missing (ffmpeg removed by an upgrade, the ID card models'
 * package gone, a model file moved) is disabled with the reason instead of failing each request deep
 * inside a task. Nothing is rendered: each check is a version or list query, or a file access.
 */
import { execFile } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { missingModelPackages, MODEL_PACKAGES } from '../providers/identity/model-packages.js';

export type LocalCheck = { ok: true; detail: string } | { ok: false; detail: string };

const TOOL_TIMEOUT_MS = 5000;
/**
 * A tool's answer serves every engine probed within this time: four families need ffmpeg, and
 * each spawn forks the whole server process.
 */
const SHARED_MS = 1000;
const recent = new Map<string, { at: number; answer: Promise<string> }>();

function output(tool: string, args: string[]): Promise<string> {
  const key = [tool, ...args].join(' ');
  const now = Date.now();
  const kept = recent.get(key);
  if (kept && now - kept.at < SHARED_MS) return kept.answer;
  const answer = new Promise<string>((resolve, reject) => {
    execFile(tool, args, { timeout: TOOL_TIMEOUT_MS }, (error, stdout, stderr) => {
      if (error) reject(error);
      else resolve(`${stdout}${stderr}`);
    });
  });
  recent.set(key, { at: now, answer });
  return answer;
}

async function tools(names: string[]): Promise<LocalCheck> {
  for (const tool of names) {
    try {
      await output(tool, ['-version']);
    } catch (error) {
      return {
        ok: false,
        detail: `${tool} does not run: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      };
    }
  }
  return { ok: true, detail: `${names.join(' and ')} run` };
}

/** The ID card engine's models, by the npm packages that ship them. */
function cardModels(): Promise<LocalCheck> {
  const missing = missingModelPackages();
  return Promise.resolve(
    missing.length === 0
      ? { ok: true, detail: `the ID card models are installed (${MODEL_PACKAGES.join(', ')})` }
      : { ok: false, detail: `the ID card models' npm packages are missing: ${missing.join(', ')}` },
  );
}

async function readable(path: string | undefined, what: string): Promise<LocalCheck> {
  if (path === undefined) return { ok: false, detail: `no ${what} is configured` };
  try {
    await access(path, constants.R_OK);
    return { ok: true, detail: `${what} readable` };
  } catch (error) {
    return { ok: false, detail: `${what} ${path} cannot be read (${(error as NodeJS.ErrnoException).code})` };
  }
}

/** What a local channel needs, by its type and family. */
export function checkLocalEngine(
  entry: { type: string; capability: string },
  modelPath?: string,
): Promise<LocalCheck> {
  if (entry.type === 'local-llm') return readable(modelPath, 'the model file');
  switch (entry.capability) {
    case 'clip':
    case 'dance':
    case 'maxi':
    case 'tune':
      return tools(['ffmpeg', 'ffprobe']);
    case 'identity':
      return cardModels();
    default:
      // The QR renderer and the search index run inside this process: serving is the check.
      return Promise.resolve({ ok: true, detail: 'runs in this process' });
  }
}
