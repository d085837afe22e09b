import { forgetSession, readSession, saveSession, tokenFromFragment } from './library-session';

function memory(): Storage {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
    key: () => null,
    get length() {
      return items.size;
    },
  };
}

describe('the library session', () => {
  it("reads a link's token from the fragment only", () => {
    const token = 'a'.repeat(43);
    expect(tokenFromFragment(`#token=${token}`)).toBe(token);
    expect(tokenFromFragment('')).toBeNull();
    expect(tokenFromFragment('#token=short')).toBeNull();
    expect(tokenFromFragment(`#token=${token}&x=<script>`)).toBeNull();
  });

  it('keeps the session in the tab until it ends, and forgets it', () => {
    const storage = memory();
    const now = Date.parse('2026-11-25T10:00:00Z');
    saveSession(storage, { token: 't'.repeat(43), expiresAt: '2026-11-25T11:00:00Z' });
    expect(readSession(storage, now)).toEqual({ token: 't'.repeat(43), expiresAt: '2026-11-25T11:00:00Z' });
    expect(readSession(storage, Date.parse('2026-11-25T11:00:01Z'))).toBeNull();
    forgetSession(storage);
    expect(readSession(storage, now)).toBeNull();
    storage.setItem('persona.library', '{not json');
    expect(readSession(storage, now)).toBeNull();
  });
});
