// The website's allowance of pages at the door of every page (http/pipeline.ts runs it before the page's
// handler): a page over its address's allowance gets the 429 page with Retry-After, is counted in
// dict_guard_refusals_total{guard="website"}, and is logged in at most one line per REFUSAL_LOG_INTERVAL_MS,
// with the refusals since the last line counted in it, so that a flood does not flood the log.
import type { Deps } from '../deps.ts';
import { PAGE_RETRY_AFTER_SECONDS, PageAllowance } from '../guards/page-allowance.ts';
import { clientIp } from '../http/client-ip.ts';
import type { PipelineRequest, PipelineResponse } from '../http/exchange.ts';
import type { PageGuard } from '../http/pipeline.ts';
import { tooManyPagesPage } from './pages/too-many-pages.ts';
import { CACHE, keptPage, sendHtml } from './respond.ts';
import { loadStaticFiles } from './static.ts';

/** At most one log line about refused pages per this long, per worker. */
export const REFUSAL_LOG_INTERVAL_MS = 10_000;

export function pageGuard(deps: Deps, allowance = new PageAllowance()): PageGuard {
  const page = keptPage(tooManyPagesPage(loadStaticFiles().urls));
  let refusedSinceLine = 0;
  let lastLine = -Infinity;
  return (req: PipelineRequest, res: PipelineResponse): boolean => {
    const address = clientIp(req.ip, req.headers['x-forwarded-for'], deps.config.trustProxy);
    const now = deps.now();
    if (allowance.take(address, now)) return false;
    deps.stats.guarded('website');
    refusedSinceLine++;
    if (now - lastLine >= REFUSAL_LOG_INTERVAL_MS) {
      deps.log.info({ msg: 'website pages refused: an address is over its allowance', address, refused: refusedSinceLine });
      refusedSinceLine = 0;
      lastLine = now;
    }
    sendHtml(req, res, page, { status: 429, cache: CACHE.noStore, headers: { 'Retry-After': String(PAGE_RETRY_AFTER_SECONDS) } });
    return true;
  };
}
