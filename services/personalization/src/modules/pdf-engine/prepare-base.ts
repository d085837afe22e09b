// A book's PDF made ready for stamping: what a Persona's incremental update
// needs to know about it, read once and cached per source. The page tree is
// read at the byte level (raw-syntax.ts): every entry the update does not
// change is kept exactly as written, so writing a page's new version is a copy.
import { PDFDocument, PDFInvalidObject, PDFName, PDFNull, PDFRef, ParseSpeeds, type PDFDict } from 'pdf-lib';
import { BudgetMeter, DOCUMENT_BUDGET, FileRefusedError, gaugePdf } from '@persona/untrusted';
import { UnreadableSourceError } from './errors';
import type { UpdateObject } from './incremental-update';
import { BrokenXrefError, PdfSource } from './pdf-source';
import { SyntaxError as RawSyntaxError, arrayItems, kindOf, nameOf, numberOf, refOf, scanDict, type RawEntry, type Span } from './raw-syntax';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface BaseResources {
  /** Reached through a reference or inherited from a page-tree node: one rewritten copy serves every page that shares it. */
  shared: boolean;
  /** Which dictionary it is, for sharing its rewritten copy. */
  key: string;
  /**
   * The dictionary as written, cut where the footer's font entries go (just
   * before the font dictionary closes): `head` + entries + `tail` is the new
   * resource dictionary.
   */
  head: Uint8Array;
  tail: Uint8Array;
}

export interface BasePage {
  ref: PDFRef;
  /** The page dictionary's entries as written, less /Contents, /Resources and /AA. */
  entries: Uint8Array;
  /** Its content streams as written (references, space-separated), in order. */
  contents: Uint8Array;
  resources: BaseResources;
  /** Crop box (else media box), normalised. */
  box: Box;
  /** /Rotate, normalised to 0, 90, 180 or 270. */
  rotation: number;
}

export interface BaseTreeNode {
  ref: PDFRef;
  /** Its entries as written, less /Kids and /Count. */
  entries: Uint8Array;
  /** Its kids as written (`n g R`). */
  kids: Uint8Array[];
  count: number;
}

export interface PreparedBase {
  /** The file to append to: the source, its metadata blanked (see `scrub`). */
  bytes: Uint8Array;
  xrefKind: 'table' | 'stream';
  /** Offset of its last cross-reference section. */
  startxref: number;
  /** Objects of blanked object streams: each update writes those it does not replace. */
  relocated: UpdateObject[];
  /** First object number an update may use. */
  nextObjectNumber: number;
  root: PDFRef;
  /** The catalog entries a Persona keeps (nothing active, no XMP), as written. */
  catalogEntries: Uint8Array;
  pages: BasePage[];
  /** The first page's parent, then its ancestors up to the root of the page tree. */
  firstPageAncestors: BaseTreeNode[];
  /** Where the first page sits in its parent's /Kids. */
  firstPageIndex: number;
  /** Font resource names (without the slash) like the footer's, should any page use one. */
  fontNames: ReadonlySet<string>;
  /** Rough memory held by this entry, for the cache's budget. */
  footprint: number;
}

const MAX_TREE_DEPTH = 64;
const LETTER: Box = { x: 0, y: 0, width: 612, height: 792 };

/** Catalog entries that say how to show the document and carry nothing active or personal (no /OpenAction, /AA, /AcroForm, /Metadata, /Outlines, /PageLabels…). */
const KEPT_CATALOG_KEYS = new Set(['Pages', 'Version', 'Extensions', 'PageLayout', 'ViewerPreferences', 'Lang', 'Dests', 'OCProperties']);
const KEPT_PAGE_MODES = new Set(['UseNone', 'UseThumbs', 'FullScreen', 'UseOC']);

/**
 * Reads a source PDF for stamping. A file whose cross-reference data or page
 * tree cannot be trusted is first rewritten by pdf-lib (its pages copied into
 * a fresh file); what pdf-lib cannot read either, or an encrypted file, is refused.
 */
