#!/usr/bin/env node
// Renders the demo catalogue's book covers (600×900 CSS px, drawn at 3.1 device pixels a CSS pixel:
// 1860×2790 JPEGs, 312 ppi on a printed Persona's front panel, issue 27) from
// seed/demo-catalogue.json with headless Chromium via playwright-core.
// Pure HTML/CSS: no external fonts, images or network access.
//
//   node services/catalogue/scripts/render-covers.mjs            # all books
//   node services/catalogue/scripts/render-covers.mjs some-key   # only these keys
//
// Env: CHROMIUM_PATH (default /usr/bin/chromium), COVER_QUALITY (default 80).
import { readFile, mkdir, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const { CHROMIUM_ARGS, CHROMIUM_PATH } = createRequire(import.meta.url)('@persona/test-kit');

const here = path.dirname(fileURLToPath(import.meta.url));
const seedDir = path.resolve(here, '../seed');
const outDir = path.join(seedDir, 'covers');
const WIDTH = 600;
const HEIGHT = 900;
const QUALITY = Number(process.env.COVER_QUALITY ?? 80);
/** Device pixels a CSS pixel: a print house asks for 300 ppi over the front panel and its bleed (5.95 × 8.51 in). */
const SCALE = 3.1;

const SERIF = `'DejaVu Serif', 'Liberation Serif', Georgia, 'Times New Roman', serif`;
const SANS = `'DejaVu Sans', 'Liberation Sans', Arial, sans-serif`;

// Small deterministic PRNG so every re-render of a book gives the same cover.
function hash(str) {
  let h = 2166136261;
  for (const ch of str) h = Math.imul(h ^ ch.codePointAt(0), 16777619);
  return h >>> 0;
}
function rng(seed) {
  let s = seed || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) % 100000) / 100000;
  };
}
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

// Palettes per category: [background a, background b, ink, accent, soft]
const PALETTES = {
  novels: [
    ['#0f3d4c', '#06222c', '#f6ecd2', '#e0a93b', '#2c7d8c'],
    ['#1d2a4a', '#0b1226', '#f3e9d6', '#e76f51', '#3d5a99'],
    ['#2b3d2f', '#111c14', '#f1ead8', '#d8b25a', '#4f7a57'],
    ['#4a1f2e', '#200b14', '#f7e7dc', '#f0a35e', '#8a3b55'],
  ],
  lives: [
    ['#c8693d', '#7d3218', '#fff4e4', '#2b1d14', '#f2b872'],
    ['#b98b3e', '#6b4a16', '#fff8ea', '#2a2116', '#e9cf8f'],
    ['#7f8f6a', '#3f4a31', '#fbf6e8', '#231f17', '#c9d3a7'],
    ['#a4553f', '#562519', '#fff2e6', '#1e1510', '#e8a283'],
  ],
  'self-help': [
    ['#f4efe4', '#e6dccb', '#1f2a36', '#e4572e', '#2f6f8f'],
    ['#f7f1e3', '#ebe0c8', '#22303c', '#2a9d8f', '#e9c46a'],
    ['#eef1ec', '#d9e0d6', '#1d2b26', '#d1495b', '#3d7a66'],
    ['#f6ece6', '#e8d6cb', '#2c2230', '#f2a541', '#6c4f8c'],
  ],
  'poetry-classics': [
    ['#3b1c4a', '#1a0b22', '#f8ecd4', '#d9a441', '#7c4a93'],
    ['#5a1a22', '#260a0e', '#f8ead7', '#d8b06a', '#9b3a45'],
    ['#15324a', '#081727', '#eef0e6', '#c9a24a', '#3f6c8f'],
    ['#233a2e', '#0e1c15', '#f3eedb', '#cfa85a', '#4e7d62'],
  ],
};
const CATEGORY_LABEL = {
  novels: 'A Novel',
  lives: 'Lives & Memory',
  'self-help': 'A Guide',
  'poetry-classics': 'Poetry & Classics',
};

function titleSize(title) {
  const longestWord = Math.max(...title.split(/\s+/).map((w) => w.length));
  const len = title.length;
  let size = len <= 12 ? 76 : len <= 20 ? 66 : len <= 30 ? 56 : len <= 44 ? 48 : 42;
  // keep the longest word inside ~470px (≈0.6em per glyph in DejaVu Serif)
  size = Math.min(size, Math.floor(470 / (longestWord * 0.62)));
  return size;
}

