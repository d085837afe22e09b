// Category Management (spec §2, §5, §8): create, edit, delete with a confirmation; a category
// still used by books cannot be deleted and the server's 409 message says so.
import { useId, useRef, useState, type FormEvent } from 'react';
import { CATEGORY_NAME_MAX, type Category } from '@persona/contracts';
import { errorMessage } from '@persona/web-kit/api-client';
import { useAsync } from '@persona/web-kit/use-async';
import { useToast } from '@persona/web-kit/toast';
import { useConfirm } from '../../../components/confirm-dialog';
import { ListView } from '../../../components/list-view';
import { PageHeader } from '../../../components/page-header';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { listCategories } from '../../../lib/categories-api';
import { deleteCategory, saveCategory } from '../api/categories';

const DESCRIPTION_MAX = 1000;

export function CategoriesPage() {
  usePageTitle('Categories');
  const categories = useAsync('categories', listCategories);
  useFailureToast(categories.error, 'Failed to load categories');
  const { toast } = useToast();
  const confirm = useConfirm();
  const [editing, setEditing] = useState<Category | null>(null);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const ids = { name: useId(), description: useId(), heading: useId() };

  function startEdit(category: Category) {
    setEditing(category);
    setName(category.name);
    setDescription(category.description);
    nameInput.current?.focus();
  }

  function reset() {
    setEditing(null);
    setName('');
    setDescription('');
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    const trimmed = name.trim();
    if (!trimmed) {
      toast({ title: 'Operation failed', description: 'Name is required', variant: 'destructive' });
      return;
    }
    setSaving(true);
    try {
      await saveCategory({ name: trimmed, description: description.trim() }, editing?._id);
      toast({ title: editing ? 'Category updated successfully' : 'Category created successfully' });
      reset();
      categories.reload();
    } catch (error) {
      toast({ title: 'Operation failed', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  }

  async function remove(category: Category) {
    if (deleting) return;
    if (!(await confirm({ message: 'Are you sure you want to delete this category?' }))) return;
    setDeleting(category._id);
    try {
      await deleteCategory(category._id);
      toast({ title: 'Category deleted' });
      if (editing?._id === category._id) reset();
      categories.reload();
    } catch (error) {
      toast({ title: 'Delete failed', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setDeleting(null);
    }
  }

  return (
    <>
      <PageHeader title="Category Management" />
      <div className="split">
        <form className="panel" onSubmit={submit} aria-labelledby={ids.heading}>
          <h2 id={ids.heading} className="section-title">
            {editing ? `Edit “${editing.name}”` : 'Add a category'}
          </h2>
          <div className="field">
            <label htmlFor={ids.name}>
              Name <span aria-hidden="true">*</span>
            </label>
            <input ref={nameInput} id={ids.name} name="name" required maxLength={CATEGORY_NAME_MAX} value={name} onChange={(e) => setName(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor={ids.description}>Description (optional)</label>
            <textarea
              id={ids.description}
              name="description"
              rows={3}
              maxLength={DESCRIPTION_MAX}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
            />
          </div>
          <div className="form-actions">
            <button type="submit" className="btn btn--primary" disabled={saving}>
              {saving ? 'Saving...' : editing ? 'Update Category' : 'Create Category'}
            </button>
            {editing && (
              <button type="button" className="btn btn--outline" onClick={reset}>
                Cancel
              </button>
            )}
          </div>
        </form>

        <section className="panel" aria-label="Categories">
          <ListView list={categories} what="Categories" loading="Loading categories..." empty="No categories yet. Add the first one.">
            {(list) => (
              <ul className="item-list">
                {list.map((category) => (
                  <li key={category._id} className="item-list__item">
                    <div>
                      <p className="item-list__title">{category.name}</p>
                      {category.description && <p className="item-list__text">{category.description}</p>}
                    </div>
                    <div className="item-list__actions">
                      <button type="button" className="btn btn--outline btn--sm" onClick={() => startEdit(category)}>
                        Edit<span className="visually-hidden"> {category.name}</span>
                      </button>
                      <button type="button" className="btn btn--danger btn--sm" onClick={() => remove(category)} disabled={deleting === category._id}>
                        Delete<span className="visually-hidden"> {category.name}</span>
                      </button>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </ListView>
        </section>
      </div>
    </>
  );
}