export async function prepareBase(input: Uint8Array): Promise<PreparedBase> {
  // Measured first: neither our reader nor pdf-lib's rewrite meets a stream that unpacks past the budget.
  try {
    gaugePdf(input, new BudgetMeter(DOCUMENT_BUDGET, "The book's PDF"));
  } catch (error) {
    if (error instanceof FileRefusedError) throw new UnreadableSourceError(`the book's PDF cannot be read: ${error.message}`, { cause: error });
    throw error;
  }
  try {
    return readBase(new Uint8Array(input));
  } catch (error) {
    if (!(error instanceof BrokenXrefError)) throw error;
  }
  const rewritten = await rewriteWithPdfLib(input);
  try {
    return readBase(rewritten);
  } catch (error) {
    if (error instanceof BrokenXrefError) throw new UnreadableSourceError(`the book's PDF cannot be read: ${error.message}`, { cause: error });
    throw error;
  }
}

/** `bytes` must be the caller's own: the source's metadata is blanked in it. `meter` counts what its structural streams decode to. */
export function readBase(bytes: Uint8Array, meter?: BudgetMeter): PreparedBase {
  const source = new PdfSource(bytes, meter);
  source.validate();
  if (source.trailer.Encrypt !== undefined) throw new UnreadableSourceError("the book's PDF is encrypted");
  const root = source.trailer.Root;
  if (!(root instanceof PDFRef)) throw new BrokenXrefError('the trailer names no catalog');
  const catalog = dictEntries(source, source.raw(root.objectNumber), 'the catalog');
  const pagesRef = refIn(catalog, 'Pages');
  if (!pagesRef) throw new BrokenXrefError('the catalog has no page tree');

  const tree = walkPageTree(source, pagesRef);
  if (tree.pages.length === 0) throw new UnreadableSourceError("the book's PDF has no pages");

  const kept: Array<Uint8Array | string> = ['/Type /Catalog\n'];
  for (const entry of catalog) {
    if (KEPT_CATALOG_KEYS.has(entry.key)) kept.push(entryBytes(entry), '\n');
    else if (entry.key === 'PageMode' && KEPT_PAGE_MODES.has(nameOf(entry.value) ?? '')) kept.push(entryBytes(entry), '\n');
    else if (entry.key === 'Names') {
      // Only the named destinations (what links inside the book point at); no scripts, no attachments.
      const dests = dictEntries(source, source.rawResolve(entry.value), 'the name dictionary', true).find((e) => e.key === 'Dests');
      if (dests) kept.push('/Names << ', entryBytes(dests), ' >>\n');
    }
  }

  const metadata = refIn(catalog, 'Metadata');
  const scrubbed = scrub(source, bytes, metadata?.[0]);
  // Every update writes these anyway.
  const rewritten = new Set([
    root.objectNumber,
    ...tree.pages.map((page) => page.ref.objectNumber),
    ...tree.firstPageAncestors.map((node) => node.ref.objectNumber),
  ]);
  const relocated = scrubbed.relocated.filter(({ ref }) => !rewritten.has(ref.objectNumber));
  return {
    bytes: scrubbed.bytes,
    xrefKind: source.sections[0].kind,
    startxref: source.startxref,
    nextObjectNumber: source.nextObjectNumber(),
    relocated,
    root,
    catalogEntries: concat(kept),
    pages: tree.pages,
    firstPageAncestors: tree.firstPageAncestors,
    firstPageIndex: tree.firstPageIndex,
    fontNames: tree.fontNames,
    // Measured (heap and array buffers after GC) on the bench's 300-page book: about 1.9 MB for a 292 KB file.
    footprint:
      scrubbed.bytes.length + 3 * (tree.rawBytes + relocated.reduce((sum, { object }) => sum + object.sizeInBytes(), 0)) + tree.pages.length * 1536 + 16_384,
  };
}

function dictEntries(source: PdfSource, span: Span | undefined, what: string, optional = false): RawEntry[] {
  if (!span || kindOf(span) !== 'dict') {
    if (optional) return [];
    throw new BrokenXrefError(`${what} is not a dictionary`);
  }
  try {
    return scanDict(span.bytes, span.start).entries;
  } catch (error) {
    if (error instanceof RawSyntaxError) throw new BrokenXrefError(`${what}: ${error.message}`);
    throw error;
  }
}

function items(span: Span, what: string): Span[] {
  try {
    return arrayItems(span);
  } catch (error) {
    if (error instanceof RawSyntaxError) throw new BrokenXrefError(`${what}: ${error.message}`);
    throw error;
  }
}

function find(entries: RawEntry[], key: string): Span | undefined {
  for (const entry of entries) if (entry.key === key) return entry.value;
  return undefined;
}

