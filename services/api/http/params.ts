// Small parsers for raw request values that hyper-express hands over undecoded.

/**
 * Path parameters arrive still percent-encoded (`il%C3%A9-2`); undefined when the encoding is broken.
 * NFC so that a slug typed with combining marks finds the stored (NFC) one.
 */
export function decodePathParam(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw).normalize('NFC');
  } catch {
    return undefined;
  }
}

/** The media type of a Content-Type header, lower-cased, without parameters (`; charset=utf-8`). */
export function mediaType(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  return contentType.split(';', 1)[0].trim().toLowerCase();
}
