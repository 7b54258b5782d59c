/**
 * Reading a server-sent event stream: the `data` payload of each event, as text, gathered by the
 * chunk that completed them (one await per chunk rather than one per event: an upstream's events
 * mostly come several to a read).
 */
export async function* sseData(body: AsyncIterable<Buffer | string>): AsyncGenerator<string[]> {
  // Streaming decode: a character whose bytes straddle two chunks is decoded whole.
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
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
