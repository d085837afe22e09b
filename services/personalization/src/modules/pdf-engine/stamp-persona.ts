// One Persona of a prepared book, as a single incremental update appended to
// the book's bytes: the book's cover before its first page (when it has one),
// the dedication page after the first page, the colophon after the last, the footer on
// every page (marked as a pagination artifact), the copy's leak mark on every
// page (leak-mark/pdf-mark.ts), a catalog without the source's XMP or anything
// active, new metadata, and a fixed /ID. Only the objects that change are written.
import { type PDFArray, PDFDict, PDFDocument, PDFHexString, PDFInvalidObject, PDFName, PDFNumber, PDFPage, type PDFRef, PDFString } from 'pdf-lib';
import { compressContentStreams, deferContentCompression } from './content-streams';
import { appendUpdate, type UpdateObject } from './incremental-update';
import type { FaceName } from '../fonts/faces';
import { PersonaFonts } from '../fonts/persona-fonts';
import { splitRuns } from '../fonts/text-runs';
import { drawImage, fitWithin, registerImage, type PreparedImage } from './images';
import { Frame, drawColophonPage, drawDedicationPage, footerPlacement, type ColophonText, type DedicationText } from './persona-pages';
import { markContent } from '../leak-mark/pdf-mark';
import { concat, type BasePage, type BaseResources, type PreparedBase } from './prepare-base';

export interface PersonaStamp {
  dedication: DedicationText;
  colophon: ColophonText;
  /** The book's cover, page 1; null when it has none. */
  cover: PreparedImage | null;
  /** The author's own signature, on the dedication page; null when the shop signs for the author. */
  authorSignature: PreparedImage | null;
  footer: string;
  metadata: { title: string; author: string; subject: string; keywords: string[]; creator: string; producer: string; date: Date; personaId: string };
  /** 32 hex digits: the file's fixed /ID. */
  documentId: string;
  /** The copy's 48-bit leak mark (leak-mark/mark-code.ts). */
  mark: number;
}

export interface StampedPdf {
  bytes: Uint8Array;
  pages: number;
}

const N = (name: string) => PDFName.of(name);

