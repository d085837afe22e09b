import type { PersonaDownloads } from '@persona/contracts';
import { downloadLabel, downloadsLeftText, downloadsRefusal, renewalTokenFromFragment } from './persona-downloads';

const count = (format: 'pdf' | 'epub', used: number, limit = 10) => ({ format, used, limit, left: Math.max(0, limit - used), total: used, lastAt: null });
const state = (over: Partial<PersonaDownloads> = {}): PersonaDownloads => ({
  personaId: 'PRS-ABCD-EFGH-JKMN-PQRS',
  status: 'open',
  until: '2027-11-27T10:00:00.000Z',
  revokedAt: null,
  formats: [count('pdf', 3), count('epub', 0)],
  ...over,
});

describe('persona downloads', () => {
  it('names each download button by its format', () => {
    expect([downloadLabel('pdf'), downloadLabel('epub')]).toEqual(['Download PDF', 'Download EPUB']);
  });

  it('says what each format has left', () => {
    expect(downloadsLeftText(count('pdf', 3))).toBe('7 of 10 downloads left');
    expect(downloadsLeftText(count('pdf', 0, 1))).toBe('1 of 1 download left');
  });

  it('refuses nothing while every format has downloads left', () => {
    expect(downloadsRefusal(state())).toBeNull();
    expect(downloadsRefusal(state({ status: 'ended' }))).toBeNull();
  });

  it('says how often it was downloaded, and which format, when the limit is reached', () => {
    expect(downloadsRefusal(state({ formats: [count('pdf', 10), count('epub', 2)] }))).toMatchObject({
      title: 'This Persona has been downloaded 10 times as PDF, the most we allow',
      canAsk: true,
    });
    expect(downloadsRefusal(state({ formats: [count('pdf', 10), count('epub', 10)] }))?.title).toBe(
      'This Persona has been downloaded 10 times, the most we allow',
    );
  });

  it('says when the downloads ended, and that only the owner can undo a stop', () => {
    expect(downloadsRefusal(state({ status: 'expired', until: '2027-11-27T10:00:00.000Z' }))).toMatchObject({
      title: "This Persona's downloads have ended",
      message: expect.stringContaining('27 November 2027'),
      canAsk: true,
    });
    expect(downloadsRefusal(state({ status: 'revoked' }))).toMatchObject({ canAsk: false });
  });

  it('reads the renewal token from the fragment only', () => {
    expect(renewalTokenFromFragment(`#renew=${'a'.repeat(43)}`)).toBe('a'.repeat(43));
    expect(renewalTokenFromFragment('#renew=short')).toBeNull();
    expect(renewalTokenFromFragment(`#token=${'a'.repeat(43)}`)).toBeNull();
  });
});
