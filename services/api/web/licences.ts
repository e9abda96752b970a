// What each licence of the corpora asks of someone who re-uses the data, in plain words, by SPDX identifier.

/** A licence's conditions as the downloads page states them: one sentence for a file's card, then the detail. */
export interface LicenceTerms {
  short: string;
  detail: string;
}

const CC_BY: LicenceTerms = {
  short: 'Credit the source; otherwise use it as you like, commercially too.',
  detail:
    'You may copy, change and share the data for any purpose, commercially too. Give credit: show the attribution ' +
    'line, link to the licence, and say if you changed the data.',
};

const CC_BY_SA: LicenceTerms = {
  short: 'Credit the source, and share what you build from it under the same licence (share-alike).',
  detail:
    'You may copy, change and share the data for any purpose, commercially too. Give credit: show the attribution ' +
    'line, link to the licence, and say if you changed the data. Share-alike: anything you publish that is built ' +
    'from it (a changed or extended word list, a database that contains it) must be released under the same ' +
    'licence, or a later version of it, so that others may re-use your work the same way.',
};

const GPL: LicenceTerms = {
  short: 'Copyleft: whatever you distribute that contains it must be under the GPL too, with its notice.',
  detail:
    'You may copy, change and redistribute the data, commercially too. Anything you distribute that contains it ' +
    'or is derived from it (a copy of the file, a changed dictionary, a program or app that embeds it) must be ' +
    'released under the GPL as well, with the licence text and the copyright notice, and with the data in a form ' +
    'others can change (these JSON Lines files are such a form). Keep the credit to its authors.',
};

const UNICODE: LicenceTerms = {
  short: 'Permissive: keep the Unicode copyright and permission notice with copies.',
  detail:
    'You may use, change and share the data for any purpose, commercially too. Keep the Unicode copyright and ' +
    'permission notice with copies of the data, or in the documentation that comes with them.',
};

const TERMS: Readonly<Record<string, LicenceTerms>> = {
  'CC0-1.0': {
    short: 'No conditions: it is dedicated to the public domain.',
    detail: 'You may use the data for anything without asking or giving credit; credit is still welcome.',
  },
  'CC-BY-4.0': CC_BY,
  'CC-BY-3.0': CC_BY,
  'CC-BY-SA-4.0': CC_BY_SA,
  'CC-BY-SA-3.0': CC_BY_SA,
  'GPL-2.0-only': GPL,
  'GPL-2.0-or-later': GPL,
  'GPL-3.0-only': GPL,
  'GPL-3.0-or-later': GPL,
  'GFDL-1.3-or-later': {
    short: 'Copyleft: what you publish from it must be under the GFDL too, with the licence text.',
    detail:
      'You may copy, change and redistribute the data. Copies and changed versions must be released under the GFDL, ' +
      'with the licence text included and the authors credited.',
  },
  'Apache-2.0': {
    short: 'Permissive: keep the licence and the notices with any copy you pass on.',
    detail:
      'You may use, change and share the data for any purpose, commercially too. With any copy you pass on, include ' +
      'the Apache License 2.0 text, keep the copyright and attribution notices, and mark what you changed.',
  },
  MIT: {
    short: 'Permissive: keep the copyright and licence notice with copies.',
    detail:
      'You may use, change and share the data for any purpose, commercially too. Keep the copyright notice and the ' +
      'MIT licence text with every copy or substantial part of it.',
  },
  'Unicode-3.0': UNICODE,
  'Unicode-DFS-2016': UNICODE,
};

/**
 * The terms of an SPDX expression. `A OR B` (Wiktionary's CC BY-SA or GFDL) lets the re-user choose; an identifier
 * not known here gets a pointer to the licence itself rather than a guess.
 */
export function licenceTerms(spdx: string): LicenceTerms {
  const known = TERMS[spdx];
  if (known) return known;
  const choices = spdx.split(/\s+OR\s+/).map((id) => TERMS[id.replace(/^\(|\)$/g, '')]);
  if (choices.length > 1 && choices.every((t) => t !== undefined)) {
    return {
      short: `Your choice of licence. ${choices.map((t) => t.short).join(' Or: ')}`,
      detail: `You may follow either licence. ${choices.map((t) => t.detail).join(' Or: ')}`,
    };
  }
  return {
    short: 'Read the licence before re-using the data: it sets the conditions.',
    detail: 'Read the licence, linked here, before re-using the data: it sets the conditions.',
  };
}
