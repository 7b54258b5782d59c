/**
 * Reading a server-sent event stream: the `data` payload of each event, as text, gathered by the
 * chunk that completed them (one await per chunk rather than one per event: an upstream's events
 * mostly come several to a read).
 */
import { StringDecoder } from 'node:string_decoder';

export async function* sseData(body: AsyncIterable<Buffer | string>): AsyncGenerator<string[]> {
  // Streaming decode: a character whose bytes straddle two chunks is decoded whole. Node's own
  // decoder: TextDecoder's streaming decode (through ICU) cost four times as much.
  const decoder = new StringDecoder('utf8');
  let buffer = '';
  let started = false;
  for await (const chunk of body) {
    let text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    // A byte order mark before the first event is not part of it (as TextDecoder would drop it).
    if (!started && text !== '') {
      started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    buffer += text;
    // CRLF line ends become LF; a CR still waiting for its LF is joined on a later pass.
    if (buffer.includes('\r')) buffer = buffer.replace(/\r\n/g, '\n');
    const events: string[] = [];
    let start = 0;
    let end: number;
    while ((end = buffer.indexOf('\n\n', start)) >= 0) {
      const data = dataOf(buffer.slice(start, end));
      start = end + 2;
      if (data !== '') events.push(data);
    }
    buffer = buffer.slice(start);
    if (events.length > 0) yield events;
  }
}

/** The `data` lines of one event, joined by newlines (a leading space after the colon dropped). */
function dataOf(event: string): string {
  // The usual event: one data line.
  if (event.startsWith('data: ') && !event.includes('\n')) return event.slice(6);
  return event
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).replace(/^ /, ''))
    .join('\n');
}
