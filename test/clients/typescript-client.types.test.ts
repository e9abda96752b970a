// The TypeScript client's types where the served OpenAPI description falls short (checked by tsc --noEmit,
// which npm test runs first): the registration reply is typed (reg.apiKey is a string, where the description's
// 201 is an object without fields), the body takes keyName, and registration's 429 and 500 codes are named.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { components, DictionaryClient, ErrorCode, operations, Registration, RegistrationErrorCode, RegistrationRequest, SearchWordsQuery } from '../../clients/typescript/src/index.ts';

/** true when A and B are the same type (not merely assignable). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

type Reply = Awaited<ReturnType<DictionaryClient['register']>>['body'];
type Served201 = operations['createDeveloper']['responses'][201]['content']['application/json'];
type ServedBody = operations['createDeveloper']['requestBody']['content']['application/json'];
type ServedRegistration429 = operations['createDeveloper']['responses'][429];

const checks = {
  // What register() resolves with: reg.apiKey is a string.
  apiKeyIsString: true satisfies Equal<Reply['apiKey'], string>,
  replyIsRegistration: true satisfies Equal<Reply, Registration>,
  developerPlan: true satisfies Equal<Reply['developer']['plan'], 'free' | 'team' | 'institution'>,
  // The description's own 201 type has no fields: the reason Registration exists.
  served201HasNoFields: true satisfies Equal<Served201, Record<string, never>>,
  // keyName: read by the route, absent from the description.
  servedBodyLacksKeyName: true satisfies Equal<'keyName' extends keyof ServedBody ? true : false, false>,
  requestTakesKeyName: true satisfies Equal<RegistrationRequest['keyName'], string | undefined>,
  // The description documents registration's 429 as the shared quota response; the route answers rate_limited.
  served429IsQuotaResponse: true satisfies Equal<ServedRegistration429, components['responses']['QuotaExceeded']>,
  registrationCodes: true satisfies Equal<RegistrationErrorCode, 'invalid_parameter' | 'rate_limited' | 'internal_error'>,
  // The description lists no 500 for registration.
  served500Absent: true satisfies Equal<500 extends keyof operations['createDeveloper']['responses'] ? true : false, false>,
  codesAreTheSpecs: true satisfies Equal<Extract<ErrorCode, 'quota_exceeded' | 'rate_limited'>, 'quota_exceeded' | 'rate_limited'>,
  pageIsANumber: true satisfies Equal<SearchWordsQuery['page'], number | undefined>,
};

describe('typescript client types', () => {
  test('typescript client types - the registration reply, keyName and the 429 and 500 codes are typed as the routes answer', () => {
    // The checks are tsc's; here they are only listed.
    assert.ok(Object.values(checks).every((v) => v === true));
  });
});
