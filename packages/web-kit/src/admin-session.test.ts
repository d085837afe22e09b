import { adminLabelFrom, clearAdminSession, readAdminLabel, saveAdminSession } from './admin-session';

describe('admin button label', () => {
  it("is the stored admin's name", () => {
    expect(adminLabelFrom(JSON.stringify({ name: 'Asha', email: 'asha@example.com' }))).toBe('Asha');
  });

  it('falls back to the e-mail when the name is missing or blank', () => {
    expect(adminLabelFrom(JSON.stringify({ email: 'asha@example.com' }))).toBe('asha@example.com');
    expect(adminLabelFrom(JSON.stringify({ name: '  ', email: 'asha@example.com' }))).toBe('asha@example.com');
  });

  it('is "Admin" when nothing usable is stored', () => {
    for (const raw of [null, undefined, '', 'not json', 'null', '42', '"text"', '[]', '{}', JSON.stringify({ name: 7, email: false })]) {
      expect(adminLabelFrom(raw)).toBe('Admin');
    }
  });

  it('is "Admin" when storage itself throws or is absent', () => {
    expect(
      readAdminLabel({
        getItem: () => {
          throw new Error('denied');
        },
      }),
    ).toBe('Admin');
    expect(readAdminLabel(undefined)).toBe('Admin');
    expect(readAdminLabel({ getItem: () => JSON.stringify({ name: 'Ravi' }) })).toBe('Ravi');
  });
});

describe('the stored admin session', () => {
  const memory = () => {
    const map = new Map<string, string>();
    return {
      map,
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
      removeItem: (k: string) => void map.delete(k),
    };
  };

  it('keeps the token under "token" and the admin record under "admin", and forgets both', () => {
    const storage = memory();
    saveAdminSession('jwt.token.here', { name: 'Asha', email: 'asha@example.com' }, storage);
    expect(storage.map.get('token')).toBe('jwt.token.here');
    expect(readAdminLabel(storage)).toBe('Asha');
    clearAdminSession(storage);
    expect(storage.map.size).toBe(0);
    expect(readAdminLabel(storage)).toBe('Admin');
  });
});
