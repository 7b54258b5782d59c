/** The kept request of a task: URLs exactly as sent, only their secrets replaced. */
import { describe, expect, it } from 'vitest';
import { redactRequest } from '../../src/tasks/redact.js';

const redact = (url: string) => redactRequest(url) as string;

/** What the URL parser reads from a kept URL: no credentials, no secret-looking value but `redacted`. */
function expectNoSecrets(kept: string): void {
  const url = new URL(kept);
  expect(url.username + url.password).toBe('');
  for (const [name, value] of url.searchParams) {
    if (/token|key|secret|signature|sig|auth|password|credential/i.test(name))
      expect(['redacted', '']).toContain(value);
  }
}

describe('kept URLs', () => {
  const cases: [string, string, string][] = [
    ['no path', 'https://example.com', 'https://example.com'],
    ['no path, a query', 'https://example.com?sig=abc', 'https://example.com?sig=redacted'],
    ['uppercase scheme and host', 'HTTPS://Example.COM/A', 'HTTPS://Example.COM/A'],
    ['IDN host', 'https://bücher.example/a?token=x', 'https://bücher.example/a?token=redacted'],
    [
      'percent-encoding as is',
      'https://h/a%2fb%7E?q=%7e+x&k%65y=1',
      'https://h/a%2fb%7E?q=%7e+x&k%65y=redacted',
    ],
    ['repeated secret', 'https://h/?token=a&x=1&token=b', 'https://h/?token=redacted&x=1&token=redacted'],
    ['repeated plain', 'https://h/?x=1&x=2&x=1', 'https://h/?x=1&x=2&x=1'],
    [
      'credentials and a fragment',
      'https://u:p@host/a?x=1&token=abc#f',
      'https://host/a?x=1&token=redacted#f',
    ],
    ['user only', 'http://user@host:8080/', 'http://host:8080/'],
    ['an @ in the password', 'https://u:p@ss@host/', 'https://host/'],
    ['an @ in the path', 'https://host/@user?x=a@b', 'https://host/@user?x=a@b'],
    ['a backslash ends the host', 'https://u:p@host\\a@b', 'https://host\\a@b'],
    ['a query in the fragment', 'https://h/a#x?token=abc', 'https://h/a#x?token=abc'],
    [
      'cloud storage signature',
      'https://b.s3/o?X-Amz-Credential=c&X-Amz-Signature=s&X-Amz-Expires=60',
      'https://b.s3/o?X-Amz-Credential=redacted&X-Amz-Signature=redacted&X-Amz-Expires=60',
    ],
    [
      'names spelt with + and %',
      'https://h/?api+key=1&access%5Ftoken=2&s%20ig=3',
      'https://h/?api+key=redacted&access%5Ftoken=redacted&s%20ig=3',
    ],
    ['a name broken by a tab', 'https://h/?to\tken=1', 'https://h/?to\tken=redacted'],
    ['a name without a value', 'https://h/?token&password=', 'https://h/?token&password=redacted'],
    ['an empty query and fragment', 'https://h/?#', 'https://h/?#'],
    // The parser skips any run of slashes and backslashes after an http(s) scheme.
    ['three slashes', 'http:///user:pass@example.com/x?token=1', 'http:///example.com/x?token=redacted'],
    ['four slashes', 'https:////u:p@h.com/', 'https:////h.com/'],
    ['one slash', 'http:/u:p@h.com/a', 'http:/h.com/a'],
    ['backslashes', 'https:\\\\u:p@h.com\\a', 'https:\\\\h.com\\a'],
    ['no slash', 'http:u:p@h.com', 'http:h.com'],
  ];

  it.each(cases)('%s', (_, sent, kept) => {
    expect(redact(sent)).toBe(kept);
    expectNoSecrets(kept);
  });

  it('leaves text that is not an http(s) URL alone', () => {
    for (const text of ['a song about https://u:p@h/?token=1', 'ftp://u:p@h/?token=1', 'token=1']) {
      expect(redact(text)).toBe(text);
    }
  });

  it('keeps a small data: URL whole and reduces a big one to its type and size', () => {
    const small = 'data:text/plain;base64,aGk=';
    expect(redact(small)).toBe(small);
    const big = `data:image/png;base64,${'A'.repeat(20_000)}`;
    expect(redact(big)).toBe(`data:image/png;base64,… (${big.length} characters)`);
    const shouted = `DATA:image/png;base64,${'A'.repeat(20_000)}`;
    expect(redact(shouted)).toBe(`DATA:image/png;base64,… (${shouted.length} characters)`);
    const noComma = `data:${'x'.repeat(1000)}`;
    expect(redact(noComma)).toBe(`${noComma.slice(0, 128)}… (1005 characters)`);
  });

  it('walks nested members and keeps other values', () => {
    const body = {
      prompt: 'https://example.com',
      content: [{ type: 'image_url', image_url: { url: 'https://u:p@h?key=1' } }],
      n: 2,
      flag: null,
    };
    expect(redactRequest(body)).toEqual({
      prompt: 'https://example.com',
      content: [{ type: 'image_url', image_url: { url: 'https://h?key=redacted' } }],
      n: 2,
      flag: null,
    });
  });
});
