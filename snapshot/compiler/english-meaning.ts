// Whether an English sentence holds one of an entry's meanings: the test that an aligned sentence (NTREX-128) or a
// treebank token's gloss speaks of the entry, with simple English inflection (go/went/going, child/children).

/**
 * Words that carry no meaning of their own in a gloss ("to go", "a kind of tree", "be very small"). Directional
 * particles are not among them: "go down" is not "go", and a line that says "went" does not hold it.
 */
const FUNCTION_WORDS = new Set(
  ('a an the to of in on at for with by from as and or but nor not no be is are was were been being am have has had do does did this that these those it ' +
    'its one one\'s ones someone something somebody oneself itself himself herself themselves thing things kind sort type very ' +
    'so too also make made become get got used use etc e.g i.e he she they him her them his their my your our we you i me us').split(' '),
);
/**
 * Words that are no meaning even when a sense is only that word: articles, prepositions, conjunctions. Nearly every
 * English line holds one, so a sense "of" or "if" tells no reading apart. Any other word alone is a meaning ("they"
 * is fa's, "be" the copula's, "thing" ife's).
 */
const NEVER_A_MEANING = new Set('a an the to of in on at for with by from into onto up down out off over under about as and or but nor not no if so than then'.split(' '));
/** A sense longer than this many meaning words is a description, not a meaning to look for in a sentence. */
export const MAX_MEANING_WORDS = 3;

/** Irregular English forms → the base form a gloss uses. */
const IRREGULAR: Readonly<Record<string, string>> = {
  went: 'go', gone: 'go', goes: 'go', ate: 'eat', eaten: 'eat', drank: 'drink', drunk: 'drink', came: 'come', saw: 'see',
  seen: 'see', gave: 'give', given: 'give', took: 'take', taken: 'take', said: 'say', says: 'say', told: 'tell',
  thought: 'think', bought: 'buy', sold: 'sell', brought: 'bring', found: 'find', knew: 'know', known: 'know', ran: 'run',
  sat: 'sit', stood: 'stand', spoke: 'speak', spoken: 'speak', wrote: 'write', written: 'write', slept: 'sleep', left: 'leave',
  felt: 'feel', kept: 'keep', met: 'meet', paid: 'pay', held: 'hold', heard: 'hear', began: 'begin', begun: 'begin',
  became: 'become', built: 'build', fell: 'fall', fallen: 'fall', led: 'lead', lost: 'lose', meant: 'mean', sent: 'send',
  shot: 'shoot', spent: 'spend', taught: 'teach', understood: 'understand', won: 'win', wore: 'wear', worn: 'wear',
  chose: 'choose', chosen: 'choose', drove: 'drive', driven: 'drive', flew: 'fly', flown: 'fly', forgot: 'forget',
  forgotten: 'forget', grew: 'grow', grown: 'grow', hid: 'hide', hidden: 'hide', laid: 'lay', lain: 'lie', rose: 'rise',
  risen: 'rise', rode: 'ride', ridden: 'ride', rang: 'ring', rung: 'ring', sang: 'sing', sung: 'sing', sank: 'sink',
  shook: 'shake', shaken: 'shake', stole: 'steal', stolen: 'steal', struck: 'strike', swam: 'swim', threw: 'throw',
  thrown: 'throw', woke: 'wake', fought: 'fight', caught: 'catch', sought: 'seek', dug: 'dig', fed: 'feed', fled: 'flee',
  bore: 'bear', born: 'bear', borne: 'bear', beat: 'beat', beaten: 'beat', bit: 'bite', bitten: 'bite', blew: 'blow',
  blown: 'blow', broke: 'break', broken: 'break', bred: 'breed', burnt: 'burn', dealt: 'deal', drew: 'draw', drawn: 'draw',
  dreamt: 'dream', forgave: 'forgive', forgiven: 'forgive', froze: 'freeze', frozen: 'freeze', hung: 'hang', knelt: 'kneel',
  leapt: 'leap', lent: 'lend', lit: 'light', shone: 'shine', shut: 'shut', slid: 'slide', spat: 'spit', split: 'split',
  spread: 'spread', sprang: 'spring', stuck: 'stick', stung: 'sting', strove: 'strive', swore: 'swear', sworn: 'swear',
  swept: 'sweep', swung: 'swing', tore: 'tear', torn: 'tear', wept: 'weep', wound: 'wind', overcame: 'overcome',
  children: 'child', women: 'woman', men: 'man', people: 'person', feet: 'foot', teeth: 'tooth', mice: 'mouse',
  geese: 'goose', oxen: 'ox', lives: 'life', wives: 'wife', knives: 'knife', leaves: 'leaf', wolves: 'wolf', halves: 'half',
  thieves: 'thief', loaves: 'loaf', selves: 'self', better: 'good', best: 'good', worse: 'bad', worst: 'bad',
  elder: 'old', eldest: 'old', brethren: 'brother', dice: 'die', data: 'datum', media: 'medium',
  is: 'be', are: 'be', was: 'be', were: 'be', am: 'be', been: 'be', being: 'be', has: 'have', had: 'have', did: 'do', done: 'do',
};

