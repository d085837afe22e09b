import { startHarness, outboxActors, outboxTypes, type Harness } from '../support';

describe('category routes', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  const create = (payload: unknown, headers = h.auth) => h.app.inject({ method: 'POST', url: '/api/categories', payload: payload as object, headers });

  it('creates, lists, renames and deletes a category, with an event for each change', async () => {
    const created = await create({ name: '  Poetry  ', description: 'Verse' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ data: { name: 'Poetry', description: 'Verse' }, message: 'Category created successfully' });
    const id = created.json().data._id;

    const list = await h.app.inject({ url: '/api/categories' });
    expect(list.json().data.map((c: { name: string }) => c.name)).toContain('Poetry');

    const renamed = await h.app.inject({ method: 'PUT', url: `/api/categories/${id}`, payload: { name: 'Poems' }, headers: h.auth });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ data: { _id: id, name: 'Poems', description: '' }, message: 'Category updated successfully' });

    const deleted = await h.app.inject({ method: 'DELETE', url: `/api/categories/${id}`, headers: h.auth });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().message).toBe('Category deleted');
    expect(await outboxTypes(h.database)).toEqual(['category.created', 'category.updated', 'category.deleted']);
    // Each names the administrator whose token made the change (the audit log's "who").
    expect(await outboxActors(h.database)).toEqual(['admin@example.com', 'admin@example.com', 'admin@example.com']);
  });

  it('takes a name in any script the Persona prints and refuses, naming the characters, one it cannot', async () => {
    expect((await create({ name: 'कविता' })).statusCode).toBe(201);
    const refused = await create({ name: 'Poetry ✿ 詩' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('The category name has a character no Persona can print: “詩” (U+8A69)');
    const list = await h.app.inject({ url: '/api/categories' });
    expect(list.json().data.map((c: { name: string }) => c.name)).not.toContain('Poetry ✿ 詩');
  });

  it('refuses a duplicate name (any case) with 409', async () => {
    expect((await create({ name: 'Travel' })).statusCode).toBe(201);
    const dup = await create({ name: 'travel' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('A category with this name already exists');
  });

  it('refuses to delete a category still used by books with 409', async () => {
    const { _id } = (await create({ name: 'In use' })).json().data;
    await h.database.db
      .insertInto('books')
      .values({ title: 't', author: 'a', price_paise: 100, category_id: _id, cover_key: null, sample_pdf_key: null, full_pdf_key: null })
      .execute();
    const res = await h.app.inject({ method: 'DELETE', url: `/api/categories/${_id}`, headers: h.auth });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('This category is used by 1 book; move or delete it first');
    expect((await h.app.inject({ url: '/api/categories' })).json().data.some((c: { _id: string }) => c._id === _id)).toBe(true);
  });

  it.each([
    [{}, 'body field "name" is required'],
    [{ name: '   ' }, 'body field "name" must not be blank'],
    [{ name: 42 }, 'body field "name" must be string'],
    [{ name: 'x', _id: 'forged' }, 'body field "_id" is not allowed'],
    [{ name: 'x', createdAt: '2020-01-01' }, 'body field "createdAt" is not allowed'],
    [{ name: 'x'.repeat(81) }, 'body field "name" must be at most 80 characters'],
  ])('refuses %j with 400 and writes nothing', async (payload, message) => {
    const before = (await h.app.inject({ url: '/api/categories' })).json().data.length;
    const res = await create(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect((await h.app.inject({ url: '/api/categories' })).json().data.length).toBe(before);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const unknown = await h.app.inject({ method: 'PUT', url: '/api/categories/5f0c6a51-8f4c-4a43-9d36-8a9e8f2a1b11', payload: { name: 'n' }, headers: h.auth });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Category not found');
    const malformed = await h.app.inject({ method: 'DELETE', url: '/api/categories/123', headers: h.auth });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe('path field "id" must be a valid id');
  });

  it('needs an admin token for every write', async () => {
    const id = '5f0c6a51-8f4c-4a43-9d36-8a9e8f2a1b11';
    for (const res of await Promise.all([
      create({ name: 'x' }, {} as never),
      h.app.inject({ method: 'PUT', url: `/api/categories/${id}`, payload: { name: 'x' } }),
      h.app.inject({ method: 'DELETE', url: `/api/categories/${id}` }),
    ])) {
      expect(res.statusCode).toBe(401);
    }
  });
});
