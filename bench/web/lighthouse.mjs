// Lighthouse (npm `lighthouse`, programmatic) on Debian Chromium through
// chrome-launcher: mobile form factor (Lighthouse's default: Moto G Power
// viewport, slow 4G, 4× CPU slowdown), performance category only, simulated
// throttling. Nothing is downloaded at run time.
import { writeFileSync } from 'node:fs';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './initial-js.mjs';

/**
 * A Chromium for Lighthouse, warmed by one audit of `warmUrl` that is not counted: the first
 * page a freshly started browser opens pays for the browser's own start (its font caches, its
 * first renderer and compositor), which a phone's running browser has long paid and which says
 * nothing of the page. Every counted run still starts from an empty cache (Lighthouse clears it).
 */
export async function launchChrome(warmUrl) {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_ARGS, logLevel: 'silent' });
  if (warmUrl) {
    try {
      await lighthouse(warmUrl, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], throttlingMethod: 'simulate' });
    } catch {
      // The counted runs say what is wrong.
    }
  }
  return chrome;
}

/** Audits that explain a score: failing opportunities and diagnostics, biggest estimated saving first. */
function findings(lhr) {
  const refs = lhr.categories.performance.auditRefs.filter((ref) => ref.group !== 'metrics');
  const out = [];
  for (const ref of refs) {
    const audit = lhr.audits[ref.id];
    if (!audit || audit.score === null || audit.score >= 0.9 || audit.scoreDisplayMode === 'notApplicable' || audit.scoreDisplayMode === 'informative')
      continue;
    const savings = audit.metricSavings ?? {};
    const savingMs = Math.max(audit.details?.overallSavingsMs ?? 0, savings.LCP ?? 0, savings.FCP ?? 0, savings.TBT ?? 0);
    // Most audits list their items in an array; a few (e.g. network insights) keep an object there.
    const items = (Array.isArray(audit.details?.items) ? audit.details.items : [])
      .slice(0, 3)
      .map((item) => {
        const where = typeof item.url === 'string' ? new URL(item.url, 'http://x').pathname : (item.node?.snippet ?? item.node?.selector ?? item.entity ?? '');
        const bytes = item.wastedBytes ?? item.totalBytes ?? item.transferSize;
        const ms = item.wastedMs ?? item.duration;
        return [where, bytes ? `${(bytes / 1024).toFixed(0)} KB` : '', ms ? `${Math.round(ms)} ms` : ''].filter(Boolean).join(' ');
      })
      .filter(Boolean);
    out.push({ id: ref.id, title: audit.title, display: audit.displayValue ?? '', savingMs, savingBytes: audit.details?.overallSavingsBytes ?? 0, items });
  }
  out.sort((a, b) => b.savingMs - a.savingMs || b.savingBytes - a.savingBytes);
  return out;
}

/** The LCP element and how its time splits (TTFB, load delay, load time, render delay). */
function lcpElement(lhr) {
  const audit = lhr.audits['largest-contentful-paint-element'];
  const tables = audit?.details?.items ?? [];
  const node = tables[0]?.items?.[0]?.node;
  const phases = (tables[1]?.items ?? []).map((p) => `${p.phase} ${Math.round(p.timing)} ms`).join(', ');
  return node ? `${node.snippet ?? node.selector}${phases ? ` (${phases})` : ''}` : 'not found';
}

/**
 * The main thread's long tasks as Lighthouse's `long-tasks` diagnostic lists them (on its mobile
 * profile: the durations its simulation gives them on a mid-range phone, 4× this host's CPU), longest
 * first: what the task ran (its script or "Unattributable") and how long.
 */
function longTasks(lhr) {
  const items = lhr.audits['long-tasks']?.details?.items ?? [];
  return items
    .map((item) => ({
      url: typeof item.url === 'string' ? item.url.replace(/^https?:\/\/[^/]+/, '') : String(item.url),
      ms: item.duration,
      start: item.startTime,
    }))
    .sort((a, b) => b.ms - a.ms);
}

/** Trace failures Lighthouse itself asks to be run again for; they say nothing of the page. */
const RUN_AGAIN = new Set(['NO_NAVSTART', 'NO_TRACING_STARTED', 'NO_RESOURCE_REQUEST']);

/** One Lighthouse run (a failed trace recording is run again, twice at most); the full report is written to `reportPath` when given. */
export async function audit(chrome, url, reportPath) {
  let result;
  for (let attempt = 1; ; attempt += 1) {
    result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], throttlingMethod: 'simulate' });
    if (!RUN_AGAIN.has(result.lhr.runtimeError?.code) || attempt === 3) break;
  }
  const { lhr } = result;
  if (reportPath) writeFileSync(reportPath, result.report);
  if (lhr.runtimeError) throw new Error(`Lighthouse could not audit ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const num = (id) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    fcp: num('first-contentful-paint'),
    lcp: num('largest-contentful-paint'),
    tbt: num('total-blocking-time'),
    cls: num('cumulative-layout-shift'),
    si: num('speed-index'),
    benchmarkIndex: lhr.environment?.benchmarkIndex,
    warnings: lhr.runWarnings ?? [],
    lcpElement: lcpElement(lhr),
    findings: findings(lhr),
    longTasks: longTasks(lhr),
  };
}