/**
 * The base forms an English word may be an inflection of (itself included): plural and third person -s/-es/-ies,
 * past -ed/-ied (with a dropped e or a doubled consonant), -ing, comparatives -er/-est, possessive 's.
 */
export function baseForms(word: string): string[] {
  const w = word.toLowerCase().replace(/['’]s$/, '').replace(/['’]$/, '');
  const out = new Set<string>([w]);
  const irregular = IRREGULAR[w];
  if (irregular) out.add(irregular);
  // A two-letter past stem is a word only with its e (used → use, not "us"; tied → tie); going is go.
  const add = (stem: string, shortest = 2): void => {
    if (stem.length < 2) return;
    if (stem.length >= shortest) out.add(stem);
    out.add(`${stem}e`);
    // A doubled final consonant (running → run, bigger → big).
    if (/([b-df-hj-np-tv-z])\1$/.test(stem)) out.add(stem.slice(0, -1));
  };
  if (w.endsWith('ies') && w.length > 4) out.add(`${w.slice(0, -3)}y`);
  if (w.endsWith('es')) add(w.slice(0, -2));
  if (w.endsWith('s') && !w.endsWith('ss')) out.add(w.slice(0, -1));
  if (w.endsWith('ied') && w.length > 4) out.add(`${w.slice(0, -3)}y`);
  if (w.endsWith('ed')) add(w.slice(0, -2), 3);
  if (w.endsWith('ing') && w.length > 4) add(w.slice(0, -3));
  if (w.endsWith('ier') || w.endsWith('iest')) out.add(`${w.replace(/iest$|ier$/, '')}y`);
  if (w.endsWith('er') && w.length > 4) add(w.slice(0, -2));
  if (w.endsWith('est') && w.length > 5) add(w.slice(0, -3));
  return [...out];
}

const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;
/** A word in capitals is an acronym, not the word its letters spell: US is no "us", AI no "ai". */
const ACRONYM = /^\p{Lu}{2,}$/u;

/**
 * The meaning word of a question: a sense written as one ("who?", "how?") is the interrogative, which an English
 * line holds only when it asks something. News English says "who" mostly as a relative ("Menga, who took a touch"),
 * and that is the Igbo noun onye "person", not ònye "who?".
 */
export const QUESTION = '?';

/**
 * The words of an English text, each with the base forms it may stand for; an acronym as written (ACRONYM); and
 * QUESTION when the text asks something.
 */
export function englishBases(text: string): Set<string> {
  const out = new Set<string>();
  if (text.includes('?')) out.add(QUESTION);
  for (const word of text.match(WORD) ?? []) {
    if (ACRONYM.test(word)) {
      out.add(word);
      continue;
    }
    for (const part of word.toLowerCase().split('-')) for (const b of baseForms(part)) out.add(b);
    for (const b of baseForms(word)) out.add(b);
  }
  return out;
}

/**
 * The meanings of a definition to look for in a sentence: each `;`- or `,`-separated part, without parentheticals,
 * as its meaning words (lower case but for acronyms; function words dropped, unless the part is that word alone: NEVER_A_MEANING); parts with more than MAX_MEANING_WORDS meaning words describe rather than name, and are left out;
 * a part written as a question ("who?") needs a line that asks one (QUESTION).
 */
export function meaningsOf(definitions: readonly string[]): string[][] {
  const out: string[][] = [];
  const seen = new Set<string>();
  for (const definition of definitions) {
    for (const part of definition.replace(/\([^)]*\)/g, ' ').replace(/\[[^\]]*\]/g, ' ').split(/[;,]/)) {
      const all = (part.match(WORD) ?? []).filter((w) => !/^\d/.test(w)).map((w) => (ACRONYM.test(w) ? w : w.toLowerCase()));
      const words = all.length === 1 ? all.filter((w) => !NEVER_A_MEANING.has(w)) : all.filter((w) => !FUNCTION_WORDS.has(w));
      if (words.length === 0 || words.length > MAX_MEANING_WORDS) continue;
      if (part.trim().endsWith('?')) words.push(QUESTION);
      const key = words.join(' ');
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(words);
    }
  }
  return out;
}

/** Whether the sentence's words (englishBases) hold one of the meanings: every word of a meaning, inflected or not. */
export function holdsMeaning(bases: ReadonlySet<string>, meanings: readonly (readonly string[])[]): boolean {
  return meanings.some((m) => m.every((w) => bases.has(w)));
}
