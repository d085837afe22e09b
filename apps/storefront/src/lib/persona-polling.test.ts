import {
  INVALID_PERSONA_ID,
  isPreparing,
  MAX_POLL_DELAY_MS,
  nextPollDelay,
  parsePersonaIdInput,
  PAYMENT_POLL_INTERVAL_MS,
  pollInterval,
  POLL_INTERVAL_MS,
  shouldPoll,
  statusLabel,
} from './persona-polling';

describe('polling policy', () => {
  it('asks every 2 s while all is well', () => {
    expect(POLL_INTERVAL_MS).toBe(2000);
    expect(nextPollDelay(0)).toBe(2000);
  });

  it('backs off after failed lookups, doubling up to a cap', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => nextPollDelay(n))).toEqual([4000, 8000, 16000, 30000, 30000, 30000]);
    expect(MAX_POLL_DELAY_MS).toBe(30000);
    expect(nextPollDelay(1000)).toBe(30000);
    expect(nextPollDelay(-1)).toBe(2000);
  });

  it('asks every 10 s while a payment is awaited, backing off to the same cap', () => {
    expect(PAYMENT_POLL_INTERVAL_MS).toBe(10000);
    expect(pollInterval({ paymentStatus: 'attempted', personaStatus: 'pending' })).toBe(10000);
    expect(pollInterval({ paymentStatus: 'paid', personaStatus: 'generating' })).toBe(2000);
    expect([0, 1, 2].map((n) => nextPollDelay(n, PAYMENT_POLL_INTERVAL_MS))).toEqual([10000, 20000, 30000]);
  });

  it('polls while a paid Persona is pending or generating, or the payment is awaited', () => {
    const paid = (personaStatus: 'pending' | 'generating' | 'ready' | 'failed') => ({ paymentStatus: 'paid' as const, personaStatus });
    expect(shouldPoll(paid('pending'))).toBe(true);
    expect(shouldPoll(paid('generating'))).toBe(true);
    expect(shouldPoll(paid('ready'))).toBe(false);
    expect(shouldPoll(paid('failed'))).toBe(false);
    expect(shouldPoll({ paymentStatus: 'created', personaStatus: 'pending' })).toBe(true);
    expect(shouldPoll({ paymentStatus: 'attempted', personaStatus: 'pending' })).toBe(true);
    expect(shouldPoll({ paymentStatus: 'failed', personaStatus: 'pending' })).toBe(false);
    expect(isPreparing({ paymentStatus: 'failed', personaStatus: 'pending' })).toBe(false);
  });
});

describe('persona id input', () => {
  it('normalises case, spaces, dashes and Crockford look-alikes', () => {
    expect(parsePersonaIdInput('  prs-7k3m-9qxd-2hfa-j8tw ')).toEqual({ personaId: 'PRS-7K3M-9QXD-2HFA-J8TW' });
    expect(parsePersonaIdInput('7K3M 9QXD 2HFA J8TW')).toEqual({ personaId: 'PRS-7K3M-9QXD-2HFA-J8TW' });
    expect(parsePersonaIdInput('PRS-OOOO-IIII-LLLL-0000')).toEqual({ personaId: 'PRS-0000-1111-1111-0000' });
  });

  it('refuses what cannot be a persona id with the form message', () => {
    expect(INVALID_PERSONA_ID).toBe('Please enter a valid Persona ID');
    for (const input of ['', '   ', 'PRS-1234', 'PRS-7K3M-9QXD-2HFA-J8TWX', 'PRS-UUUU-9QXD-2HFA-J8TW', 'hello world']) {
      expect({ input, result: parsePersonaIdInput(input) }).toEqual({ input, result: { error: INVALID_PERSONA_ID } });
    }
  });
});

describe('labels', () => {
  it('capitalise delivery type and status; a missing status reads as pending', () => {
    expect(statusLabel('physical')).toBe('Physical');
    expect(statusLabel('shipped')).toBe('Shipped');
    expect(statusLabel(undefined)).toBe('Pending');
    expect(statusLabel('returned')).toBe('Returned');
  });
});
