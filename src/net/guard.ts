/**
 * The outbound guard: every URL the service fetches or calls goes through here. The address
 * policy is applied to the address actually connected to, on every connection and every redirect
 * hop, so a DNS name that resolves (or re-resolves) to a private address is refused too.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import type { AddressPolicy } from './address-policy.js';

/** Why an outbound URL was refused; callers turn it into an error naming their field. */
export class OutboundRefused extends Error {
  override name = 'OutboundRefused';
}

/** Resolves a host name to all of its addresses (replaceable in tests). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

export interface GuardOptions {
  policy: AddressPolicy;
  timeoutMs: number;
  maxRedirects: number;
  resolve?: Resolver;
}

export interface OutboundRequest {
  method?: 'GET' | 'POST' | 'HEAD';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Refuses a response body larger than this many bytes. */
  maxBytes?: number;
  /** A time limit for this request, below the guard's own. */
  timeoutMs?: number;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** The URL that answered, after redirects. */
  url: string;
}

export class ResponseTooLarge extends OutboundRefused {
  override name = 'ResponseTooLarge';
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export class OutboundGuard {
  private readonly dispatcher: Dispatcher;

  constructor(private readonly options: GuardOptions) {
    const resolve = options.resolve ?? systemResolver;
    const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
      resolve(hostname).then(
        (addresses) => {
          const refused = addresses.find((a) => !options.policy(a.address));
          if (addresses.length === 0 || refused) {
            const reason = refused
              ? 'resolves to a private or reserved address, which is not allowed'
              : 'has no address';
            callback(new OutboundRefused(`${hostname} ${reason}`), '', 0);
          } else if ((lookupOptions as { all?: boolean }).all) {
            (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
          } else {
            const first = addresses[0] as LookupAddress;
            callback(null, first.address, first.family);
          }
        },
        (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
      );
    };
    this.dispatcher = new Agent({
      connect: { lookup, timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  /** Refuses what can be refused before connecting: other schemes, literal addresses, credentials. */
  check(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new OutboundRefused('is not a valid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new OutboundRefused(
        `scheme ${url.protocol.replace(':', '')} is not allowed (http or https only)`,
      );
    }
    if (url.username || url.password) throw new OutboundRefused('must not carry credentials');
    if (url.port === '0') throw new OutboundRefused('port 0 is not a port to connect to');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!isIP(host) && !isDnsName(host)) {
      throw new OutboundRefused(
        `host ${host.slice(0, 80)} is not a DNS name (labels of 1 to 63 characters, 253 in all)`,
      );
    }
    // A literal address skips DNS, so the connect-time check would never see it.
    if (isIP(host) && !this.options.policy(host)) {
      throw new OutboundRefused(`address ${host} is not allowed`);
    }
    return url;
  }

  async request(raw: string, spec: OutboundRequest = {}): Promise<OutboundResponse> {
    let url = this.check(raw);
    let method = spec.method ?? 'GET';
    let body = spec.body;
    // One time limit for the whole request: a chain of slow redirects cannot stretch it.
    const deadline = Date.now() + (spec.timeoutMs ?? this.options.timeoutMs);
    for (let hop = 0; ; hop += 1) {
      const response = await this.send(url, {
        method,
        headers: spec.headers,
        body,
        timeoutMs: Math.max(1, deadline - Date.now()),
        maxBytes: spec.maxBytes ?? Number.POSITIVE_INFINITY,
      });
      const location = response.headers.location;
      if (!REDIRECTS.has(response.status) || typeof location !== 'string')
        return { ...response, url: url.href };
      if (hop >= this.options.maxRedirects) {
        throw new OutboundRefused(`followed ${this.options.maxRedirects} redirects without an answer`);
      }
      url = this.check(new URL(location, url).href);
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && method === 'POST')
      ) {
        method = 'GET';
        body = undefined;
      }
    }
  }

  private async send(url: URL, exchange: Exchange): Promise<Omit<OutboundResponse, 'url'>> {
    try {
      return await exchangeOnce(this.dispatcher, url, exchange);
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause;
      if (error instanceof OutboundRefused) throw error;
      if (cause instanceof OutboundRefused) throw cause;
      throw new OutboundRefused(
        `could not be reached (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}

interface Exchange {
  method: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs: number;
  maxBytes: number;
}

/**
 * One request and its answer, the body gathered whole up to `maxBytes`, through undici's
 * dispatcher: its `request` wraps every answer in a Node stream, and a time limit needs an
 * AbortSignal, which together cost more than the exchange itself for the few bytes most calls get
 * back (a webhook's receiver answers with next to nothing).
 */
function exchangeOnce(
  dispatcher: Dispatcher,
  url: URL,
  { method, headers, body, timeoutMs, maxBytes }: Exchange,
): Promise<Omit<OutboundResponse, 'url'>> {
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let failure: Error | undefined;
    let status = 0;
    let answerHeaders: OutboundResponse['headers'] = {};
    const chunks: Buffer[] = [];
    let size = 0;
    // The first failure is the answer; the exchange is then cut off (once it has a connection).
    const fail = (error: Error) => {
      if (failure) return;
      failure = error;
      clearTimeout(timer);
      reject(error);
      controller?.abort(error);
    };
    const timer = setTimeout(
      () => fail(new OutboundRefused(`did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    try {
      dispatcher.dispatch(
        {
          origin: url.origin,
          path: url.pathname + url.search,
          method: method as Dispatcher.HttpMethod,
          headers,
          body,
        },
        {
          onRequestStart(started) {
            controller = started;
            if (failure) started.abort(failure);
          },
          onResponseStart(_, statusCode, responseHeaders) {
            status = statusCode;
            answerHeaders = responseHeaders;
            const declared = Number(responseHeaders['content-length']);
            if (Number.isFinite(declared) && declared > maxBytes)
              fail(new ResponseTooLarge(`is larger than ${maxBytes} bytes`));
          },
          onResponseData(_, chunk) {
            size += chunk.length;
            if (size > maxBytes) fail(new ResponseTooLarge(`is larger than ${maxBytes} bytes`));
            else chunks.push(chunk);
          },
          onResponseEnd() {
            clearTimeout(timer);
            if (failure) return;
            resolve({
              status,
              headers: answerHeaders,
              body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks),
            });
          },
          onResponseError(_, error) {
            fail(error);
          },
        },
      );
    } catch (error) {
      // A header undici refuses before anything is sent.
      fail(error as Error);
    }
  });
}

/** A name DNS can hold: labels of 1 to 63 characters, 253 in all (RFC 1035, 2.3.4). */
function isDnsName(host: string): boolean {
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  return (
    name.length > 0 && name.length <= 253 && name.split('.').every((l) => l.length > 0 && l.length <= 63)
  );
}
