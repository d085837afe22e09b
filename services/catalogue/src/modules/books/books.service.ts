// Book writes. Files are stored first (under fresh keys), then the row and its
// event commit together; if the transaction fails the new files are removed,
// and files a change replaced are removed only after the commit.
import { createEvent } from '@persona/bus';
import { DEFAULT_BOOK_LANGUAGE, isWholePaise, rupeesToPaise, type Book, type BookFieldsUpdate } from '@persona/contracts';
import { badRequest, notFound } from '@persona/service-kit';
import { bumpCatalogueVersion } from '../catalogue-version.repository';
import type { WriteContext } from '../context';
import type { FileArea, FileStorage } from '../files/file-storage';
import { toBook } from './books.mapper';
import * as repo from './books.repository';
import { refreshTagCounts } from './tags.repository';
import type { BookForm, Upload } from './parse-book-form';

export interface BookWriteContext extends WriteContext {
  storage: FileStorage;
}

function checkMoney(fields: BookFieldsUpdate): void {
  for (const name of ['price', 'printingCost'] as const) {
    const value = fields[name];
    if (value !== undefined && !isWholePaise(value)) throw badRequest(`body field "${name}" must have at most two decimals`);
  }
}

async function storeUploads(storage: FileStorage, files: BookForm['files']) {
  const written: string[] = [];
  const put = async (area: FileArea, upload: Upload) => {
    const key = await storage.putFile(area, upload.type.ext, upload.file.path);
    written.push(key);
    return key;
  };
  try {
    const cover = files.coverImage && (await put('covers', files.coverImage));
    const images: string[] = [];
    for (const image of files.images) images.push(await put('images', image));
    const samplePdf = files.samplePdf && (await put('samples', files.samplePdf));
    const fullPdf = files.fullPdf && (await put('private', files.fullPdf));
    // Only the personalisation service reads it (/internal/books/:id/signature): never a public file.
    const authorSignature = files.authorSignature && (await put('private', files.authorSignature));
    return { written, cover, images, samplePdf, fullPdf, authorSignature };
  } catch (err) {
    await removeQuietly(storage, written);
    throw err;
  }
}

async function removeQuietly(storage: FileStorage, keys: Array<string | null | undefined>): Promise<void> {
  await Promise.all(keys.filter((k): k is string => Boolean(k)).map((k) => storage.delete(k).catch(() => undefined)));
}

function changedPayload(id: string, record: Omit<repo.BookRecord, 'id'>) {
  return { bookId: id, title: record.title, author: record.author, pricePaise: record.pricePaise, categoryId: record.categoryId };
}

export async function createBook(ctx: BookWriteContext, form: BookForm): Promise<Book> {
  const f = form.fields;
  checkMoney(f);
  // Validated as required by the create schema; asserted here for the compiler.
  const required = { title: f.title!, author: f.author!, description: f.description!, categoryId: f.category!, price: f.price! };
  const fullPdfPages = form.files.fullPdf?.pages;
  const stored = await storeUploads(ctx.storage, form.files);
  try {
    const id = await ctx.uow.run(async ({ trx, emit }) => {
      if (!(await repo.categoryExists(trx, required.categoryId))) throw badRequest('The chosen category does not exist');
      const record: repo.BookWrite = {
        title: required.title.trim(),
        author: required.author.trim(),
        description: required.description.trim(),
        pricePaise: rupeesToPaise(required.price),
        printingCostPaise: rupeesToPaise(f.printingCost ?? 0),
        tags: f.tags ?? [],
        rating: f.ratings ?? 0,
        categoryId: required.categoryId,
        sampleContent: f.sampleContent ?? '',
        trailLimit: f.trailLimit ?? 0,
        coverKey: stored.cover ?? null,
        imageKeys: stored.images,
        samplePdfKey: stored.samplePdf ?? null,
        fullPdfKey: stored.fullPdf ?? null,
        authorSignatureKey: stored.authorSignature ?? null,
        language: f.language?.trim() ?? DEFAULT_BOOK_LANGUAGE,
        pageCount: fullPdfPages ?? null,
        content: f.content ?? [],
      };
      const newId = await repo.insertBook(trx, record);
      await bumpCatalogueVersion(trx);
      await refreshTagCounts(trx, record.tags);
      await emit(createEvent('book.created', changedPayload(newId, record), { correlationId: ctx.correlationId, actor: ctx.actor }));
      return newId;
    });
    return toBook((await repo.findBook(ctx.db, id))!);
  } catch (err) {
    await removeQuietly(ctx.storage, stored.written);
    throw err;
  }
}

