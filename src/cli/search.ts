/** `switchyard search index|stats`: building and inspecting the local search index. */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Command, type Option } from 'commander';
import { loadConfig } from '../config/index.js';
import type { SearchIndex } from '../engines/searchindex/index.js';
import type { Config } from '../config/index.js';
import type { Progress } from './search-ingest.js';

/** The index; its engine loads with these commands only, so that the others start sooner. */
async function openIndex(settings: SearchSettings, path: string | undefined): Promise<SearchIndex> {
  const file = path ?? settings.index_path;
  mkdirSync(dirname(file), { recursive: true });
  const { SearchIndex } = await import('../engines/searchindex/index.js');
  return new SearchIndex(file);
}

/**
 * Embeds the documents still without a vector when the index is small enough and ranking by
 * meaning is on (search.md); says how many, and why none where it embedded none.
 */
async function embedDocuments(index: SearchIndex, settings: SearchSettings): Promise<string> {
  if (!settings.semantic_reranking) return '';
  const started = Date.now();
  const embedded = await index.embedDocuments(settings.embed_up_to, (n) => {
    if (process.stderr.isTTY) process.stderr.write(`\rembedding: ${n} documents`);
  });
  if (process.stderr.isTTY && embedded > 0) process.stderr.write('\n');
  const seconds = (Date.now() - started) / 1000;
  return embedded > 0
    ? `embedded ${embedded} documents for ranking by meaning in ${seconds.toFixed(1)} s\n`
    : index.stats().documents > settings.embed_up_to
      ? `not embedded: the index holds more than search.embed_up_to (${settings.embed_up_to}) documents\n`
      : '';
}

type SearchSettings = Config['search'];

const BAR = 30;

/** A progress line: a bar on a terminal, redrawn in place; a plain line every few seconds in logs. */
function progressReporter(started: number): (progress: Progress) => void {
  const tty = process.stderr.isTTY;
  let lastLine = 0;
  return (progress) => {
    const share = progress.totalBytes > 0 ? progress.bytes / progress.totalBytes : 1;
    const seconds = (Date.now() - started) / 1000;
    const rate = seconds > 0 ? Math.round(progress.documents / seconds) : 0;
    const status = `${(share * 100).toFixed(0).padStart(3)}% ${progress.documents} documents, ${rate} docs/s${
      progress.rejected > 0 ? `, ${progress.rejected} rejected` : ''
    }`;
    if (tty) {
      const filled = Math.round(share * BAR);
      process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(BAR - filled)}] ${status}`);
    } else if (Date.now() - lastLine >= 5000) {
      lastLine = Date.now();
      process.stderr.write(`${status}\n`);
    }
  };
}

export function searchCommands(configOption: () => Option): Command {
  const search = new Command('search').description('the local search index');

  search
    .command('index')
    .description(
      'add HTML, Markdown, text and JSONL records to the index; a document indexed again is replaced',
    )
    .argument('<paths...>', 'files or directories (walked for .html .htm .md .markdown .txt .jsonl .ndjson)')
    .addOption(configOption())
    .option('--index <file>', 'the index file (default: search.index_path)')
    .option(
      '--base-url <url>',
      'links of files are this URL plus their path below the argument (default: the server keeps and serves them)',
    )
    .action(async (paths: string[], options: { config?: string; index?: string; baseUrl?: string }) => {
      if (options.baseUrl && !/^https?:\/\//.test(options.baseUrl))
        throw new Error(`--base-url: ${options.baseUrl} is not an http(s) URL`);
      const settings = loadConfig({ file: options.config }).search;
      const index = await openIndex(settings, options.index);
      if (index.removedDocuments > 0)
        process.stderr.write(
          `removed ${index.removedDocuments} documents that an earlier version linked by file:// URLs, its own kept files or other than http(s); index their folders again\n`,
        );
      const started = Date.now();
      try {
        const { ingest } = await import('./search-ingest.js');
        const result = await ingest(index, paths, {
          baseUrl: options.baseUrl,
          onProgress: progressReporter(started),
        });
        if (process.stderr.isTTY) process.stderr.write('\n');
        const seconds = (Date.now() - started) / 1000;
        for (const r of result.rejections) process.stderr.write(`${r.where}: ${r.field}: ${r.rule}\n`);
        process.stdout.write(
          `indexed ${result.documents} documents from ${result.files} files in ${seconds.toFixed(1)} s` +
            ` (${Math.round(result.documents / Math.max(seconds, 0.001))} docs/s)` +
            (result.rejected > 0 ? `; ${result.rejected} records rejected` : '') +
            '\n',
        );
        process.stdout.write(await embedDocuments(index, settings));
        // Rejected records are an error for scripts, even though the rest was indexed.
        if (result.rejected > 0) process.exitCode = 1;
      } finally {
        index.close();
      }
    });

  search
    .command('stats')
    .description('what the index holds')
    .addOption(configOption())
    .option('--index <file>', 'the index file (default: search.index_path)')
    .option('--json', 'print JSON')
    .action(async (options: { config?: string; index?: string; json?: boolean }) => {
      const index = await openIndex(loadConfig({ file: options.config }).search, options.index);
      try {
        const stats = index.stats();
        if (options.json) {
          process.stdout.write(`${JSON.stringify(stats)}\n`);
          return;
        }
        const kinds = Object.entries(stats.byKind)
          .map(([kind, n]) => `${kind} ${n}`)
          .join(', ');
        process.stdout.write(
          `documents      ${stats.documents}${kinds ? ` (${kinds})` : ''}\n` +
            `embedded       ${stats.embedded}\n` +
            `sites          ${stats.sites}\n` +
            `past queries   ${stats.pastQueries}\n` +
            `size           ${(stats.bytes / 1048576).toFixed(1)} MiB\n`,
        );
      } finally {
        index.close();
      }
    });

  return search;
}
