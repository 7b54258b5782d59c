/**
 * The architecture's rules (docs/architecture.md), read from the imports of every file in src/:
 * no import circles; engines import nothing of ours outside src/engines/; an engine never reaches
 * into another engine, and the parts the engines share never reach into one; code outside the
 * engines comes in through an engine's index.ts, but for the deep imports listed here with their
 * reasons; every import points down the rooms of src/ in the order docs/architecture.md states.
 * And the ID card specimen maker, a test tool, stays out of what is built and shipped.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { createRequire } from 'node:module';
import type TypeScript from 'typescript';
import { describe, expect, it } from 'vitest';

// Required, not imported: as an ES module, Node first scans TypeScript's 9 MB for its export
// names, which takes seconds; the CommonJS load takes a fraction of one.
const ts = createRequire(import.meta.url)('typescript') as typeof TypeScript;

const ROOT = resolve(import.meta.dirname, '..');
const ENGINES = 'src/engines/';
/** Folders directly under src/engines/ that the engines share; the loose files there are shared too. */
const SHARED_FOLDERS = new Set(['artwork', 'paint', 'signal']);

/**
 * Imports that pass an engine's index.ts on purpose, each with its reason (the importing file
 * says it too). A target ending in `/` covers the folder.
 */
const DEEP_IMPORTS: readonly { from: string; to: string; reason: string }[] = [
  {
    from: 'src/contract/qrart.ts',
    to: 'src/engines/qr/capacity.ts',
    reason: 'the contract loads with every CLI command; the QR index would bring the whole renderer',
  },
  {
    from: 'src/providers/video/index.ts',
    to: 'src/engines/video/pool.ts',
    reason: "the renderer runs on the pool's worker threads, not on the server's main thread",
  },
  {
    from: 'src/cli/search-ingest.ts',
    to: 'src/engines/searchindex/ingest/',
    reason: "only indexing reads files; the HTML reader's parser stays out of the server",
  },
];

/** A file's path from the repository root, `/`-separated, as the messages name it. */
const named = (path: string) => relative(ROOT, path).split(sep).join('/');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * `export * as name from '…'`, which TypeScript's pre-processing passes over; anchored at a
 * line's start, so a comment that quotes one does not count.
 */
const NAMESPACE_EXPORT = /^\s*export\s+(?:type\s+)?\*\s+as\s+[\w$]+\s+from\s*(['"])([^'"\n]+)\1/gm;

/**
 * Every module specifier a file names: static imports and re-exports, `import('…')` with a
 * literal, `import('…').T`. TypeScript's pre-processing scans rather than parses, which keeps the
 * whole of src/ to a few hundred milliseconds.
 */
function specifiers(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  const scanned = ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName);
  return [...scanned, ...[...text.matchAll(NAMESPACE_EXPORT)].map((match) => match[2]!)];
}

/** Our file a relative specifier names (`.js` read as the `.ts` it is compiled from); undefined for packages. */
function target(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const path = resolve(dirname(from), specifier);
  const typescript = path.replace(/\.js$/, '.ts');
  return existsSync(typescript) ? typescript : path;
}

/** Each file of src/ (repository-relative) → the files of ours it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(join(ROOT, 'src'))) {
    const targets = specifiers(file).flatMap((specifier) => target(file, specifier) ?? []);
    graph.set(named(file), [...new Set(targets.map(named))]);
  }
  return graph;
}

/** The folder directly under src/engines/ that holds `file`; undefined for loose files and code outside. */
function engineFolder(file: string): string | undefined {
  if (!file.startsWith(ENGINES)) return undefined;
  const [folder, ...rest] = file.slice(ENGINES.length).split('/');
  return rest.length > 0 ? folder : undefined;
}

/** The engine that holds `file`: its folder under src/engines/, unless that folder is shared. */
function engineOf(file: string): string | undefined {
  const folder = engineFolder(file);
  return folder && !SHARED_FOLDERS.has(folder) ? folder : undefined;
}

/** One import circle per strongly connected group of files (Tarjan), as the path around it. */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const connect = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || graph.get(file)?.includes(file)) groups.push(group);
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return groups.map((group) => circleThrough(group, graph));
}

/** The shortest way from the group's first file back to itself, through the group (breadth first). */
function circleThrough(group: string[], graph: Map<string, string[]>): string[] {
  const members = new Set(group);
  const start = group[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i]!;
    for (const next of graph.get(file) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [file];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        return [...path, start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return group;
}

const allowed = (from: string, to: string) =>
  DEEP_IMPORTS.some(
    (deep) => deep.from === from && (deep.to.endsWith('/') ? to.startsWith(deep.to) : to === deep.to),
  );

/** Every import in the graph, as `from → to`, that `breaks` says is against a rule. */
function offences(graph: Map<string, string[]>, breaks: (from: string, to: string) => boolean): string[] {
  return [...graph].flatMap(([from, targets]) =>
    targets.filter((to) => breaks(from, to)).map((to) => `${from} → ${to}`),
  );
}

/**
 * The rooms of src/ from the floor up, as docs/architecture.md states them on its `rooms:` line: a
 * room is a folder directly under src/, or a file there (by its name without `.ts`).
 */
function roomOrder(): string[] {
  const line = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8')
    .split('\n')
    .find((text) => text.startsWith('rooms: '));
  return [...(line ?? '').matchAll(/`([\w-]+)`/g)].map((match) => match[1]!);
}

/** The room that holds a file of src/. */
const roomOf = (file: string) => file.slice('src/'.length).split('/')[0]!.replace(/\.ts$/, '');

/** An import from a room into one above it (or into a room the order does not list); files outside src/ have none. */
function runsBackUp(order: string[], from: string, to: string): boolean {
  if (!to.startsWith('src/')) return false;
  const [low, high] = [order.indexOf(roomOf(to)), order.indexOf(roomOf(from))];
  return low < 0 || high < 0 || low > high;
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? [path, ...filesUnder(path)] : [path];
  });
}