export async function updateBook(ctx: BookWriteContext, id: string, form: BookForm): Promise<Book> {
  const f = form.fields;
  checkMoney(f);
  const fullPdfPages = form.files.fullPdf?.pages;
  const stored = await storeUploads(ctx.storage, form.files);
  let replaced: Array<string | null> = [];
  try {
    await ctx.uow.run(async ({ trx, emit }) => {
      const current = await repo.findBookRecord(trx, id);
      if (!current) throw notFound('Book not found');
      if (f.category !== undefined && !(await repo.categoryExists(trx, f.category))) throw badRequest('The chosen category does not exist');
      const next: Omit<repo.BookRecord, 'id'> = {
        title: f.title?.trim() ?? current.title,
        author: f.author?.trim() ?? current.author,
        description: f.description?.trim() ?? current.description,
        pricePaise: f.price !== undefined ? rupeesToPaise(f.price) : current.pricePaise,
        printingCostPaise: f.printingCost !== undefined ? rupeesToPaise(f.printingCost) : current.printingCostPaise,
        tags: f.tags ?? current.tags,
        rating: f.ratings ?? current.rating,
        categoryId: f.category ?? current.categoryId,
        sampleContent: f.sampleContent ?? current.sampleContent,
        trailLimit: f.trailLimit ?? current.trailLimit,
        coverKey: stored.cover ?? current.coverKey,
        // New additional images replace the old set, as a re-upload does in the form.
        imageKeys: stored.images.length > 0 ? stored.images : current.imageKeys,
        samplePdfKey: stored.samplePdf ?? current.samplePdfKey,
        fullPdfKey: stored.fullPdf ?? current.fullPdfKey,
        authorSignatureKey: stored.authorSignature ?? current.authorSignatureKey,
        language: f.language?.trim() ?? current.language,
        // A new full PDF brings its own count (none when it cannot be read).
        pageCount: form.files.fullPdf ? (fullPdfPages ?? null) : current.pageCount,
      };
      await repo.updateBook(trx, id, next, f.content);
      await bumpCatalogueVersion(trx);
      await refreshTagCounts(trx, [...current.tags, ...next.tags]);
      await emit(createEvent('book.updated', changedPayload(id, next), { correlationId: ctx.correlationId, actor: ctx.actor }));
      replaced = [
        stored.cover ? current.coverKey : null,
        ...(stored.images.length > 0 ? current.imageKeys : []),
        stored.samplePdf ? current.samplePdfKey : null,
        stored.fullPdf ? current.fullPdfKey : null,
        stored.authorSignature ? current.authorSignatureKey : null,
      ];
    });
  } catch (err) {
    await removeQuietly(ctx.storage, stored.written);
    throw err;
  }
  await removeQuietly(ctx.storage, replaced);
  return toBook((await repo.findBook(ctx.db, id))!);
}

export async function deleteBook(ctx: BookWriteContext, id: string): Promise<void> {
  const removed = await ctx.uow.run(async ({ trx, emit }) => {
    const record = await repo.deleteBook(trx, id);
    if (!record) throw notFound('Book not found');
    await bumpCatalogueVersion(trx);
    await refreshTagCounts(trx, record.tags);
    await emit(createEvent('book.deleted', { bookId: id, title: record.title }, { correlationId: ctx.correlationId, actor: ctx.actor }));
    return record;
  });
  await removeQuietly(ctx.storage, [removed.coverKey, ...removed.imageKeys, removed.samplePdfKey, removed.fullPdfKey, removed.authorSignatureKey]);
}
