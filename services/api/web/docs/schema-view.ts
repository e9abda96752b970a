// JSON Schema (from the OpenAPI description) as text and nested lists a person can read: types in words,
// constraints, each property with its description.
import { html } from '../html.ts';
import type { Html } from '../html.ts';

export type Schema = Readonly<Record<string, unknown>>;

const REF_PREFIX = '#/components/schemas/';

/** The anchor of a component schema on the page. */
export function schemaAnchor(name: string): string {
  return `schema-${name}`;
}

function asSchema(value: unknown): Schema | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Schema) : undefined;
}

function refName(schema: Schema): string | undefined {
  const ref = schema.$ref;
  return typeof ref === 'string' && ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : undefined;
}

/** One schema's type in words: "string or null", "array of Entry", "one of: noun, verb". */
export function typeText(schema: Schema): Html {
  const name = refName(schema);
  if (name) return html`<a href="#${schemaAnchor(name)}">${name}</a>`;
  if (Array.isArray(schema.enum)) return html`one of ${(schema.enum as unknown[]).map((v, i) => html`${i > 0 ? ', ' : ''}<code>${String(v)}</code>`)}`;
  const variants = Array.isArray(schema.anyOf) ? (schema.anyOf as unknown[]).map(asSchema).filter((s): s is Schema => s !== undefined) : [];
  if (variants.length > 0) return html`${variants.map((v, i) => html`${i > 0 ? ' or ' : ''}${typeText(v)}`)}`;
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
  const items = asSchema(schema.items);
  const values = asSchema(schema.additionalProperties);
  return html`${types.map((t, i) => {
    const sep = i > 0 ? ' or ' : '';
    if (t === 'array' && items) return html`${sep}array of ${typeText(items)}`;
    if (t === 'object' && values && !schema.properties) return html`${sep}object of ${typeText(values)}`;
    return html`${sep}${t}`;
  })}${types.length === 0 && !items ? 'any' : ''}`;
}

/** Bounds and defaults, in words. */
export function constraintsText(schema: Schema): string {
  const parts: string[] = [];
  const variants = Array.isArray(schema.anyOf) ? (schema.anyOf as Schema[]) : [schema];
  for (const s of variants) {
    if (typeof s.minimum === 'number') parts.push(`minimum ${s.minimum}`);
    if (typeof s.maximum === 'number') parts.push(`maximum ${s.maximum}`);
    if (typeof s.minLength === 'number' && s.minLength > 0) parts.push(`at least ${s.minLength} characters`);
    if (typeof s.maxLength === 'number') parts.push(`at most ${s.maxLength} characters`);
    if (typeof s.format === 'string') parts.push(`format ${s.format}`);
  }
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join(', ');
}

/** Names a nested schema that is one of the description's named schemas (its fields are listed there). */
export type NamedSchemas = (schema: Schema) => string | undefined;

/** The named schemas of a description, recognised by their content (a nested copy carries its own description). */
export function namedSchemas(schemas: ReadonlyArray<readonly [string, Schema]>): NamedSchemas {
  const key = (schema: Schema): string => JSON.stringify({ ...schema, description: undefined });
  const byContent = new Map(schemas.filter(([, s]) => asSchema(s.properties)).map(([name, s]) => [key(s), name]));
  return (schema) => byContent.get(key(schema));
}

/** An object schema's fields as a key (descriptions of the object itself aside); undefined for a non-object. */
function contentKey(schema: Schema): string | undefined {
  return asSchema(schema.properties) ? JSON.stringify({ ...schema, description: undefined }) : undefined;
}

/**
 * The object's fields (and those of objects nested in it, arrays of objects included) as nested lists. A
 * nested object that is a named schema links to it instead of listing its fields again (`named`), and one
 * whose fields this list already showed (an entry's, its examples' and its pronunciations' source and
 * licence) names where they are (`listed`): the reference page stays one screenful per schema, not the same
 * fields three times.
 */
export function propertiesList(schema: Schema, named?: NamedSchemas, listed = new Map<string, string>(), at = ''): Html | '' {
  const target = asSchema(schema.items) && !schema.properties ? (schema.items as Schema) : schema;
  const properties = asSchema(target.properties);
  if (!properties) return '';
  const required = new Set(Array.isArray(target.required) ? (target.required as string[]) : []);
  return html`<ul class="props">${Object.entries(properties).map(([name, value]) => {
    const property = asSchema(value) ?? {};
    const constraints = constraintsText(property);
    const description = typeof property.description === 'string' ? property.description : '';
    const items = asSchema(property.items);
    const same = named?.(property) ?? (items ? named?.(items) : undefined);
    const type = same === undefined ? typeText(property) : html`${items ? 'array of ' : ''}<a href="#${schemaAnchor(same)}">${same}</a>`;
    const path = at ? `${at}.${name}` : name;
    const fields = contentKey(items && !property.properties ? items : property);
    const earlier = fields === undefined ? undefined : listed.get(fields);
    if (fields !== undefined && earlier === undefined) listed.set(fields, path);
    const nested = same !== undefined ? '' : earlier !== undefined ? html` <span class="muted">(fields as in <code>${earlier}</code>)</span>` : propertiesList(property, named, listed, path);
    return html`<li><code>${name}</code> <span class="type">${type}${required.has(name) ? '' : ', optional'}</span>${constraints ? html` <span class="muted">(${constraints})</span>` : ''}${description ? html`: ${description}` : ''}${nested}</li>`;
  })}</ul>`;
}
