// The API worker's configuration: OPERATOR_CONTACT is an email address or an https URL, checked at start.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { readApiConfig } from '../../services/api/config.ts';
import { ConfigError } from '../../services/shared/env.ts';

describe('api config', () => {
  it('api config - OPERATOR_CONTACT unset or empty means no contact', () => {
    assert.equal(readApiConfig({}).operatorContact, undefined);
    assert.equal(readApiConfig({ OPERATOR_CONTACT: '  ' }).operatorContact, undefined);
  });

  it('api config - OPERATOR_CONTACT takes an email address (a mailto: link) or an https URL', () => {
    assert.deepEqual(readApiConfig({ OPERATOR_CONTACT: ' ops@example.org ' }).operatorContact, { text: 'ops@example.org', href: 'mailto:ops@example.org' });
    assert.deepEqual(readApiConfig({ OPERATOR_CONTACT: 'https://example.org/contact' }).operatorContact, {
      text: 'https://example.org/contact',
      href: 'https://example.org/contact',
    });
  });

  it('api config - any other OPERATOR_CONTACT stops the worker with a message naming the variable', () => {
    for (const value of ['ops', 'http://example.org/contact', 'javascript:alert(1)', 'mailto:ops@example.org', 'ops@example org']) {
      assert.throws(
        () => readApiConfig({ OPERATOR_CONTACT: value }),
        (err: unknown) => err instanceof ConfigError && /OPERATOR_CONTACT: must be an email address \(ops@example\.org\) or an https:\/\/ URL/.test(err.message),
        value,
      );
    }
  });
});
