// The public website, served by the API workers from the same snapshot: pages are server-rendered HTML,
// not metered, and work without JavaScript.
import type { Request, Response, Server } from 'hyper-express';

import { utcDay } from '../../shared/metering-protocol/day.ts';
import { fold } from '../../../snapshot/format/text.ts';
import { MAX_BODY_BYTES } from '../config.ts';
import type { Deps } from '../deps.ts';
import type { CompressedBody } from '../http/compression.ts';
import { buildOpenApiDocument } from '../openapi/document.ts';
import type { Snapshot } from '../../../snapshot/reader/snapshot.ts';
import type { ExampleValues } from './docs/operation-view.ts';
import { MAX_QUERY_CHARS } from './components.ts';
import { corpusSources, readStats, wordsOfTheDay } from './data.ts';
import { HeadwordSpellings } from './headword-spelling.ts';
import type { ResultNote } from './headword-spelling.ts';
import type { Html } from './html.ts';
import type { AssetUrls } from './layout.ts';
import { aboutPage } from './pages/about.ts';
import { developersPage } from './pages/developers.ts';
import { docsPage } from './pages/docs.ts';
import { downloadsPage } from './pages/downloads.ts';
import { entryPage, entryPath } from './pages/entry.ts';
import { homePage } from './pages/home.ts';
import { languagePage, languagePath } from './pages/language.ts';
import { notFoundPage } from './pages/not-found.ts';
import { searchPage } from './pages/search.ts';
import { serverErrorPage } from './pages/server-error.ts';
import { CACHE, keptPage, sendHtml } from './respond.ts';
import { signupHandler } from './signup.ts';
import { loadStaticFiles, serveStatic } from './static.ts';

/** Results per search page. */
export const SEARCH_PAGE_SIZE = 20;
/** The API's page bound (spec: page values above 10,000 are rejected). */
export const MAX_SEARCH_PAGE = 10_000;

type Handler = (req: Request, res: Response) => void | Promise<void>;

export function registerWebsite(app: Server, deps: Deps): void {
  const files = loadStaticFiles();
  const assets = files.urls;
  const spellings = new HeadwordSpellings(deps.snapshot);
  // Page errors get an HTML page, not the API's JSON error body; the stack goes to the log only.
  const guarded = (handler: Handler): Handler => async (req, res) => {
    try {
      await handler(req, res);
    } catch (err) {
      deps.log.error({ msg: 'website page failed', path: req.path, err: err instanceof Error ? err.stack : String(err) });
      sendHtml(req, res, serverErrorPage(assets), { status: 500, cache: CACHE.noStore });
    }
  };

  for (const [urlPath, file] of files.files) app.get(urlPath, (req, res) => serveStatic(req, res, file));

  app.get('/', guarded((req, res) => {
    const date = utcDay(deps.now());
    const page = homePage({ assets, languages: deps.snapshot.languages(), date, wordsOfTheDay: wordsOfTheDay(deps.snapshot, date) });
    sendHtml(req, res, page, { cache: CACHE.short });
  }));

  app.get('/search', guarded((req, res) => {
    const { page, status } = renderSearch(deps, assets, req.query_parameters, spellings);
    sendHtml(req, res, page, { status, cache: CACHE.short });
  }));

  app.get('/words/:slug', guarded((req, res) => {
    // hyper-express hands path parameters over still percent-encoded.
    const slug = decodePathSegment(req.path_parameters.slug ?? '');
    const entry = slug === undefined ? undefined : deps.snapshot.entry(slug);
    if (!entry) {
      sendNotFound(req, res, deps, assets, slug ?? req.path_parameters.slug);
      return;
    }
    // An id or an old spelling of the address leads to the one shareable URL.
    if (entry.slug !== slug) {
      res.status(301).header('Location', entryPath(entry.slug)).header('Cache-Control', CACHE.stable).send();
      return;
    }
    sendHtml(req, res, entryPage({ assets, entry, spelling: spellings.forEntry(entry) }), { cache: CACHE.stable });
  }));

  app.get('/languages/:slug', guarded((req, res) => {
    const value = decodePathSegment(req.path_parameters.slug ?? '')?.toLowerCase();
    const language = deps.snapshot.languages().find((l) => l.slug === value || l.code === value);
    if (!language) {
      sendNotFound(req, res, deps, assets);
      return;
    }
    // A code leads to the one shareable address, the slug's.
    if (language.slug !== value) {
      res.status(301).header('Location', languagePath(language.slug)).header('Cache-Control', CACHE.stable).send();
      return;
    }
    const date = utcDay(deps.now());
    const wordOfTheDay = language.status === 'active' ? wordsOfTheDay(deps.snapshot, date).find((w) => w.language.code === language.code)?.entry : undefined;
    const sources = corpusSources(deps.snapshot).filter((s) => s.language === language.code);
    sendHtml(req, res, languagePage({ assets, language, languages: deps.snapshot.languages(), wordOfTheDay, sources }), { cache: CACHE.short });
  }));

  app.get('/downloads', guarded((req, res) => {
    sendHtml(req, res, downloadsPage({ assets, index: deps.snapshot.downloads?.().index }), { cache: CACHE.short });
  }));

  // Pages fixed for the process (by the snapshot and the configuration): rendered once, on first request, and
  // kept with their compressed forms.
  const contact = deps.config.operatorContact;
  const kept = (render: () => Html): (() => CompressedBody) => {
    let page: CompressedBody | undefined;
    return () => (page ??= keptPage(render()));
  };
  const developers = kept(() => developersPage({ assets, contact }));
  // The reference, from the same description the API serves.
  const docs = kept(() => docsPage({ assets, document: buildOpenApiDocument(deps.snapshot.languages()), examples: docsExamples(deps.snapshot) }));
  const about = kept(() =>
    aboutPage({ assets, contact, sources: corpusSources(deps.snapshot), languages: deps.snapshot.languages(), stats: readStats(deps.snapshot) }),
  );
  app.get('/developers', guarded((req, res) => sendHtml(req, res, developers(), { cache: CACHE.stable })));
  // The one page that reads a body: the form is read up to the API route's 16 KiB.
  app.post('/developers', { max_body_length: MAX_BODY_BYTES }, guarded(signupHandler(deps, assets)));
  app.get('/docs', guarded((req, res) => sendHtml(req, res, docs(), { cache: CACHE.stable })));
  app.get('/about', guarded((req, res) => sendHtml(req, res, about(), { cache: CACHE.stable })));
}