export async function stampPersona(base: PreparedBase, stamp: PersonaStamp): Promise<StampedPdf> {
  const scratch = await PDFDocument.create({ updateMetadata: false });
  const context = scratch.context;
  // The scratch document's own catalog and page tree keep their low numbers and are never written.
  context.largestObjectNumber = Math.max(context.largestObjectNumber, base.nextObjectNumber - 1);
  deferContentCompression(context);
  const fonts = await PersonaFonts.embed(scratch);
  const written: UpdateObject[] = [];

  // The dedication page, the size the first page is shown at, upright.
  const first = base.pages[0];
  const [parent, ...ancestors] = base.firstPageAncestors;
  const sideways = first.rotation === 90 || first.rotation === 270;
  const [width, height] = sideways ? [first.box.height, first.box.width] : [first.box.width, first.box.height];
  // A page of the Persona's own: the size the first page is shown at, upright, its own box and
  // rotation whatever the page-tree node it joins would hand down, and the footer.
  // Its /Parent is set once it is drawn: the book's page-tree numbers may name other objects in the
  // scratch document, which pdf-lib would climb while drawing.
  const parents = new Map<PDFPage, PDFRef>();
  const ownPage = (parentRef: PDFRef, draw: (page: PDFPage) => void): PDFPage => {
    const page = PDFPage.create(scratch);
    page.setSize(width, height);
    draw(page);
    fonts.drawLines(page, [footerPlacement({ x: 0, y: 0, width, height }, 0, fonts, stamp.footer)]);
    parents.set(page, parentRef);
    page.node.set(N('CropBox'), context.obj([0, 0, width, height]));
    page.node.set(N('Rotate'), PDFNumber.of(0));
    return page;
  };
  const signature = stamp.authorSignature ? registerImage(context, stamp.authorSignature) : null;
  const dedication = ownPage(parent.ref, (page) => drawDedicationPage(new Frame(page, fonts, signature), stamp.dedication));
  const treeRoot = ancestors.length ? ancestors[ancestors.length - 1]! : parent;
  // The colophon closes the book and the cover opens it: both hang from the root of the page tree.
  const colophon = ownPage(treeRoot.ref, (page) => drawColophonPage(new Frame(page, fonts), stamp.colophon));
  const cover = stamp.cover
    ? ownPage(treeRoot.ref, (page) => {
        // The whole cover, as large as the page allows between the leak mark's row at the top (pale
        // on white paper, it would show on a dark cover) and the footer's band, centred.
        const place = fitWithin(stamp.cover!, { x: 0, y: 34, width, height: height - 34 - 18 });
        drawImage(page, registerImage(context, stamp.cover!), place.x, place.y, place.width, place.height);
      })
    : null;
  const added = [dedication, colophon, ...(cover ? [cover] : [])];

  // The leak mark: one stream per page geometry, after everything else a page draws.
  const marks = new Map<string, PDFRef>();
  const markFor = (box: BasePage['box'], rotation: number): PDFRef => {
    const key = `${box.x} ${box.y} ${box.width} ${box.height} ${rotation}`;
    let ref = marks.get(key);
    if (!ref) {
      ref = context.register(context.stream(markContent(box, rotation, stamp.mark)));
      marks.set(key, ref);
    }
    return ref;
  };
  for (const page of added) {
    page.node.addContentStream(markFor({ x: 0, y: 0, width, height }, 0));
    page.node.set(N('Parent'), parents.get(page)!);
  }

  // The footer's fonts, under names no page of the book uses.
  const footerNames = new Map<FaceName, PDFName>();
  for (const { face } of splitRuns(stamp.footer, 'sans')) {
    if (footerNames.has(face)) continue;
    let name = `Persona-${face}`;
    while (base.fontNames.has(name)) name += '_';
    footerNames.set(face, N(name));
  }

  // Every page: [q, its own content, Q + footer]; one footer stream per page geometry.
  const open = context.register(context.stream('q\n'));
  const footers = new Map<string, PDFRef>();
  const footerFor = (page: BasePage): PDFRef => {
    const key = `${page.box.x} ${page.box.y} ${page.box.width} ${page.box.height} ${page.rotation}`;
    let ref = footers.get(key);
    if (!ref) {
      const placed = footerPlacement(page.box, page.rotation, fonts, stamp.footer);
      const operators = fonts.textOperators([placed], (face) => footerNames.get(face) as PDFName);
      // Q closes the q that opens the page, so the page's own graphics state cannot move the footer.
      const footer = operators.map((op) => op.toString()).join('\n');
      ref = context.register(context.stream(`\nQ\n/Artifact <</Type /Pagination /Subtype /Footer>> BDC\n${footer}\nEMC\n`));
      footers.set(key, ref);
    }
    return ref;
  };
  const footerFonts = [...footerNames].map(([face, name]) => `${name.asString()} ${fonts.ref(face, 'sans').toString()}\n`).join('');
  const resourcesBytes = (resources: BaseResources) => concat([resources.head, '\n', footerFonts, resources.tail]);
  const sharedResources = new Map<string, string>();
  const resourcesFor = (page: BasePage): Uint8Array | string => {
    const { resources } = page;
    if (!resources.shared) return resourcesBytes(resources);
    let ref = sharedResources.get(resources.key);
    if (!ref) {
      ref = context.register(PDFInvalidObject.of(resourcesBytes(resources))).toString();
      sharedResources.set(resources.key, ref);
    }
    return ref;
  };
  const openRef = `${open.toString()} `;
  for (const page of base.pages) {
    const object = concat([
      '<<\n',
      page.entries,
      '/Contents [',
      openRef,
      page.contents,
      ' ',
      footerFor(page).toString(),
      ' ',
      markFor(page.box, page.rotation).toString(),
      ']\n/Resources ',
      resourcesFor(page),
      '\n>>',
    ]);
    written.push({ ref: page.ref, object: PDFInvalidObject.of(object) });
  }

  // The page tree: the dedication after the first page, one more page counted up to the root; at
  // the root, the cover first and the colophon last, counted there.
  const chain = [parent, ...ancestors];
  for (const node of chain) {
    const kids: Array<Uint8Array | string> = [];
    if (node === treeRoot && cover) kids.push(cover.ref.toString(), ' ');
    node.kids.forEach((kid, index) => {
      kids.push(kid, ' ');
      if (node === parent && index === base.firstPageIndex) kids.push(dedication.ref.toString(), ' ');
    });
    if (node === treeRoot) kids.push(colophon.ref.toString(), ' ');
    const count = node.count + 1 + (node === treeRoot ? added.length - 1 : 0);
    written.push({
      ref: node.ref,
      object: PDFInvalidObject.of(concat(['<<\n', node.entries, '/Kids [', ...kids, ']\n/Count ', String(count), '\n>>'])),
    });
  }
  written.push({ ref: base.root, object: PDFInvalidObject.of(concat(['<<\n', base.catalogEntries, '>>'])) });

  const { metadata } = stamp;
  scratch.setTitle(metadata.title);
  scratch.setAuthor(metadata.author);
  scratch.setSubject(metadata.subject);
  scratch.setKeywords(metadata.keywords);
  scratch.setCreator(metadata.creator);
  scratch.setProducer(metadata.producer);
  scratch.setCreationDate(metadata.date);
  scratch.setModificationDate(metadata.date);
  const infoRef = context.trailerInfo.Info as PDFRef;
  // Found by the verification upload without parsing the page text.
  context.lookup(infoRef, PDFDict).set(N('PersonaId'), PDFString.of(metadata.personaId));

  fonts.finish(scratch);
  compressContentStreams(context);
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    if (ref.objectNumber >= base.nextObjectNumber) written.push({ ref, object });
  }
  const replaced = new Set(written.map(({ ref }) => ref.objectNumber));
  for (const object of base.relocated) if (!replaced.has(object.ref.objectNumber)) written.push(object);
  const id = PDFHexString.of(stamp.documentId);
  const update = appendUpdate(
    base.bytes,
    base.startxref,
    base.xrefKind,
    written,
    { size: context.largestObjectNumber + 1, root: base.root, info: infoRef, id: context.obj([id, id]) as PDFArray },
    context,
  );
  return { bytes: update.bytes, pages: base.pages.length + added.length };
}
