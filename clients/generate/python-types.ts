// The Python client's response types (TypedDicts and Literal aliases) from the JSON Schemas of the OpenAPI
// description's components. The schemas nest their records inline, so each nested record is named from its
// place (NAMES for the shared ones) and a record met twice with the same shape is written once.

/** The parts of a JSON Schema (as the description writes them) that become Python types. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  description?: string;
}

export const PYTHON_TYPES_FILE = 'clients/python/african_dictionary/_generated.py';

/**
 * Names of nested records and enums by property name, where the place-based name would read badly or the
 * same record recurs under several parents (a source, a licence, a related form).
 */
const NAMES: Readonly<Record<string, string>> = {
  source: 'Source',
  licence: 'Licence',
  derived: 'RelatedForm',
  related: 'RelatedForm',
  error: 'ErrorInfo',
  details: 'QuotaDetails',
  code: 'ErrorCode',
  partOfSpeech: 'PartOfSpeech',
  matchType: 'MatchType',
};

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
const pascal = (text: string): string => text.replace(/(^|[-_\s])(\w)/g, (_, __, c: string) => c.toUpperCase()).replace(/^\w/, (c) => c.toUpperCase());
const singular = (word: string): string => (word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : `${word}Item`);

/** The shape of a schema without its descriptions, with keys in order: two records with one shape are one type. */
function shapeOf(schema: unknown): string {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (node === null || typeof node !== 'object') return node;
    const entries = Object.entries(node).filter(([k]) => k !== 'description');
    return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, strip(v)]));
  };
  return JSON.stringify(strip(schema));
}

class PythonTypes {
  readonly #blocks: string[] = [];
  readonly #byShape = new Map<string, string>();
  readonly #taken = new Set<string>();
  /** The public names, in the order they are defined. */
  readonly names: string[] = [];

  /** A name for a new type: `preferred`, or with its parent's name before it when that is taken. */
  #name(preferred: string, parent: string): string {
    let name = this.#taken.has(preferred) ? `${parent}${preferred}` : preferred;
    for (let n = 2; this.#taken.has(name); n++) name = `${parent}${preferred}${n}`;
    this.#taken.add(name);
    return name;
  }

  /** The Python type of `schema` at property `prop` of record `parent`, defining the types it needs. */
  typeOf(schema: JsonSchema, parent: string, prop: string, arrayItem = false): string {
    const variants: Array<string | JsonSchema> | undefined = Array.isArray(schema.type) ? schema.type : schema.anyOf;
    if (variants) {
      const types = variants.map((v) => (typeof v === 'string' ? this.typeOf({ ...schema, type: v, anyOf: undefined }, parent, prop) : this.typeOf(v, parent, prop)));
      const nonNull = [...new Set(types.filter((t) => t !== 'None'))];
      const union = nonNull.length === 1 ? nonNull[0] : `Union[${nonNull.join(', ')}]`;
      return types.includes('None') ? `Optional[${union}]` : union;
    }
    switch (schema.type) {
      case 'null':
        return 'None';
      case 'boolean':
        return 'bool';
      case 'integer':
        return 'int';
      case 'number':
        return 'float';
      case 'string':
        return schema.enum ? this.#literal(schema, parent, prop) : 'str';
      case 'array':
        return `List[${this.typeOf(schema.items ?? {}, parent, prop, true)}]`;
      case 'object':
        if (schema.properties) return this.record(schema, NAMES[prop] ?? `${parent}${pascal(arrayItem ? singular(prop) : prop)}`, parent);
        if (typeof schema.additionalProperties === 'object' && Object.keys(schema.additionalProperties).length > 0) {
          return `Dict[str, ${this.typeOf(schema.additionalProperties, parent, prop)}]`;
        }
        // An object whose keys the description leaves open.
        return 'Dict[str, Any]';
      default:
        return 'Any';
    }
  }

  #literal(schema: JsonSchema, parent: string, prop: string): string {
    const shape = shapeOf(schema.enum);
    const known = this.#byShape.get(shape);
    if (known) return known;
    const name = this.#name(NAMES[prop] ?? `${parent}${pascal(prop)}`, parent);
    this.#byShape.set(shape, name);
    this.names.push(name);
    this.#blocks.push(`${name} = Literal[${(schema.enum ?? []).map((v) => JSON.stringify(v)).join(', ')}]\n`);
    return name;
  }

  /** A TypedDict for a record (two classes when some keys are optional: `total=False` holds those). */
  record(schema: JsonSchema, preferred: string, parent: string): string {
    const shape = shapeOf(schema);
    const known = this.#byShape.get(shape);
    if (known) return known;
    const name = this.#name(preferred, parent);
    this.#byShape.set(shape, name);
    const required = new Set(schema.required ?? []);
    const fields = Object.entries(schema.properties ?? {}).map(([prop, s]) => ({ prop, s, required: required.has(prop), type: this.typeOf(s, name, prop) }));
    const body = (list: typeof fields): string =>
      list.length === 0 ? '    pass\n' : list.map((f) => `${f.s.description ? `    #: ${oneLine(f.s.description)}\n` : ''}    ${f.prop}: ${f.type}\n`).join('');
    const optional = fields.filter((f) => !f.required);
    const doc = schema.description ? `    """${oneLine(schema.description).replaceAll('"""', "'''")}"""\n\n` : '';
    this.names.push(name);
    if (optional.length === 0) {
      this.#blocks.push(`class ${name}(TypedDict):\n${doc}${body(fields)}`);
    } else {
      this.#blocks.push(`class _${name}Required(TypedDict):\n${body(fields.filter((f) => f.required))}`);
      this.#blocks.push(`class ${name}(_${name}Required, total=False):\n${doc}${body(optional)}`);
    }
    return name;
  }

  get blocks(): readonly string[] {
    return this.#blocks;
  }
}

const HEADER = `# Generated by \`npm run generate:clients\` from GET /api/v1/openapi.json: do not edit.
# The response records of the OpenAPI description's components, as TypedDicts.
from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, TypedDict, Union

`;

/** The Python module of the description's component schemas (every one, in the document's order). */
export function pythonTypes(document: { components?: { schemas?: Record<string, JsonSchema> } }): string {
  const types = new PythonTypes();
  const schemas = Object.entries(document.components?.schemas ?? {});
  // Top-level names first, so a record nested elsewhere with the same shape takes the component's name.
  const order = [...schemas].sort(([, a], [, b]) => shapeOf(a).length - shapeOf(b).length);
  for (const [name, schema] of order) types.record(schema, name, '');
  return `${HEADER}${types.blocks.join('\n\n')}\n\n__all__ = [\n${types.names.map((n) => `    ${JSON.stringify(n)},`).join('\n')}\n]\n`;
}
