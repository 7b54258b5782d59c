/**
 * Credentials blanked out of what an upstream says: the key and its parts, the credentials a
 * request's headers carried (a signed token, a Basic pair, a key header), and anything shaped like
 * a JWT or a schemed token, which a token signed per call can only be known by.
 */
import { describe, expect, it } from 'vitest';
import { signJwt } from '../../src/providers/video/channels/kling-auth.js';
import { credentialsOf, keySecrets, withoutSecrets } from '../../src/providers/secrets.js';

describe('secrets', () => {
  it("takes a request's credentials from its credential headers, after the scheme", () => {
    const basic = Buffer.from('user:pass-3c1d').toString('base64');
    expect(
      credentialsOf({
        'content-type': 'application/json',
        Authorization: `Basic ${basic}`,
        'x-api-key': 'xk-91ab',
        'api-key': 'az-77',
      }),
    ).toEqual([basic, 'xk-91ab', 'az-77']);
  });

  it('blanks a derived token, a schemed one and a JWT it was never told of, keeping the words around them', () => {
    const jwt = signJwt({ iss: 'AK' }, 'SK');
    const basic = Buffer.from('user:pass').toString('base64');
    const said = `bad token ${jwt}; header was Authorization: Basic ${basic}, then bearer tok_5f2e.x/y+z==`;
    expect(withoutSecrets(said, [])).toBe(
      'bad token ***; header was Authorization: Basic ***, then bearer ***',
    );
  });

  it('blanks a key of the form ACCESS:SECRET whole and each part alone', () => {
    expect(keySecrets('ak:sk-1')).toEqual(['ak:sk-1', 'ak', 'sk-1']);
    expect(keySecrets('sk-plain')).toEqual(['sk-plain']);
    expect(keySecrets(undefined)).toEqual([]);
    expect(withoutSecrets('key ak-x:sk-y, issuer ak-x', keySecrets('ak-x:sk-y'))).toBe('key ***, issuer ***');
  });
});