// ---- motifs (return HTML placed in an absolutely positioned .art layer) ----
function motifWaves(p, r) {
  const [, , ink, accent, soft] = p;
  const bands = [];
  const n = 6 + Math.floor(r() * 4);
  for (let i = 0; i < n; i++) {
    const top = 470 + i * 55 + r() * 20;
    const amp = 14 + r() * 20;
    const period = 70 + Math.floor(r() * 60);
    const col = i % 3 === 0 ? accent : i % 3 === 1 ? soft : ink;
    const op = 0.18 + (i / n) * 0.5;
    bands.push(`<div style="position:absolute;left:-40px;right:-40px;top:${top}px;height:${amp * 2}px;opacity:${op.toFixed(2)};
      background:radial-gradient(circle at 50% 100%, transparent ${amp}px, ${col} ${amp + 1}px, ${col} ${amp + 4}px, transparent ${amp + 5}px) 0 0/${period}px ${amp * 2}px repeat-x;"></div>`);
  }
  const moonX = 120 + r() * 360;
  const moon = `<div style="position:absolute;left:${moonX}px;top:370px;width:120px;height:120px;border-radius:50%;
      background:radial-gradient(circle at 35% 35%, ${accent}, ${accent}cc 60%, transparent 62%);box-shadow:0 0 80px ${accent}66;"></div>`;
  return moon + bands.join('');
}

function motifMountains(p, r) {
  const [, , ink, accent, soft] = p;
  const layers = [];
  const colors = [soft + 'aa', soft, accent + 'cc', accent];
  for (let l = 0; l < 4; l++) {
    const base = 560 + l * 70;
    const pts = [`0px ${HEIGHT}px`];
    let x = 0;
    while (x <= WIDTH) {
      pts.push(`${x}px ${base - (40 + r() * (170 - l * 25))}px`);
      x += 60 + r() * 110;
      pts.push(`${Math.min(x, WIDTH)}px ${base + r() * 30}px`);
      x += 30 + r() * 50;
    }
    pts.push(`${WIDTH}px ${base}px`, `${WIDTH}px ${HEIGHT}px`);
    layers.push(`<div style="position:absolute;inset:0;background:${colors[l]};clip-path:polygon(${pts.join(',')});"></div>`);
  }
  const sunX = 80 + r() * 380;
  const sun = `<div style="position:absolute;left:${sunX}px;top:330px;width:150px;height:150px;border-radius:50%;
      background:repeating-linear-gradient(0deg, ${ink} 0 9px, transparent 9px 16px);opacity:.85"></div>`;
  return sun + layers.join('');
}

function motifGeometric(p, r, variant) {
  const [, , ink, accent, soft] = p;
  const kind = variant % 3;
  if (kind === 0) {
    // concentric rings, offset
    const cx = 180 + r() * 240;
    return `<div style="position:absolute;left:${cx - 230}px;top:330px;width:460px;height:460px;border-radius:50%;
      background:repeating-radial-gradient(circle, ${accent} 0 14px, transparent 14px 30px);opacity:.9"></div>
      <div style="position:absolute;left:${cx + 40}px;top:520px;width:220px;height:220px;border-radius:50%;background:${soft};mix-blend-mode:multiply;opacity:.85"></div>`;
  }
  if (kind === 1) {
    // grid of dots growing into a filled square: small habits, big doors
    const cells = [];
    for (let row = 0; row < 7; row++)
      for (let col = 0; col < 7; col++) {
        const s = 8 + (row + col) * 3.2;
        cells.push(`<div style="position:absolute;left:${90 + col * 62 + (30 - s / 2)}px;top:${350 + row * 62 + (30 - s / 2)}px;width:${s}px;height:${s}px;
          border-radius:${row + col > 9 ? 4 : 50}%;background:${(row + col) % 4 === 0 ? accent : ink};opacity:${(0.25 + (row + col) / 16).toFixed(2)}"></div>`);
      }
    return cells.join('');
  }
  // stacked arches / door
  const arches = [];
  for (let i = 0; i < 5; i++) {
    const w = 420 - i * 70;
    arches.push(`<div style="position:absolute;left:${(WIDTH - w) / 2}px;top:${340 + i * 45}px;width:${w}px;height:${560 - i * 45}px;
      border-radius:${w / 2}px ${w / 2}px 0 0;background:${[soft, accent, ink, soft, accent][i]};opacity:${[0.35, 0.85, 0.9, 0.9, 1][i]}"></div>`);
  }
  return arches.join('');
}