describe('architecture', () => {
  const graph = importGraph();

  it('reads the imports of every file in src/', () => {
    expect(graph.size).toBeGreaterThan(100);
    // A re-export and a dynamic import are read as imports too.
    expect(graph.get('src/engines/audio/index.ts')).toContain('src/engines/audio/jobs.ts');
    expect(graph.get('src/cli/main.ts')).toContain('src/cli/serve.ts');
  });

  it('has no import circles in src/', () => {
    const found = circles(graph).map((circle) => circle.join(' → '));
    expect(found, `import circles:\n${found.join('\n')}`).toEqual([]);
  });

  it('keeps every import pointing down the rooms docs/architecture.md lists, floor first', () => {
    const order = roomOrder();
    const rooms = [...new Set([...graph.keys()].map(roomOf))].sort();
    expect([...order].sort(), 'the rooms of src/ against the `rooms:` line of docs/architecture.md').toEqual(
      rooms,
    );
    const found = offences(graph, (from, to) => runsBackUp(order, from, to));
    expect(found, `imports running back up the rooms (${order.join(' → ')}):\n${found.join('\n')}`).toEqual(
      [],
    );
  });

  it('refuses an arrow planted to run back up', () => {
    const order = roomOrder();
    const planted = new Map(graph);
    planted.set('src/store/database.ts', [...(graph.get('src/store/database.ts') ?? []), 'src/http/app.ts']);
    planted.set('src/accounts/credits.ts', [
      ...(graph.get('src/accounts/credits.ts') ?? []),
      'src/admin/index.ts',
    ]);
    expect(offences(planted, (from, to) => runsBackUp(order, from, to)).sort()).toEqual([
      'src/accounts/credits.ts → src/admin/index.ts',
      'src/store/database.ts → src/http/app.ts',
    ]);
  });

  it('keeps the engines from importing anything of ours outside src/engines/', () => {
    const found = offences(graph, (from, to) => from.startsWith(ENGINES) && !to.startsWith(ENGINES));
    expect(found, `engine files importing code outside src/engines/:\n${found.join('\n')}`).toEqual([]);
  });

  it('keeps each engine out of the other engines, and the shared parts out of every engine', () => {
    const found = offences(graph, (from, to) => {
      const into = engineOf(to);
      return from.startsWith(ENGINES) && into !== undefined && engineOf(from) !== into;
    });
    expect(
      found,
      `files under src/engines/ importing another engine's files (shared parts: ${[...SHARED_FOLDERS].join('/, ')}/ and the loose files):\n${found.join('\n')}`,
    ).toEqual([]);
  });

  it('lets code outside src/engines/ into an engine folder only by its index.ts, or a listed deep import', () => {
    const found = offences(graph, (from, to) => {
      const folder = engineFolder(to);
      if (from.startsWith(ENGINES) || folder === undefined) return false;
      return to !== `${ENGINES}${folder}/index.ts` && !allowed(from, to);
    });
    expect(
      found,
      `imports past an engine's index.ts (list a deliberate one in DEEP_IMPORTS):\n${found.join('\n')}`,
    ).toEqual([]);
  });

  it('lists only deep imports that the code still makes', () => {
    const stale = DEEP_IMPORTS.filter(
      (deep) =>
        !(graph.get(deep.from) ?? []).some((to) => allowed(deep.from, to) && engineFolder(to) !== undefined),
    ).map((deep) => `${deep.from} → ${deep.to}`);
    expect(stale, `DEEP_IMPORTS entries no import needs any more:\n${stale.join('\n')}`).toEqual([]);
  });

  // `make test` builds dist/ (scripts/compile.mjs) before vitest runs.
  it('builds nothing of the ID card specimen maker into dist/', () => {
    const dist = join(ROOT, 'dist');
    expect(existsSync(join(dist, 'cli/main.js')), 'dist/ is not built: `make test` builds it first').toBe(
      true,
    );
    const files = filesUnder(dist);
    const misplaced = files.filter((path) =>
      named(path)
        .split('/')
        .some((part) => /specimen/i.test(part) || part === 'test' || part === 'support'),
    );
    const importers = files.filter(
      (path) =>
        path.endsWith('.js') &&
        /(?:from|import\()\s*['"][^'"]*specimen[^'"]*['"]/.test(readFileSync(path, 'utf8')),
    );
    expect([...misplaced, ...importers].map(named), 'the ID card specimen maker in dist/').toEqual([]);
  });

  it('copies nothing of test/ into the image', () => {
    const dockerfiles = ['Dockerfile', 'deploy/Dockerfile'].filter((path) => existsSync(join(ROOT, path)));
    expect(dockerfiles.length).toBeGreaterThan(0);
    const found = dockerfiles.flatMap((dockerfile) =>
      readFileSync(join(ROOT, dockerfile), 'utf8')
        .split('\n')
        .filter((line) => /^\s*(COPY|ADD)\s/i.test(line))
        .filter((line) => {
          const words = line.trim().split(/\s+/).slice(1);
          const fromStage = words.some((word) => word.startsWith('--from='));
          const sources = words.filter((word) => !word.startsWith('--')).slice(0, -1);
          // A whole build context (`.`) brings test/ along too.
          return sources.some(
            (source) => /^(\.\/)?test(\/|$)/.test(source) || (!fromStage && /^\.\/?$/.test(source)),
          );
        })
        .map((line) => `${dockerfile}: ${line.trim()}`),
    );
    expect(found, 'Dockerfile copies naming test/').toEqual([]);
  });
});