function refIn(entries: RawEntry[], key: string): [number, number] | undefined {
  const value = find(entries, key);
  return value && refOf(value);
}

function entryBytes(entry: RawEntry): Uint8Array {
  return entry.value.bytes.subarray(entry.keyStart, entry.value.end);
}

/** "/Key value\n" for every entry not in `skip`. */
function keptEntries(entries: RawEntry[], skip: ReadonlySet<string>): Uint8Array {
  const parts: Array<Uint8Array | string> = [];
  for (const entry of entries) if (!skip.has(entry.key)) parts.push(entryBytes(entry), '\n');
  return concat(parts);
}

export function concat(parts: ReadonlyArray<Uint8Array | string>): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    if (typeof part === 'string') {
      for (let i = 0; i < part.length; i += 1) out[at + i] = part.charCodeAt(i);
    } else {
      out.set(part, at);
    }
    at += part.length;
  }
  return out;
}

interface Inherited {
  resources?: { span: Span; owner: number };
  mediaBox?: Span;
  cropBox?: Span;
  rotate?: Span;
}

const TREE_NODE_SKIP = new Set(['Kids', 'Count']);
const PAGE_SKIP = new Set(['Contents', 'Resources', 'AA']);
const RESOURCES_SKIP = new Set(['Font']);

function walkPageTree(source: PdfSource, [rootNum, rootGen]: [number, number]) {
  const pages: BasePage[] = [];
  const fontNames = new Set<string>();
  const visited = new Set<number>();
  const resourcesByKey = new Map<string, BaseResources>();
  let firstPageAncestors: BaseTreeNode[] = [];
  let firstPageIndex = -1;
  let rawBytes = 0;

  const resourcesOf = (key: string, span: Span | undefined, shared: boolean): BaseResources => {
    const known = key ? resourcesByKey.get(key) : undefined;
    if (known) return known;
    const resolved = source.rawResolve(span);
    const entries = dictEntries(source, resolved, 'a resource dictionary', true);
    const fontValue = find(entries, 'Font');
    let resources: BaseResources;
    let fontDict: Span | undefined;
    if (resolved && fontValue && kindOf(fontValue) === 'dict') {
      // The font dictionary is written inside: copy everything, cut before its closing >>.
      fontDict = fontValue;
      const { bytes } = resolved;
      resources = { shared, key, head: bytes.slice(resolved.start, fontValue.end - 2), tail: concat(['\n', bytes.subarray(fontValue.end - 2, resolved.end)]) };
    } else {
      fontDict = source.rawResolve(fontValue);
      if (fontDict && kindOf(fontDict) !== 'dict') fontDict = undefined;
      const inner = fontDict ? fontDict.bytes.subarray(fontDict.start + 2, fontDict.end - 2) : new Uint8Array(0);
      resources = {
        shared,
        key,
        head: concat(['<<\n', keptEntries(entries, RESOURCES_SKIP), '/Font <<', inner, '\n']),
        tail: new TextEncoder().encode('>>\n>>'),
      };
    }
    // Names the footer must not take. Only looked at closely when a page already uses one like them.
    if (fontDict && Buffer.from(fontDict.bytes.buffer, fontDict.bytes.byteOffset + fontDict.start, fontDict.end - fontDict.start).includes('/Persona-')) {
      for (const font of dictEntries(source, fontDict, 'a font resource dictionary')) fontNames.add(font.key);
    }
    rawBytes += resources.head.length + resources.tail.length;
    if (key) resourcesByKey.set(key, resources);
    return resources;
  };

  const visit = (num: number, gen: number, inherited: Inherited, path: BaseTreeNode[], indexInParent: number): number => {
    if (path.length > MAX_TREE_DEPTH) throw new BrokenXrefError('the page tree is too deep');
    if (visited.has(num)) throw new BrokenXrefError(`the page tree visits object ${num} twice`);
    visited.add(num);
    const entries = dictEntries(source, source.raw(num), `page-tree object ${num}`);
    const type = nameOf(find(entries, 'Type'));
    const kidsValue = find(entries, 'Kids');
    const ownResources = find(entries, 'Resources');
    const here: Inherited = {
      resources: ownResources ? { span: ownResources, owner: num } : inherited.resources,
      mediaBox: find(entries, 'MediaBox') ?? inherited.mediaBox,
      cropBox: find(entries, 'CropBox') ?? inherited.cropBox,
      rotate: find(entries, 'Rotate') ?? inherited.rotate,
    };
    if (type === 'Pages' || (type !== 'Page' && kidsValue !== undefined)) {
      const kidsSpan = source.rawResolve(kidsValue);
      if (!kidsSpan || kindOf(kidsSpan) !== 'array') throw new BrokenXrefError(`page-tree node ${num} has no /Kids array`);
      const kids = items(kidsSpan, `the /Kids of ${num}`);
      const countSpan = source.rawResolve(find(entries, 'Count'));
      const node: BaseTreeNode = {
        ref: PDFRef.of(num, gen),
        entries: keptEntries(entries, TREE_NODE_SKIP),
        kids: kids.map((kid) => kid.bytes.slice(kid.start, kid.end)),
        count: numberOf(countSpan) ?? -1,
      };
      let leaves = 0;
      kids.forEach((kid, index) => {
        const ref = refOf(kid);
        if (!ref) throw new BrokenXrefError(`page-tree node ${num} has a kid that is not a reference`);
        leaves += visit(ref[0], ref[1], here, [...path, node], index);
      });
      if (node.count !== leaves) throw new BrokenXrefError(`page-tree node ${num} says /Count ${node.count} but holds ${leaves} pages`);
      return leaves;
    }
    if (path.length === 0) throw new BrokenXrefError('the page tree root is a page');

    let resources: BaseResources;
    if (ownResources) {
      const ref = refOf(ownResources);
      resources = ref ? resourcesOf(`r${ref[0]}`, ownResources, true) : resourcesOf('', ownResources, false);
    } else if (inherited.resources) {
      const ref = refOf(inherited.resources.span);
      resources = resourcesOf(ref ? `r${ref[0]}` : `i${inherited.resources.owner}`, inherited.resources.span, true);
    } else {
      resources = resourcesOf('', undefined, false);
    }

    if (pages.length === 0) {
      firstPageAncestors = [...path].reverse();
      firstPageIndex = indexInParent;
    }
    const page: BasePage = {
      ref: PDFRef.of(num, gen),
      entries: keptEntries(entries, PAGE_SKIP),
      contents: contentsOf(source, find(entries, 'Contents')),
      resources,
      box: rectangle(source, here.cropBox) ?? rectangle(source, here.mediaBox) ?? LETTER,
      rotation: normaliseRotation(numberOf(source.rawResolve(here.rotate)) ?? 0),
    };
    rawBytes += page.entries.length + page.contents.length;
    pages.push(page);
    return 1;
  };

  visit(rootNum, rootGen, {}, [], -1);
  return { pages, fontNames, firstPageAncestors, firstPageIndex, rawBytes };
}

