// The bench's sections, in the order they run and appear in the report. A section runs on each subject;
// the HTTP section builds the real snapshot that the ones after it reuse.
import { compressionSection } from './compression.ts';
import type { Section, SectionId } from './context.ts';
import { floodsSection } from './floods.ts';
import { httpSection } from './http.ts';
import { manyClientsSection } from './many-clients.ts';
import { meteringSection } from './metering.ts';
import { scalingSection } from './scaling.ts';
import { searchSection } from './search.ts';

export type AnySection = { [K in SectionId]: Section<K> }[SectionId];

export const SECTIONS: readonly AnySection[] = [
  httpSection,
  searchSection,
  scalingSection,
  meteringSection,
  manyClientsSection,
  compressionSection,
  floodsSection,
];
