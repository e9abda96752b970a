// The public website, served by the API workers from the same snapshot: server-rendered pages (not metered,
// working without JavaScript), the sign-up form and the static files, as route descriptors served through the
// same pipeline as the API (http/pipeline.ts).
import { utcDay } from '../../shared/metering-protocol/day.ts';
import { MAX_BODY_BYTES } from '../config.ts';
import type { CompressedBody } from '../http/compression.ts';
import type { PipelineRequest } from '../http/exchange.ts';
import type { PageHandler, PageRoute, RouteSetup } from '../http/route.ts';
import { buildOpenApiDocument } from '../openapi/document.ts';
import { referenceExamples } from '../openapi/examples.ts';
import { corpusSources, readStats, wordsOfTheDay } from './data.ts';
import { HeadwordSpellings } from './headword-spelling.ts';
import { Homographs } from './homographs.ts';
import type { Html } from './html.ts';
import { aboutPage } from './pages/about.ts';
import { developersPage } from './pages/developers.ts';
import { docsPage } from './pages/docs.ts';
import { downloadsPage } from './pages/downloads.ts';
import { entryPage, entryPath } from './pages/entry.ts';
import { homePage } from './pages/home.ts';
import { languagePage, languagePath } from './pages/language.ts';
import { CACHE, keptPage, sendHtml } from './respond.ts';
import { renderSearch } from './search.ts';
import { signupHandler } from './signup.ts';
import { sendNotFound } from './site-errors.ts';
import { loadStaticFiles, serveStatic, STATIC_PATHS } from './static.ts';

const assets = () => loadStaticFiles().urls;

const page = (path: string, handler: (setup: RouteSetup) => PageHandler<PipelineRequest>): PageRoute => ({
  kind: 'page',
  method: 'GET',
  path,
  handler,
});

/** A page fixed for the process (by the snapshot and the configuration): rendered on first request, kept compressed. */
const keptPageRoute = (path: string, render: (setup: RouteSetup) => Html): PageRoute =>
  page(path, (setup) => {
    let kept: CompressedBody | undefined;
    return (req, res) => sendHtml(req, res, (kept ??= keptPage(render(setup))), { cache: CACHE.stable });
  });

const home = page('/', ({ deps }) => (req, res) => {
  const date = utcDay(deps.now());
  const body = homePage({ assets: assets(), languages: deps.snapshot.languages(), date, wordsOfTheDay: wordsOfTheDay(deps.snapshot, date) });
  sendHtml(req, res, body, { cache: CACHE.short });
});

const search = page('/search', ({ deps }) => {
  const spellings = new HeadwordSpellings(deps.snapshot);
  const homographs = new Homographs(deps.snapshot);
  return (req, res) => {
    const { page: body, status } = renderSearch(deps, assets(), req.query_parameters, spellings, homographs);
    sendHtml(req, res, body, { status, cache: CACHE.short });
  };
});

const entry = page('/words/{slug}', ({ deps }) => {
  const spellings = new HeadwordSpellings(deps.snapshot);
  const homographs = new Homographs(deps.snapshot);
  return (req, res) => {
    // Path parameters come still percent-encoded.
    const slug = decodePathSegment(req.path_parameters.slug ?? '');
    const found = slug === undefined ? undefined : deps.snapshot.entry(slug);
    if (!found) {
      sendNotFound(req, res, deps, assets(), slug ?? req.path_parameters.slug);
      return;
    }
    // An id or an old spelling of the address leads to the one shareable URL.
    if (found.slug !== slug) {
      res.status(301).header('Location', entryPath(found.slug)).header('Cache-Control', CACHE.stable).send();
      return;
    }
    const alike = homographs.of(found.language, found.exactForm);
    sendHtml(req, res, entryPage({ assets: assets(), entry: found, spelling: spellings.forEntry(found), homographs: alike, contact: deps.config.operatorContact }), { cache: CACHE.stable });
  };
});

const language = page('/languages/{slug}', ({ deps }) => (req, res) => {
  const value = decodePathSegment(req.path_parameters.slug ?? '')?.toLowerCase();
  const languages = deps.snapshot.languages();
  const found = languages.find((l) => l.slug === value || l.code === value);
  if (!found) {
    sendNotFound(req, res, deps, assets());
    return;
  }
  // A code leads to the one shareable address, the slug's.
  if (found.slug !== value) {
    res.status(301).header('Location', languagePath(found.slug)).header('Cache-Control', CACHE.stable).send();
    return;
  }
  const date = utcDay(deps.now());
  const wordOfTheDay = found.status === 'active' ? wordsOfTheDay(deps.snapshot, date).find((w) => w.language.code === found.code)?.entry : undefined;
  const sources = corpusSources(deps.snapshot).filter((s) => s.language === found.code);
  sendHtml(req, res, languagePage({ assets: assets(), language: found, languages, wordOfTheDay, sources }), { cache: CACHE.short });
});

const downloads = page('/downloads', ({ deps }) => (req, res) => {
  sendHtml(req, res, downloadsPage({ assets: assets(), index: deps.snapshot.downloads?.().index }), { cache: CACHE.short });
});

const developers = keptPageRoute('/developers', ({ deps }) => developersPage({ assets: assets(), contact: deps.config.operatorContact }));

/** The one page that reads a body: the form is read up to the API route's 16 KiB. */
const signup: PageRoute = {
  kind: 'page',
  method: 'POST',
  path: '/developers',
  bodyLimitBytes: MAX_BODY_BYTES,
  handler: ({ deps }) => signupHandler(deps, assets()),
};

/** The reference, from the same description the API serves. */
const docs = keptPageRoute('/docs', ({ deps, routes }) => {
  const examples = referenceExamples(deps.snapshot);
  return docsPage({ assets: assets(), document: buildOpenApiDocument(routes, deps.snapshot.languages(), examples), examples: examples.parameters });
});

const about = keptPageRoute('/about', ({ deps }) =>
  aboutPage({
    assets: assets(),
    contact: deps.config.operatorContact,
    sources: corpusSources(deps.snapshot),
    languages: deps.snapshot.languages(),
    stats: readStats(deps.snapshot),
  }),
);

/** Files are not pages: outside the allowance of pages (http/route.ts, `unlimited`). */
const staticFiles = STATIC_PATHS.map(
  (path): PageRoute => ({
    ...page(path, () => {
      const file = loadStaticFiles().files.get(path);
      if (file === undefined) throw new Error(`no static file for ${path}`);
      return (req, res) => serveStatic(req, res, file);
    }),
    unlimited: true,
  }),
);

export const WEBSITE_ROUTES: readonly PageRoute[] = [home, search, entry, language, downloads, developers, signup, docs, about, ...staticFiles];

function decodePathSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment).normalize('NFC');
  } catch {
    return undefined;
  }
}