/** Example values for /docs that find something in this snapshot: an entry of the first active language. */
function docsExamples(snapshot: Snapshot): ExampleValues {
  const language = snapshot.languages().find((l) => l.status === 'active');
  if (!language) return {};
  const sample = snapshot.search({ language: language.code, page: 1, limit: 50 }).items.find((w) => fold(w.exactForm).length >= 3);
  return { language: language.code, ...(sample ? { q: fold(sample.exactForm), id: sample.slug } : {}) };
}

/**
 * The website's 404 for any path outside /api (the API app's not-found handler may call it for paths that
 * are not API paths, so a mistyped page address gets a page with a search box instead of JSON).
 */
export function websiteNotFound(deps: Deps): Handler {
  const assets = loadStaticFiles().urls;
  return (req, res) => sendNotFound(req, res, deps, assets);
}

function sendNotFound(req: Request, res: Response, deps: Deps, assets: AssetUrls, slug?: string): void {
  sendHtml(req, res, notFoundPage({ assets, languages: deps.snapshot.languages(), slug }), { status: 404, cache: CACHE.notFound });
}

export function decodePathSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment).normalize('NFC');
  } catch {
    return undefined;
  }
}

function first(value: unknown): string {
  if (Array.isArray(value)) return first(value[0]);
  return typeof value === 'string' ? value : '';
}

/** Validates the query the way the API does, but answers with a page that explains, not an error body. */
export function renderSearch(
  deps: Deps,
  assets: AssetUrls,
  query: Readonly<Record<string, unknown>>,
  spellings: HeadwordSpellings,
): { page: Html; status: number } {
  const languages = deps.snapshot.languages();
  const q = first(query.q).trim().normalize('NFC');
  const languageParam = first(query.language).trim();
  const pageParam = first(query.page).trim() || '1';
  const base = { assets, languages, q, page: 1, perPage: SEARCH_PAGE_SIZE, maxPage: MAX_SEARCH_PAGE };
  const language = languageParam ? deps.snapshot.findActiveLanguage(languageParam) : undefined;
  if (languageParam && !language) {
    const codes = languages.filter((l) => l.status === 'active').map((l) => l.code).join(', ');
    return { page: searchPage({ ...base, problem: `“${languageParam}” is not one of the languages searched here (${codes}).` }), status: 400 };
  }
  if (!/^\d{1,5}$/.test(pageParam) || Number(pageParam) < 1 || Number(pageParam) > MAX_SEARCH_PAGE) {
    return { page: searchPage({ ...base, language: language?.code, problem: `Page must be a whole number from 1 to ${MAX_SEARCH_PAGE.toLocaleString('en-GB')}.` }), status: 400 };
  }
  if (q.length > MAX_QUERY_CHARS) {
    return { page: searchPage({ ...base, q: q.slice(0, MAX_QUERY_CHARS), language: language?.code, problem: `Search text can be at most ${MAX_QUERY_CHARS} characters long.` }), status: 400 };
  }
  const page = Number(pageParam);
  // Without text, a chosen language is browsed alphabetically; with neither, there is nothing to list.
  if (!q && !language) return { page: searchPage({ ...base, page }), status: 200 };
  const result = deps.snapshot.search({ q: q || undefined, language: language?.code, page, limit: SEARCH_PAGE_SIZE });
  const notes = new Map<number, ResultNote>();
  for (const item of result.items) {
    const note = spellings.noteFor(item, q, (slug) => deps.snapshot.entry(slug));
    if (note) notes.set(item.id, note);
  }
  return { page: searchPage({ ...base, language: language?.code, page, result, notes }), status: 200 };
}