/** A page's content streams as written, without parsing them: /Contents is a stream reference, an array of them, or a reference to such an array. */
function contentsOf(source: PdfSource, value: Span | undefined): Uint8Array {
  if (!value) return new Uint8Array(0);
  const ref = refOf(value);
  const array = ref ? (source.isArray(ref[0]) ? source.raw(ref[0]) : undefined) : kindOf(value) === 'array' ? value : undefined;
  if (array) {
    const parts: Array<Uint8Array | string> = [];
    for (const item of items(array, 'a page /Contents')) parts.push(item.bytes.subarray(item.start, item.end), ' ');
    return concat(parts);
  }
  return ref ? value.bytes.slice(value.start, value.end) : new Uint8Array(0);
}

function rectangle(source: PdfSource, value: Span | undefined): Box | undefined {
  const span = source.rawResolve(value);
  if (!span || kindOf(span) !== 'array') return undefined;
  const numbers = items(span, 'a page box').map((item) => numberOf(source.rawResolve(item)));
  if (numbers.length !== 4 || numbers.some((n) => n === undefined || !Number.isFinite(n))) return undefined;
  const [x1, y1, x2, y2] = numbers as number[];
  const box = { x: Math.min(x1, x2), y: Math.min(y1, y2), width: Math.abs(x2 - x1), height: Math.abs(y2 - y1) };
  return box.width > 0 && box.height > 0 ? box : undefined;
}

function normaliseRotation(degrees: number): number {
  const quarter = Math.round(degrees / 90);
  return (((quarter % 4) + 4) % 4) * 90;
}

const INFO_KEYS = ['Title', 'Author', 'Subject', 'Keywords', 'Creator', 'Producer', 'CreationDate', 'ModDate'].map((key) => PDFName.of(key));

