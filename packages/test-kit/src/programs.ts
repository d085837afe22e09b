// The Debian programs some tests check their output with (qpdf, pdftocairo, epubcheck): used
// where installed; where one is missing the test is skipped with how to install it, except on CI
// (CI=true), which installs them (.ci/run): there their absence is a failure, as a missing server's is.
import { existsSync } from 'node:fs';

export interface Program {
  /** What it is called ("qpdf"). */
  name: string;
  /** Where it is expected. */
  path: string;
  /** The Debian package that installs it. */
  apt: string;
}

export const QPDF: Program = { name: 'qpdf', path: '/usr/bin/qpdf', apt: 'qpdf' };
export const PDFTOCAIRO: Program = { name: 'pdftocairo', path: '/usr/bin/pdftocairo', apt: 'poppler-utils' };
export const PDFTOTEXT: Program = { name: 'pdftotext', path: '/usr/bin/pdftotext', apt: 'poppler-utils' };
export const EPUBCHECK: Program = { name: 'epubcheck', path: '/usr/share/java/epubcheck.jar', apt: 'epubcheck' };
/** The cluster's front (NGINX_BIN names another). */
export const NGINX: Program = { name: 'nginx', path: process.env.NGINX_BIN || '/usr/sbin/nginx', apt: 'nginx-light' };

/**
 * True when every program is installed. Otherwise: on CI, throws; elsewhere, warns that `what`
 * is not checked and how to install them, and answers false.
 */
export function programsInstalled(programs: readonly Program[], what: string): boolean {
  const missing = programs.filter((p) => !existsSync(p.path));
  if (missing.length === 0) return true;
  const message = `${missing.map((p) => `${p.name} (${p.path})`).join(', ')} not installed: ${what} not checked (apt-get install ${[...new Set(missing.map((p) => p.apt))].join(' ')}).`;
  if (process.env.CI) throw new Error(`${message} On CI this is a failure.`);
  console.warn(message);
  return false;
}

/** `it` when every program is installed, else (off CI) `it.skip` with the reason; see `programsInstalled`. */
export function itWithPrograms(programs: readonly Program[], what: string): jest.It {
  return programsInstalled(programs, what) ? it : it.skip;
}

/** `describe` when every program is installed, else (off CI) `describe.skip` with the reason; see `programsInstalled`. */
export function describeWithPrograms(programs: readonly Program[], what: string): jest.Describe {
  return programsInstalled(programs, what) ? describe : describe.skip;
}