function motifOrnament(p, r) {
  const [, , , accent, soft] = p;
  const petals = [];
  const n = 8 + 2 * Math.floor(r() * 4);
  for (let i = 0; i < n; i++) {
    petals.push(`<div style="position:absolute;left:250px;top:420px;width:100px;height:190px;border-radius:50% 50% 50% 50% / 70% 70% 30% 30%;
      transform-origin:50px 190px;transform:rotate(${(360 / n) * i}deg) translateY(-40px);
      border:2px solid ${accent};background:linear-gradient(${soft}55, transparent);"></div>`);
  }
  return `<div style="position:absolute;left:0;top:0;width:${WIDTH}px;height:${HEIGHT}px;transform:translateY(40px) scale(.92)">${petals.join('')}
    <div style="position:absolute;left:272px;top:582px;width:56px;height:56px;border-radius:50%;background:${accent}"></div></div>
    <div style="position:absolute;inset:22px;border:2px solid ${accent};"></div>
    <div style="position:absolute;inset:32px;border:1px solid ${accent}99;"></div>
    <div style="position:absolute;left:0;right:0;bottom:0;height:60px;background:repeating-linear-gradient(90deg, ${accent}55 0 2px, transparent 2px 14px);"></div>`;
}

const MOTIFS = { novels: motifWaves, lives: motifMountains, 'self-help': motifGeometric, 'poetry-classics': motifOrnament };

// variant: the book's position within its category, so neighbours on a shelf differ.
export function coverHtml(book, variant = hash(book.key)) {
  const r = rng(hash(book.key));
  const palettes = PALETTES[book.category] ?? PALETTES.novels;
  const p = palettes[variant % palettes.length];
  const [bgA, bgB, ink, accent] = p;
  const motif = (MOTIFS[book.category] ?? motifWaves)(p, r, variant);
  const size = titleSize(book.title);
  const tag = (book.tags && book.tags[0]) || CATEGORY_LABEL[book.category] || '';
  const light = book.category === 'self-help';
  const titleShadow = light ? 'none' : '0 2px 18px rgba(0,0,0,.35)';
  return `<!doctype html><html><head><meta charset="utf-8"><style>
  *{box-sizing:border-box;margin:0;padding:0}
  html,body{width:${WIDTH}px;height:${HEIGHT}px;overflow:hidden}
  body{position:relative;background:linear-gradient(160deg, ${bgA} 0%, ${bgB} 100%);font-family:${SERIF};color:${ink}}
  .grain{position:absolute;inset:0;background:repeating-linear-gradient(45deg, rgba(255,255,255,.025) 0 2px, transparent 2px 6px);}
  .art{position:absolute;inset:0;overflow:hidden}
  .head{position:absolute;left:56px;right:56px;top:70px;text-align:center}
  .kicker{font-family:${SANS};font-size:15px;letter-spacing:.32em;text-transform:uppercase;color:${accent};margin-bottom:26px}
  .rule{width:70px;height:3px;background:${accent};margin:0 auto 26px}
  h1{font-size:${size}px;line-height:1.08;font-weight:700;letter-spacing:-.01em;text-shadow:${titleShadow};hyphens:none;overflow-wrap:normal}
  .author{position:absolute;left:40px;right:40px;bottom:52px;text-align:center;font-size:25px;letter-spacing:.2em;text-transform:uppercase;
    font-variant:small-caps;color:${ink};}
  .author span{display:inline-block;padding:10px 22px;background:${light ? 'rgba(255,255,255,.82)' : 'rgba(0,0,0,.38)'};border-top:2px solid ${accent}}
  .persona{position:absolute;right:46px;top:44px;font-family:${SANS};font-size:11px;letter-spacing:.25em;color:${accent};opacity:.8;text-transform:uppercase}
  </style></head><body>
  <div class="grain"></div>
  <div class="art">${motif}</div>
  <div class="persona">Persona</div>
  <div class="head"><div class="kicker">${esc(tag)}</div><div class="rule"></div><h1>${esc(book.title)}</h1></div>
  <div class="author"><span>${esc(book.author)}</span></div>
  </body></html>`;
}

async function main() {
  const only = new Set(process.argv.slice(2));
  const catalogue = JSON.parse(await readFile(path.join(seedDir, 'demo-catalogue.json'), 'utf8'));
  await mkdir(outDir, { recursive: true });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS],
  });
  try {
    const context = await browser.newContext({ viewport: { width: WIDTH, height: HEIGHT }, deviceScaleFactor: SCALE });
    // Covers are self-contained: refuse any request that is not the page itself.
    await context.route('**/*', (route) => (route.request().url().startsWith('data:') ? route.continue() : route.abort()));
    const page = await context.newPage();
    const seen = {};
    for (const book of catalogue.books) {
      const variant = (seen[book.category] = (seen[book.category] ?? -1) + 1);
      if (only.size && !only.has(book.key)) continue;
      await page.setContent(coverHtml(book, variant), { waitUntil: 'load' });
      const file = path.join(outDir, book.cover);
      await page.screenshot({ path: file, type: 'jpeg', quality: QUALITY, clip: { x: 0, y: 0, width: WIDTH, height: HEIGHT } });
      const { size } = await stat(file);
      console.log(`${book.cover.padEnd(44)} ${(size / 1024).toFixed(1)} KB`);
    }
  } finally {
    await browser.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
