import type { KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, jwtVerify, SignJWT, type JWK } from 'jose';
import { NotAuthenticated } from '../errors.ts';

export const ACCESS_TOKEN_TTL_SECONDS = 6 * 60 * 60;
const TOKEN_TYPE = 'at+jwt'; // RFC 9068: an access token cannot be confused with another JWT
const AUDIENCE = 'berth-api';

export type AccessClaims = { userId: number; teamId: number; sessionId: string };
/** What a verified token says: its claims and when it expires (ms since the epoch). */
export type VerifiedAccessClaims = AccessClaims & { expiresAt: number };

export type AccessTokenIssuer = {
  sign(claims: AccessClaims): Promise<string>;
  verify(token: string): Promise<VerifiedAccessClaims>;
};

/** Signs with the current Ed25519 key; verifies against it and any retired keys still accepted. */
export async function createAccessTokenIssuer(options: { issuer: string; privateKey: KeyObject; publicKeys: KeyObject[] }): Promise<AccessTokenIssuer> {
  const keysById = new Map<string, KeyObject>();
  for (const publicKey of options.publicKeys) {
    keysById.set(await keyId(await exportJWK(publicKey)), publicKey);
  }
  const signingKeyId = [...keysById.keys()][0]!;

  return {
    async sign(claims) {
      return new SignJWT({ sid: claims.sessionId, tid: claims.teamId })
        .setProtectedHeader({ alg: 'EdDSA', typ: TOKEN_TYPE, kid: signingKeyId })
        .setSubject(String(claims.userId))
        .setIssuer(options.issuer)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
        .sign(options.privateKey);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(
          token,
          (header) => {
            const key = header.kid === undefined ? undefined : keysById.get(header.kid);
            if (!key) throw new NotAuthenticated('Unknown signing key');
            return key;
          },
          { algorithms: ['EdDSA'], issuer: options.issuer, audience: AUDIENCE, typ: TOKEN_TYPE },
        );
        const userId = Number(payload.sub);
        const { sid, tid } = payload as { sid?: unknown; tid?: unknown };
        if (!Number.isSafeInteger(userId) || typeof sid !== 'string' || typeof tid !== 'number') {
          throw new NotAuthenticated('Malformed access token');
        }
        return { userId, teamId: tid, sessionId: sid, expiresAt: (payload.exp ?? 0) * 1000 };
      } catch {
        throw new NotAuthenticated('Invalid or expired access token');
      }
    },
  };
}

async function keyId(jwk: JWK): Promise<string> {
  return calculateJwkThumbprint(jwk, 'sha256');
}