function looksLikeInfo(dict: PDFDict | undefined): boolean {
  return Boolean(dict && dict.get(PDFName.of('Type')) === undefined && dict.keys().some((key) => INFO_KEYS.includes(key)));
}

/**
 * Blanks the source's document metadata (the trailer's /Info, an older
 * revision's /Info, the catalog's XMP /Metadata) so a Persona carries no trace
 * of it: an object stored at an offset is overwritten in place with `null`
 * (same length, so every offset stays right); an object stream holding one is
 * blanked the same way, and its other objects are written again by every
 * Persona's update (which rewrites most of them anyway: they are usually pages).
 */
function scrub(source: PdfSource, bytes: Uint8Array, metadata: number | undefined): { bytes: Uint8Array; relocated: UpdateObject[] } {
  const current = new Set<number>();
  const info = source.sections[0].trailer.get(PDFName.of('Info'));
  if (info instanceof PDFRef) current.add(info.objectNumber);
  if (metadata !== undefined) current.add(metadata);
  const targets = new Set(current);
  for (const section of source.sections.slice(1)) {
    const old = section.trailer.get(PDFName.of('Info'));
    if (!(old instanceof PDFRef) || targets.has(old.objectNumber)) continue;
    const newest = source.entries.get(old.objectNumber);
    if (!newest || newest.kind === 'free' || looksLikeInfo(source.resolveDict(old))) targets.add(old.objectNumber);
  }

  const blank: Array<{ num: number; offset: number }> = [];
  const streams = new Set<number>();
  for (const num of targets) {
    const seen = new Set<number>();
    for (const section of source.sections) {
      const entry = section.entries.get(num);
      if (entry?.kind === 'offset' && !seen.has(entry.offset)) {
        seen.add(entry.offset);
        blank.push({ num, offset: entry.offset });
      }
    }
    const newest = source.entries.get(num);
    if (newest?.kind === 'compressed') streams.add(newest.stream);
  }

  const relocated: UpdateObject[] = [];
  const moved = new Set<number>();
  for (const stream of [...streams].sort((a, b) => a - b)) {
    for (const num of source.objectStreamMembers(stream)) {
      const entry = source.entries.get(num);
      if (entry?.kind !== 'compressed' || entry.stream !== stream || moved.has(num)) continue;
      moved.add(num);
      const span = targets.has(num) ? undefined : source.raw(num);
      relocated.push({ ref: PDFRef.of(num), object: span ? PDFInvalidObject.of(span.bytes.slice(span.start, span.end)) : PDFNull });
    }
    const holder = source.entries.get(stream);
    if (holder?.kind === 'offset') blank.push({ num: stream, offset: holder.offset });
  }

  // Measure every span before writing any: parsing reads the same bytes.
  const spans = blank.map(({ num, offset }) => source.parseIndirect(num, offset));
  const filler = ' null';
  for (const { body, end } of spans) {
    if (end - body < filler.length + 1) continue;
    bytes.fill(0x20, body, end);
    for (let i = 0; i < filler.length; i += 1) bytes[body + i] = filler.charCodeAt(i);
    bytes[end - 1] = 0x0a;
  }

  return { bytes, relocated };
}

/** What the engine once did with every source: pdf-lib parses it and copies its pages into a fresh file (no metadata, no XMP). */
async function rewriteWithPdfLib(bytes: Uint8Array): Promise<Uint8Array> {
  let source: PDFDocument;
  try {
    source = await PDFDocument.load(bytes, { ignoreEncryption: false, updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
  } catch (error) {
    throw new UnreadableSourceError(`the book's PDF cannot be read: ${(error as Error).message}`, { cause: error });
  }
  let count: number;
  try {
    count = source.getPageCount();
  } catch (error) {
    throw new UnreadableSourceError(`the book's PDF has no readable page tree: ${(error as Error).message}`, { cause: error });
  }
  if (count === 0) throw new UnreadableSourceError("the book's PDF has no pages");
  const doc = await PDFDocument.create({ updateMetadata: false });
  try {
    for (const page of await doc.copyPages(source, source.getPageIndices())) doc.addPage(page);
  } catch (error) {
    throw new UnreadableSourceError(`the book's PDF pages cannot be copied: ${(error as Error).message}`, { cause: error });
  }
  return doc.save({ useObjectStreams: false, objectsPerTick: Infinity, updateFieldAppearances: false });
}
